# frozen_string_literal: true

require "minitest/autorun"
require "stringio"
require "tmpdir"
require "fileutils"

# Run by io.sluice.bench.jruby.BenchScriptTest, in a JRuby on that test's class path.
module SluiceTest
  # A fresh directory per test, removed afterwards.
  module TempDir
    def setup
      super
      @dir = Dir.mktmpdir("sluice-test")
    end

    def teardown
      FileUtils.rm_rf(@dir) if @dir
      super
    end
  end
end

# The measuring half of `sluice bench jruby` (bench.rb, carried in sluice-bench's jar), on a tiny file: every row of
# every cell, a rehearsal and a round each, sizes checked by the script itself, nothing left behind.
class SluiceBenchScriptTest < Minitest::Test
  include SluiceTest::TempDir

  def test_the_benchmark_script_measures_every_row
    load "uri:classloader:/io/sluice/bench/jruby/bench.rb"
    out, = capture_io do
      SluiceBench.main(["--size", "65536", "--chunk-sizes", "1024,4096", "--rounds", "1", "--dir", @dir])
    end
    lines = out.lines.map { |l| l.chomp.split("\t") }
    assert(lines.any? { |l| l[0] == "info" && l[2].include?(JRUBY_VERSION) })
    samples = lines.select { |l| l[0] == "sample" }
    writes = samples.select { |l| l[1] == "seqwrite" }
    reads = samples.reject { |l| l[1] == "seqwrite" }
    assert_equal 2 * 2 * SluiceBench::WRITERS.size * 2, writes.size
    assert_equal 2 * 2 * SluiceBench::READERS.size * 2, reads.size
    assert_equal SluiceBench::WRITERS.keys.sort, writes.map { |l| l[4] }.uniq.sort
    assert_equal SluiceBench::READERS.keys.sort, reads.map { |l| l[4] }.uniq.sort
    samples.each do |_, _, _, chunk, _, round, bytes, ops, real|
      assert_equal 65_536, Integer(bytes)
      assert_equal 65_536 / Integer(chunk), Integer(ops)
      assert_includes [0, 1], Integer(round)
      assert_operator Float(real), :>, 0
    end
    assert_empty Dir.children(@dir), "the benchmark's files are removed"
  end
end
