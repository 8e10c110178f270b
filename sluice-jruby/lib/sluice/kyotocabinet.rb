# frozen_string_literal: true

# Kyoto Cabinet's Ruby names for Sluice::DB, so that code written for the kyotocabinet gem runs with only its require
# changed:
#
#   require 'sluice/kyotocabinet'     # instead of require 'kyotocabinet'
#   db = KyotoCabinet::DB.new
#   db.open("index.kct", KyotoCabinet::DB::OWRITER | KyotoCabinet::DB::OCREATE)
#
# Defines KyotoCabinet::DB, Cursor, Error, Visitor and FileProcessor. Refuses to load over a real Kyoto Cabinet.

require "sluice/db"

if defined?(KyotoCabinet) && KyotoCabinet.const_defined?(:DB) && !KyotoCabinet::DB.equal?(Sluice::DB)
  raise LoadError, "KyotoCabinet is defined already (the kyotocabinet gem?); sluice/kyotocabinet would replace it"
end

module KyotoCabinet
  DB = Sluice::DB unless const_defined?(:DB)
  Cursor = Sluice::DB::Cursor unless const_defined?(:Cursor)
  Error = Sluice::DB::Error unless const_defined?(:Error)
  Visitor = Sluice::DB::Visitor unless const_defined?(:Visitor)
  FileProcessor = Sluice::DB::FileProcessor unless const_defined?(:FileProcessor)
  VERSION = "sluice-#{Sluice::VERSION}" unless const_defined?(:VERSION)
end
