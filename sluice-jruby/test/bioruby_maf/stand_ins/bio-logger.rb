# frozen_string_literal: true

# Stands in for the bio-logger gem, which no registry reachable here carries: the names bioruby-maf calls, on Ruby's
# Logger. Only for running bioruby-maf beside Sluice in these tests.
require "logger"

module Bio
  module Log
    DEBUG = ::Logger::DEBUG
    INFO = ::Logger::INFO
    WARN = ::Logger::WARN
    ERROR = ::Logger::ERROR

    # A named logger; LoggerPlus[name] finds the one made under that name.
    class LoggerPlus < ::Logger
      @named = {}
      class << self
        attr_reader :named

        def [](name)
          named[name] ||= new(name)
        end
      end

      attr_accessor :outputters

      def initialize(name)
        super($stderr)
        self.level = WARN
        self.class.named[name] = self
      end
    end

    # Where a logger writes.
    module Outputter
      def self.stderr
        $stderr
      end
    end

    # Command-line logging options: accepted and ignored.
    module CLI
      def self.logger(_name) = nil
      def self.trace(_spec) = nil
      def self.configure(_name) = nil
    end
  end
end
