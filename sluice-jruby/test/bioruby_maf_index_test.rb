# frozen_string_literal: true

require "test_helper"
require "stringio"

# bioruby-maf's index code (lib/bio/maf/index.rb), unchanged, on Sluice::DB: its `require 'kyotocabinet'` is answered
# by bioruby_maf/kyotocabinet_shim, its missing dependency gems by bioruby_maf/stand_ins. It builds the index of each
# test/data MAF file it can index, reopens it and runs its queries; the answers must be those it gave on Kyoto
# Cabinet itself under MRI (bioruby_maf/index_answers_kyotocabinet.txt).
#
# Needs a bioruby-maf checkout, or a git repository to clone, named by BIORUBY_MAF; skipped, saying so, without it.
class BiorubyMafIndexTest < Minitest::Test
  include SluiceTest::TempDir

  HERE = File.join(__dir__, "bioruby_maf")

  def self.checkout
    @checkout ||= begin
      from = ENV.fetch("BIORUBY_MAF", "")
      if from.empty?
        nil
      elsif File.directory?(File.join(from, "lib", "bio", "maf"))
        from
      else
        dir = File.join(Dir.tmpdir, "sluice-bioruby-maf-#{Process.pid}")
        system("git", "clone", "-q", from, dir, exception: true) unless File.directory?(dir)
        at_exit { FileUtils.rm_rf(dir) }
        dir
      end
    end
  end

  def setup
    super
    root = self.class.checkout
    skip "set BIORUBY_MAF to a bioruby-maf checkout or git repository to run bioruby-maf's index code" unless root
    @data = File.join(root, "test", "data")
    unless defined?(Bio::MAF::KyotoIndex)
      [File.join(root, "lib"), File.join(HERE, "stand_ins"), File.join(HERE, "kyotocabinet_shim")].each do |dir|
        $LOAD_PATH.unshift(dir)
      end
      require "bio-maf"
      require File.join(HERE, "index_queries")
    end
  end

  def test_its_index_answers_on_sluice_as_on_kyoto_cabinet
    out = StringIO.new
    BiorubyMafQueries.run(@dir, BiorubyMafQueries::FILES.map { |f| File.join(@data, f) }, out)
    assert_equal File.read(File.join(HERE, "index_answers_kyotocabinet.txt")), out.string
    assert_operator Dir[File.join(@dir, "*.kct")].size, :==, BiorubyMafQueries::FILES.size
  end

  # Its test/data holds indexes that Kyoto Cabinet wrote (.kct): read-only, they open and answer as the index
  # Sluice::DB builds from the same MAF file; for writing, they are refused, saying what they are.
  def test_its_own_kyoto_cabinet_files_open_read_only
    kcts = Dir[File.join(@data, "*.kct")].sort
    refute_empty kcts
    kcts.each do |kct|
      maf = kct.sub(/\.kct\z/, ".maf")
      theirs = Bio::MAF::KyotoIndex.open(kct)
      ours = Bio::MAF::KyotoIndex.build(Bio::MAF::Parser.new(maf), File.join(@dir, File.basename(kct)))
      assert_equal ours.ref_seq, theirs.ref_seq, kct
      assert_equal ours.index_sequences, theirs.index_sequences, kct
      assert_equal ours.species, theirs.species, kct
      blocks = []
      Bio::MAF::Parser.new(maf).each_block { |b| blocks << b if b.sequences.first.source == ours.ref_seq }
      whole = Bio::GenomicInterval.zero_based(ours.ref_seq, blocks.map { |b| b.sequences.first.start }.min,
                                              blocks.map { |b| b.sequences.first.end }.max)
      found = [theirs, ours].map do |index|
        parser = Bio::MAF::Parser.new(maf)
        offsets = index.find([whole], parser).map(&:offset)
        parser.close
        offsets
      end
      refute_empty found[0], kct
      assert_equal found[1], found[0], kct
      theirs.close
      ours.close

      db = KyotoCabinet::DB.new
      refute db.open(kct, KyotoCabinet::DB::OWRITER)
      assert_match(/#{Regexp.escape(kct)}\): a Kyoto Cabinet database file .* build the store anew/, db.error.message)
    end
  end
end
