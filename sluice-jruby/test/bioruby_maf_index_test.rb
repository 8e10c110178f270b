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

  def test_its_own_kyoto_cabinet_files_are_named_as_such
    kct = File.join(@data, "mm8_chr7_tiny.kct")
    db = KyotoCabinet::DB.new
    refute db.open(kct, KyotoCabinet::DB::OREADER)
    assert_match(/#{Regexp.escape(kct)}\): a Kyoto Cabinet database file .* build the store anew/, db.error.message)
    error = assert_raises(RuntimeError) { Bio::MAF::KyotoIndex.open(kct) }
    assert_equal "Could not open DB file!", error.message, "bioruby-maf's own message, which does not show db.error"
  end
end
