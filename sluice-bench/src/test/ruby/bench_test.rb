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
    # Three kinds of file (new, cached, rewritten), two chunk sizes, rounds 0 and 1.
    assert_equal 3 * 2 * SluiceBench::WRITERS.size * 2, writes.size
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

  # One writer's JVM of `sluice bench jruby`: ready once warmed up, then a step per line of input, each answered by
  # "done" after its sample lines.
  def test_a_served_writer_answers_each_step_after_its_samples
    load "uri:classloader:/io/sluice/bench/jruby/bench.rb"
    stdin = $stdin
    $stdin = StringIO.new("prepare 1024\nrun cached 1024 0\nrun cached 1024 1\ndelete\nrun new 4096 1\n")
    out, = capture_io { SluiceBench.serve(@dir, 65_536, "Sluice::MappedWriter") }
    lines = out.lines.map { |l| l.chomp.split("\t") }
    assert_equal %w[done done sample done sample done done sample done], lines.map(&:first)
    samples = lines.select { |l| l[0] == "sample" }
    assert_equal [%w[cached 1024 Sluice::MappedWriter 0], %w[cached 1024 Sluice::MappedWriter 1],
                  %w[new 4096 Sluice::MappedWriter 1]], samples.map { |l| [l[2], l[3], l[4], l[5]] }
    assert_equal 65_536, File.size(File.join(@dir, SluiceBench::WRITE_TARGET))

    $stdin = StringIO.new("run cached 1024 x\n")
    assert_raises(ArgumentError) { capture_io { SluiceBench.serve(@dir, 65_536, "Sluice::MappedWriter") } }
    $stdin = StringIO.new("flush\n")
    assert_raises(ArgumentError) { capture_io { SluiceBench.serve(@dir, 65_536, "Sluice::MappedWriter") } }
    error = assert_raises(ArgumentError) do
      capture_io { SluiceBench.main(["--writers", "ruby-File,Sluice::MappedWriter", "--serve", "true", "--dir", @dir]) }
    end
    assert_match(/one writer/, error.message)
  ensure
    $stdin = stdin
  end

  # Every timed write starts from a file whose pages the previous run left flushed, not dirty: the flush comes
  # before each writer is opened, outside the timing, for every row alike.
  def test_every_timed_write_follows_a_flush_of_the_previous_runs_file
    load "uri:classloader:/io/sluice/bench/jruby/bench.rb"
    events = []
    spy = Module.new do
      define_method(:settle) do |target, cached = false|
        events << [:settle, File.exist?(target) ? File.size(target) : nil, cached]
        super(target, cached)
      end
      define_method(:timed) do |workload, file, chunk, name, round, bytes, ops, **opts, &block|
        events << [:timed, file, name]
        super(workload, file, chunk, name, round, bytes, ops, **opts, &block)
      end
    end
    SluiceBench.singleton_class.prepend(spy)
    capture_io do
      SluiceBench.writes(@dir, 65_536, [1024], 1, %w[ruby-File MmapFileExt-unboxed-unsafe Sluice::MappedWriter])
    end
    timed = events.each_index.select { |i| events[i][0] == :timed }
    assert_equal 3 * 2 * 3, timed.size
    timed.each do |i|
      assert_equal :settle, events[i - 1][0], "a flush right before #{events[i].inspect}"
    end
    # Over a cached file, what is flushed is the file the previous run wrote in full.
    cached = timed.select { |i| events[i][1] == "cached" }
    assert(cached.all? { |i| events[i - 1][1] == 65_536 })
    # And only then is it read back into the page cache where it is not.
    assert_equal(timed.map { |i| events[i][1] == "cached" }, timed.map { |i| events[i - 1][2] })
  ensure
    spy&.instance_methods(false)&.each { |m| spy.send(:remove_method, m) }
  end

  # What the kernel dropped of a cached cell's file comes back before the next run, untimed; what is there is not
  # read again.
  def test_recache_reads_back_the_pages_the_kernel_dropped
    load "uri:classloader:/io/sluice/bench/jruby/bench.rb"
    path = File.join(@dir, "cached.bin")
    File.binwrite(path, "x" * (10 << 20))
    skip "no posix_fadvise here to drop the file with" unless Java::IoSluiceChunks::CacheAdvice.isSupported

    Java::IoSluiceChunks::CacheAdvice.drop(java.nio.file.Path.of(path))
    channel = java.nio.channels.FileChannel.open(java.nio.file.Path.of(path),
                                                 java.nio.file.StandardOpenOption::READ)
    begin
      read_back = nil
      _, err = capture_io { read_back = SluiceBench.recache(path, channel) }
      assert_operator read_back, :>, 0, "the dropped file is read back"
      # Whole pieces: 4 MiB, 4 MiB and the last 2 MiB.
      assert_includes [2, 4, 6, 8, 10].map { |m| m << 20 }, read_back
      assert_match(/read back [0-9.]+ MiB of cached\.bin/, err)
      # All of it in the page cache now: nothing more to read.
      _, err = capture_io { assert_equal 0, SluiceBench.recache(path, channel) }
      assert_empty err
    ensure
      channel.close
    end
    assert_equal "x" * (10 << 20), File.binread(path)
  end

  # As the seed's harness (mmap_test.rb) drives them: each row is a lambda of (writer, String) with the row's own
  # call, run from a block per write; the String is the harness's (its own array, not frozen).
  def test_the_rows_are_the_seeds_harness_write_lambdas_on_its_strings
    load "uri:classloader:/io/sluice/bench/jruby/bench.rb"
    SluiceBench::WRITERS.each do |name, (_open, write)|
      assert write.lambda?, name
      assert_equal 2, write.arity, name
    end
    [1, 4, 16].each do |kib|
      data = SluiceBench.data(kib * 1024)
      assert_equal(("abcdefg\n" * (kib * 1024 / 8)).b, data)
      assert_equal Encoding::BINARY, data.encoding
      refute data.frozen?
    end
    assert_equal ("abcdefg\n" * 125).b + "abc", SluiceBench.data(1003)
  end

  # As the seed's harness: its writers map the whole file when they are made, before the timed writes, and every
  # writer is closed after them.
  def test_the_seeds_writers_map_the_whole_file_before_the_timed_writes
    load "uri:classloader:/io/sluice/bench/jruby/bench.rb"
    path = File.join(@dir, "w.bin")
    data = ("abcdefg\n" * 128).b.freeze
    whole = %w[PureMmapFile MmapFile-autoboxing MmapFile-unboxed-safe MmapFile-unboxed-unsafe
               MmapFileExt-unboxed-safe MmapFileExt-unboxed-unsafe]
    SluiceBench::WRITERS.each_key do |name|
      before = nil
      SluiceBench.write_run(name, path, true, data, 64) do |loop|
        before = File.size(path)
        loop.call
      end
      assert_equal(whole.include?(name) ? 65_536 : 0, before, name)
      assert_equal 65_536, File.size(path), name
      assert_equal data * 64, File.binread(path), name
      SluiceBench.write_run(name, path, false, data.tr("a", "b"), 64)
      assert_equal data.tr("a", "b") * 64, File.binread(path), "#{name} over the file"
      File.delete(path)
    end
  end

  # The rewritten cells name their files as the seed's harness does: Ruby's File its own, the mapped writers one
  # they share, and a run flushes both before it starts; nothing is left behind.
  def test_rewritten_runs_give_file_a_file_of_its_own_and_flush_both
    load "uri:classloader:/io/sluice/bench/jruby/bench.rb"
    paths = []
    flushed = []
    spy = Module.new do
      define_method(:write_run) do |name, path, new_file, data, count, rewrite: false, &block|
        paths << [name, File.basename(path)] if rewrite
        super(name, path, new_file, data, count, rewrite: rewrite, &block)
      end
      define_method(:settle) do |target, cached = false|
        flushed << File.basename(target)
        super(target, cached)
      end
    end
    SluiceBench.singleton_class.prepend(spy)
    capture_io { SluiceBench.writes(@dir, 65_536, [1024], 1, %w[ruby-File Sluice::MappedWriter]) }
    target = SluiceBench::WRITE_TARGET
    assert_equal [["ruby-File", "#{target}.file"], ["Sluice::MappedWriter", target]].sort, paths.uniq.sort
    assert_includes flushed, "#{target}.file"
    assert_empty Dir.children(@dir)
  ensure
    spy&.instance_methods(false)&.each { |m| spy.send(:remove_method, m) }
  end

  # The seed's harness's measured pass: a second pass over the same writer after seek(0). The seed's writers map the
  # file again in their seek, as their authors wrote it (three mappings by the timed pass: new's and each pass's
  # seek's, the earlier ones left for close as the seed leaves them for the garbage collector);
  # Sluice::MappedWriter keeps the one window it has.
  def test_a_rewritten_run_seeks_each_writer_its_own_way_before_each_pass
    load "uri:classloader:/io/sluice/bench/jruby/bench.rb"
    path = File.join(@dir, "r.bin")
    data = ("abcdefg\n" * 128).b.freeze
    remap = %w[PureMmapFile MmapFile-autoboxing MmapFile-unboxed-safe MmapFile-unboxed-unsafe
               MmapFileExt-unboxed-safe MmapFileExt-unboxed-unsafe]
    mappings = -> { File.readlines("/proc/self/maps").count { |l| l.chomp.end_with?(path) } }
    SluiceBench::WRITERS.each_key do |name|
      seen = nil
      SluiceBench.write_run(name, path, true, data, 64, rewrite: true) do |loop|
        loop.call
        seen = mappings.call
      end
      expected = if remap.include?(name) then 3
                 elsif name.start_with?("Sluice::MappedWriter") then 1
                 else 0
                 end
      assert_equal expected, seen, name
      assert_equal 0, mappings.call, "#{name}: every mapping is gone after close"
      assert_equal data * 64, File.binread(path), name
      File.delete(path)
    end
  end
end
