# frozen_string_literal: true

# Stands in for the bio-alignment gem (not reachable here): the two classes bioruby-maf builds, holding what it gives.
module Bio
  module BioAlignment
    # A named aligned sequence.
    Sequence = Struct.new(:id, :seq) do
      def to_s = seq.to_s
    end

    # A list of aligned sequences.
    class Alignment
      include Enumerable
      attr_reader :sequences

      def initialize(sequences = [], *)
        @sequences = sequences.to_a
      end

      def each(&) = sequences.each(&)
      def size = sequences.size
      def [](i) = sequences[i]
    end
  end
end
