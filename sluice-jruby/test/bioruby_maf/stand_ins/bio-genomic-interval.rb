# frozen_string_literal: true

# Stands in for the bio-genomic-interval gem (not reachable here): a 1-based, closed interval on a named sequence,
# with the conversions and comparisons bioruby-maf uses.
module Bio
  class GenomicInterval
    attr_accessor :chrom, :chr_start, :chr_end

    def initialize(chrom = "", chr_start = 1, chr_end = 1)
      raise ArgumentError, "start #{chr_start} and end #{chr_end}" unless chr_start >= 1 && chr_start <= chr_end

      @chrom = chrom
      @chr_start = chr_start
      @chr_end = chr_end
    end

    # From 0-based, half-open coordinates.
    def self.zero_based(chrom, zero_start, zero_end)
      new(chrom, zero_start + 1, zero_end)
    end

    def zero_start = chr_start - 1
    def zero_end = chr_end
    def length = chr_end - chr_start + 1
    def to_s = "#{chrom}:#{chr_start}-#{chr_end}"

    # Where other lies against this interval: :different_chrom, :left_off, :right_off (no overlap, other to the left or
    # right), :equal, :contains (this contains other), :contained_by, :left_overlapped, :right_overlapped.
    def compare(other)
      return :different_chrom if chrom != other.chrom
      return :left_off if other.chr_end < chr_start
      return :right_off if other.chr_start > chr_end
      return :equal if other.chr_start == chr_start && other.chr_end == chr_end
      return :contains if other.chr_start >= chr_start && other.chr_end <= chr_end
      return :contained_by if other.chr_start <= chr_start && other.chr_end >= chr_end

      other.chr_start < chr_start ? :left_overlapped : :right_overlapped
    end

    def overlapped?(other) = !%i[different_chrom left_off right_off].include?(compare(other))

    def intersection(other)
      raise ArgumentError, "#{self} and #{other} do not overlap" unless overlapped?(other)

      GenomicInterval.new(chrom, [chr_start, other.chr_start].max, [chr_end, other.chr_end].min)
    end
  end
end
