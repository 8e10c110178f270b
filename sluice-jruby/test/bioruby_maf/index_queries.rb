# frozen_string_literal: true

# bioruby-maf's index code (lib/bio/maf/index.rb) run unchanged: for each MAF file named, builds its index in DIR,
# reopens it read-only and prints what queries find (every block over the reference sequence's whole span, the blocks
# over a window in its middle, a filter by species count, and a slice), one line per answer. Run under MRI with the
# real kyotocabinet gem and under JRuby with kyotocabinet_shim/ first on the load path (Sluice::DB), the outputs
# should be the same:
#
#   ruby -I stand_ins -I BIORUBY_MAF/lib index_queries.rb DIR FILE...
#   java -jar jruby-complete.jar -I kyotocabinet_shim -I stand_ins -I SLUICE_GEM/lib -I BIORUBY_MAF/lib \
#        index_queries.rb DIR FILE...
#
# index_answers_kyotocabinet.txt is what MRI 3.1 with Kyoto Cabinet 1.2.79 printed for FILES (in that order);
# bioruby_maf_index_test.rb compares Sluice's answers with it.
require "bio-maf"

module BiorubyMafQueries
  # The test/data files bioruby-maf can index (t1.maf's blocks change reference sequence, and empty.maf has no
  # block: bioruby-maf's index refuses both, on Kyoto Cabinet as on Sluice).
  FILES = %w[big-block.maf chr22_ieq.maf chrY-1block.maf ext-bin.maf gap-1.maf mm8.chrM.maf mm8_chr7_tiny.maf
             mm8_chrM_tiny.maf mm8_mod_a.maf mm8_single.maf mm8_subset_a.maf].freeze

  def self.run(dir, mafs, out)
    mafs.each { |maf| one(dir, maf, out) }
  end

  def self.one(dir, maf, out)
    name = File.basename(maf)
    out.puts "file #{name}"
    path = File.join(dir, "#{name}.kct")
    parser = Bio::MAF::Parser.new(maf)
    index = Bio::MAF::KyotoIndex.build(parser, path)
    index.close
    index = Bio::MAF::KyotoIndex.open(path)
    out.puts "ref #{index.ref_seq} sequences #{index.index_sequences.sort.inspect} species #{index.species.sort.inspect}"
    blocks = []
    Bio::MAF::Parser.new(maf).each_block { |b| blocks << b if b.sequences.first.source == index.ref_seq }
    unless blocks.empty?
      from = blocks.map { |b| b.sequences.first.start }.min
      to = blocks.map { |b| b.sequences.first.end }.max
      whole = Bio::GenomicInterval.zero_based(index.ref_seq, from, to)
      mid = (from + to) / 2
      window = Bio::GenomicInterval.zero_based(index.ref_seq, [mid - 50, from].max, [mid + 50, to].min)
      p2 = Bio::MAF::Parser.new(maf)
      out.puts "whole #{index.find([whole], p2).map(&:offset).inspect}"
      out.puts "window #{index.find([window], p2).map(&:offset).inspect}"
      out.puts "at least 5 rows #{index.find([whole], p2, at_least_n_sequences: 5).map(&:offset).inspect}"
      out.puts "slice #{index.slice(window, p2).map { |b| [b.offset, b.sequences.first.start, b.sequences.first.text.size] }.inspect}"
      p2.close
    end
    index.close
    parser.close
  end
end

if $PROGRAM_NAME == __FILE__
  dir = ARGV.shift
  BiorubyMafQueries.run(dir, ARGV, $stdout)
end
