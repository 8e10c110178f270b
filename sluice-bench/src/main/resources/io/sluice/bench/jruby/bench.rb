# frozen_string_literal: true

# The measuring half of `sluice bench jruby`, run by JRuby in a JVM of its own (io.sluice.bench.jruby.JRubyBench
# starts it with SluiceBench.main(ARGV), reads the samples it prints and makes the table). Seed 000's experiment: a file written front to back
# in String chunks by each of the seed's strategies and by Sluice::MappedWriter, to a new file and over a cached
# one; then reads of a cached file, Ruby's File against Sluice::File#pread.
#
# Output, one line per run on standard output, tab-separated:
#   sample <workload> <file> <chunk> <contender> <round> <bytes> <ops> <real> <user> <system>
# round 0 is the rehearsal; times in seconds, user and system for the whole process, as Ruby's Benchmark reports
# them. Progress goes to standard error. With --serve true and one writer, the write runs are asked for over standard
# input instead (see serve): `sluice bench jruby` runs each writer so, in a JVM of its own. --warm-up false skips the
# untimed warm-up runs, as a JVM of the seed's harness has none (JRubyBench.asThePost).

require "java"
require "jruby"
require "tmpdir"
require "sluice"
JRuby::Util.load_ext("io.sluice.bench.jruby.BenchLibrary")

module SluiceBench
  java_import java.nio.channels.FileChannel
  java_import java.nio.file.StandardOpenOption
  java_import java.lang.foreign.Arena

  # Seed 000's PureMmapFile: Ruby over NIO, each String turned into a Java array with String#to_java_bytes and put
  # into a MappedByteBuffer of the whole target, mapped when the writer is made, as the seed's. Mapped in an arena so
  # that close unmaps it at once (the seed leaves that to the garbage collector).
  class PureMmapFile
    def initialize(path, truncate, size)
      options = [StandardOpenOption::READ, StandardOpenOption::WRITE, StandardOpenOption::CREATE]
      options << StandardOpenOption::TRUNCATE_EXISTING if truncate
      @channel = FileChannel.open(java.nio.file.Path.of(path), *options)
      @size = size
      @arenas = []
      seek(0)
    end

    # The seed's seek: the file mapped again from +pos+; the earlier mapping is kept until close, as the seed's is
    # until the garbage collector frees it.
    def seek(pos)
      arena = Arena.of_shared
      # JRuby warns, once, while making its proxy of the JDK's internal segment class; nothing is wrong.
      verbose, $VERBOSE = $VERBOSE, nil
      begin
        @buffer = @channel.map(FileChannel::MapMode::READ_WRITE, pos, @size, arena).as_byte_buffer
      ensure
        $VERBOSE = verbose
      end
      @arenas << arena
      @mapped = pos
    end

    def write(string)
      @buffer.put(string.to_java_bytes)
    end

    def close
      finish = @mapped + @buffer.position
      @arenas.each(&:close)
      @channel.truncate(finish)
      @channel.close
    end
  end

  # The writers, as the seed's harness (mmap_test.rb) drives them: each opened (for the seed's writers: the whole
  # target mapped) before the timed part and closed after it. [open, write]: open(path, new_file, size) makes the
  # writer (new: the file created or emptied; cached: kept and overwritten from 0); write is the row's lambda, as
  # the harness's :write lambdas, with the row's own call; the timed loop (write_run) is the harness's:
  # count.times.each { |i| write.call(writer, data) }, a block per write and a Proc#call from it to the row's lambda.
  # Each row's call is its own call site, as in the harness, where each row runs in a JVM of its own; the loop and
  # its Proc#call are shared, as the harness's bench method is, and cost every row the same (JRuby calls a block
  # through a method handle the JVM cannot inline past, in either harness).
  WRITERS = {
    "ruby-File" => [
      ->(path, new_file, _size) { File.open(path, new_file ? "wb" : "r+b") },
      ->(out, buffer) { out.write(buffer) }
    ],
    "PureMmapFile" => [
      ->(path, new_file, size) { PureMmapFile.new(path, new_file, size) },
      ->(out, buffer) { out.write(buffer) }
    ],
    "MmapFile-autoboxing" => [
      ->(path, new_file, size) { Java::IoSluiceBenchJruby::SeedMmapFile.new(path, new_file, size) },
      ->(out, buffer) { out.writeString(buffer) }
    ],
    "MmapFile-unboxed-safe" => [
      ->(path, new_file, size) { Java::IoSluiceBenchJruby::SeedMmapFile.new(path, new_file, size) },
      ->(out, buffer) { out.writeSafe(buffer) }
    ],
    "MmapFile-unboxed-unsafe" => [
      ->(path, new_file, size) { Java::IoSluiceBenchJruby::SeedMmapFile.new(path, new_file, size) },
      ->(out, buffer) { out.writeUnsafe(buffer) }
    ],
    "MmapFileExt-unboxed-safe" => [
      ->(path, new_file, size) { MmapFileExt.new(path, new_file, size) },
      ->(out, buffer) { out.write_safe(buffer) }
    ],
    "MmapFileExt-unboxed-unsafe" => [
      ->(path, new_file, size) { MmapFileExt.new(path, new_file, size) },
      ->(out, buffer) { out.write_unsafe(buffer) }
    ],
    # Told the size, as the seed's writers are: one window of the whole target, like their one mapping.
    "Sluice::MappedWriter" => [
      ->(path, new_file, size) { Sluice::MappedWriter.new(path, position: new_file ? nil : 0, window_size: size) },
      ->(out, buffer) { out.write(buffer) }
    ],
    # Not told the size: the default windows, each unmapped when full and the next one mapped.
    "Sluice::MappedWriter-windows" => [
      ->(path, new_file, _size) { Sluice::MappedWriter.new(path, position: new_file ? nil : 0) },
      ->(out, buffer) { out.write(buffer) }
    ]
  }.freeze

  # Opens +name+'s writer, runs the harness's loop of its writes (inside the block, when given: the timing), closes
  # the writer.
  #
  # With +rewrite+, the seed's harness's two passes over one writer (Benchmark.bmbm): each pass seeks to 0 and
  # writes the whole file, the first (the harness's rehearsal) untimed, the second the one given to the block. Each
  # writer's seek is its own: the seed's map the file again (their authors' seek), Ruby's File moves its offset,
  # Sluice::MappedWriter moves within the window it has.
  def self.write_run(name, path, new_file, data, count, rewrite: false)
    open, write = WRITERS.fetch(name)
    writer = open.call(path, new_file, count * data.bytesize)
    loop = -> { count.times.each { |_i| write.call(writer, data) } }
    begin
      if rewrite
        writes = loop
        loop = lambda do
          writer.seek(0)
          writes.call
        end
        loop.call
      end
      block_given? ? yield(loop) : loop.call
    ensure
      writer.close
    end
  end

  # One way to read +count+ chunks of +buffer+'s size into +buffer+, at +offsets+ (nil: front to back).
  READERS = {
    "ruby-File#read" => lambda do |path, chunk, offsets, count, buffer|
      File.open(path, "rb") do |f|
        i = 0
        if offsets
          while i < count
            f.seek(offsets[i])
            f.read(chunk, buffer)
            i += 1
          end
        else
          while i < count
            f.read(chunk, buffer)
            i += 1
          end
        end
      end
    end,
    "ruby-IO#pread" => lambda do |path, chunk, offsets, count, buffer|
      File.open(path, "rb") do |f|
        i = 0
        while i < count
          f.pread(chunk, offsets ? offsets[i] : i * chunk, buffer)
          i += 1
        end
      end
    end,
    "Sluice::File#pread" => lambda do |path, chunk, offsets, count, buffer|
      Sluice::File.open(path) do |f|
        i = 0
        while i < count
          f.pread(chunk, offsets ? offsets[i] : i * chunk, buffer)
          i += 1
        end
      end
    end,
    "Sluice::File#pread-mmap" => lambda do |path, chunk, offsets, count, buffer|
      Sluice::File.open(path, engine: :mmap) do |f|
        i = 0
        while i < count
          f.pread(chunk, offsets ? offsets[i] : i * chunk, buffer)
          i += 1
        end
      end
    end
  }.freeze

  module_function

  # Runs the block once and prints its sample line; the progress line adds the process's page faults and the MiB
  # the kernel wrote back while it ran, where /proc says (a writer that keeps its mapping should take no faults over
  # a rewrite: where it does, that is where its system time went).
  #
  # The progress line also gives the run's system time and, for a new file (+deleted+: the clock when the file before
  # it was deleted), how long after the delete the timing began: the pages the delete freed are the ones the run
  # takes, and on a VM that reports free memory to its host they stay backed only for a second or two.
  def timed(workload, file, chunk, name, round, bytes, ops, deleted: nil)
    since = deleted && Process.clock_gettime(Process::CLOCK_MONOTONIC) - deleted
    f0 = faults
    w0 = written_back
    t0 = Process.times
    r0 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    yield
    real = Process.clock_gettime(Process::CLOCK_MONOTONIC) - r0
    t1 = Process.times
    f1 = faults
    w1 = written_back
    user = t1.utime - t0.utime
    system = t1.stime - t0.stime
    $stdout.puts ["sample", workload, file, chunk, name, round, bytes, ops, format("%.6f", real),
                  format("%.6f", user), format("%.6f", system)].join("\t")
    $stdout.flush
    kernel = f0 && f1 ? format("  %6d faults", f1 - f0) : ""
    kernel += format("  %5d MiB written back", (w1 - w0) / 256) if w0 && w1
    kernel += format("  %.3fs system", system)
    kernel += format("  %.3fs after the delete", since) if since
    $stderr.printf("  %-9s %-7s %6d  %-28s %s  %8.3fs real %9.1f MB/s%s\n", workload, file, chunk, name,
                   round.zero? ? "rehearsal" : "round #{round}  ", real, bytes / real / 1e6, kernel)
    real
  end

  # This process's minor and major page faults so far (/proc/self/stat), or nil where there is no such file.
  def faults
    stat = File.read("/proc/self/stat")
    name_end = stat.rindex(")") or return nil # the command name, in parentheses, may itself hold spaces
    fields = stat[(name_end + 2)..].split
    Integer(fields[7]) + Integer(fields[9]) # minflt and majflt, the stat's 10th and 12th fields
  rescue SystemCallError, ArgumentError, TypeError
    nil
  end

  # Pages the kernel has written to storage since boot (/proc/vmstat nr_written, 4 KiB each), or nil.
  def written_back
    line = File.foreach("/proc/vmstat").find { |l| l.start_with?("nr_written ") }
    line && Integer(line.split[1])
  rescue SystemCallError, ArgumentError
    nil
  end

  # Every round runs each contender once; the order rotates from round to round, so all see the same machine.
  def rotated(names, round)
    k = round % names.size
    names.drop(k) + names.take(k)
  end

  # Bytes each warm-up run moves, and how many runs each row and chunk size gets.
  WARM_UP_BYTES = 32 << 20
  WARM_UP_RUNS = 3

  # The seed's data, made as its harness makes it (a String of its own array, exactly its bytes, not frozen): text,
  # so that the automatic conversion through java.lang.String keeps every byte.
  def data(chunk)
    s = "abcdefg\n" * (chunk / 8)
    s << "abcdefg\n".byteslice(0, chunk % 8) unless (chunk % 8).zero?
    s.force_encoding(Encoding::BINARY)
  end

  # Untimed runs of every row before anything is measured. The JVM compiles each row's loop and the code under it
  # only after many calls; without this, the first cells measure the compiler (a 1k row needed about five runs of
  # 128 MiB to reach its steady speed here) and the rows that come first in them lose.
  def warm_up(dir, size, chunks, writers, readers)
    bytes = [size, WARM_UP_BYTES].min
    target = File.join(dir, "sluice-bench-jruby-warm-up.bin")
    $stderr.puts "  warming up: every row, #{WARM_UP_RUNS} untimed runs of #{bytes >> 20} MiB at each chunk size"
    chunks.each do |chunk|
      count = bytes / chunk
      WARM_UP_RUNS.times do
        writers.each do |name|
          File.delete(target) if File.exist?(target)
          write_run(name, target, true, data(chunk), count)
        end
        write_run("Sluice::MappedWriter", target, true, data(chunk), count) if writers.empty?
        offsets = Array.new(count) { |i| ((i * 7919) % count) * chunk }
        readers.each do |name|
          READERS.fetch(name).call(target, chunk, nil, count, String.new(capacity: chunk))
          READERS.fetch(name).call(target, chunk, offsets, count, String.new(capacity: chunk))
        end
      end
    end
  ensure
    File.delete(target) if target && File.exist?(target)
  end

  # Writes the previous run's dirty pages to the disk before the next run is timed, outside its timing. Left dirty,
  # 2 GB of them sit at the kernel's background writeback threshold (vm.dirty_background_ratio, 10% of the memory
  # that can hold them), or age past vm.dirty_expire_centisecs across the rounds: the flusher then writes them while
  # the next row runs, on the other core, and every page it cleans costs that row a write fault to dirty it again.
  # Whichever row ran then lost: 42-44% spreads at 1 KiB on a quiet machine. Settled, every row starts from the same
  # file: all of it in the page cache and clean.
  #
  # A cached cell's file is then read back into the page cache where the kernel dropped it since the last run
  # (recache), so that every run starts from all of the file cached. A VM that returns memory to its host may page
  # out file pages left unmapped for a while: this one runs DAMON, which began to drop a 2,000 MiB file left alone
  # for about 70 s (fincore). Pages dropped would come back one read fault at a time inside whichever row ran next.
  # Within a cell the file is rewritten every few seconds, yet a 15-round run of the harness script's rows read
  # back 4 MiB twice (docs/benchmarks/2026-11-26-deciding-s8.md); the check costs a few milliseconds a run.
  def settle(target, cached = false)
    return unless File.exist?(target)

    channel = FileChannel.open(java.nio.file.Path.of(target), StandardOpenOption::READ, StandardOpenOption::WRITE)
    begin
      channel.force(false)
      recache(target, channel) if cached
    ensure
      channel.close
    end
  end

  # Reads into the page cache each 4 MiB of +target+ that is not all there (mincore, then load: the benchmark's
  # PageCache, in Java); returns the bytes it had to read, and says so when any.
  def recache(target, channel)
    missing = Java::IoSluiceBench::PageCache.readBack(channel)
    $stderr.puts format("  read back %.1f MiB of %s the kernel had dropped from the page cache", missing / 1048576.0,
                        File.basename(target)) if missing.positive?
    missing
  end

  WRITE_TARGET = "sluice-bench-jruby-write.bin"

  # The write cells' files (write_once says what each is), in the order they run; JRubyBench.FILE_KINDS on the Java side.
  FILE_KINDS = %w[new cached rewritten].freeze

  # Makes +target+ the file of a chunk size's cached cells: written in full, then read into the page cache.
  def prepare_cached(target, string, count)
    write_run("Sluice::MappedWriter", target, true, string, count)
    Sluice::File.open(target) { |f| f.each_chunk { |_| nil } } # in the page cache
  end

  # One run of writer +name+ (round 0 is the rehearsal): the previous run's file flushed, then written as the seed's
  # harness writes it, the writes timed.
  #
  # Kinds: new (the file deleted first), cached (a file already written and in the page cache, overwritten from 0 by
  # a writer made for it), rewritten (as the seed's harness's measured pass: the file deleted, written through the
  # writer once untimed, then the writer seeks to 0 and writes it again, the seek timed with the writes).
  #
  # A rewritten run also names its file as the seed's harness does: Ruby's File writes one of its own (file_target,
  # beside +target+), the mapped writers share +target+, so that a mapped writer's run never starts by deleting the
  # file File just wrote through write() and making its own in the memory that freed. Sharing one name, the mapped
  # writers' rewritten passes ran at half the speed they ran at without File among the rows
  # (docs/benchmarks/2026-11-27-s16.md).
  def write_once(name, target, kind, chunk, round, string, count)
    bytes = count * chunk
    own = kind == "rewritten" && name == "ruby-File" ? file_target(target) : target
    settle(target, kind == "cached")
    # The previous run may have been File's, on its own file: flushed too, so that its writeback is not this run's.
    settle(file_target(target)) if kind == "rewritten"
    File.delete(own) if kind != "cached" && File.exist?(own)
    deleted = Process.clock_gettime(Process::CLOCK_MONOTONIC) if kind == "new"
    write_run(name, own, kind != "cached", string, count, rewrite: kind == "rewritten") do |loop|
      # As Benchmark.bmbm before each measured report in the seed's harness.
      GC.start
      timed("seqwrite", kind, chunk, name, round, bytes, count, deleted: deleted) { loop.call }
    end
    written = File.size(own)
    raise "#{name} left #{written} bytes, not #{bytes}: not a fair run" unless written == bytes
  end

  # Ruby File's own file in the rewritten cells, beside +target+ (the seed's harness: test_data.file beside
  # test_data.mmap).
  def file_target(target) = "#{target}.file"

  # Deletes +target+ and File's own file beside it.
  def delete_targets(target)
    [target, file_target(target)].each { |t| File.delete(t) if File.exist?(t) }
  end

  def writes(dir, size, chunks, rounds, names)
    target = File.join(dir, WRITE_TARGET)
    FILE_KINDS.each do |kind|
      chunks.each do |chunk|
        string = data(chunk)
        count = size / chunk
        prepare_cached(target, string, count) if kind == "cached"
        (0..rounds).each do |round|
          rotated(names, round).each { |name| write_once(name, target, kind, chunk, round, string, count) }
        end
        delete_targets(target)
      end
    end
  end

  # The writes of one row in a JVM of its own, as the seed's harness gives each row (`sluice bench jruby` starts one
  # such JVM per row and takes the rounds from them in rotating order, so that no row's figures depend on what the
  # JIT learned from another's). One step per line of standard input, each answered by "done" on standard output
  # after its sample lines: "run KIND CHUNK ROUND" (write_once), "prepare CHUNK" (prepare_cached), "delete" (the
  # file). The JVM ends at the end of its input.
  def serve(dir, size, name)
    target = File.join(dir, WRITE_TARGET)
    strings = Hash.new { |h, chunk| h[chunk] = data(chunk) }
    $stdout.puts "done"
    $stdout.flush
    $stdin.each_line do |line|
      step, *args = line.split
      case step
      when "run"
        kind, chunk, round = args[0], Integer(args[1]), Integer(args[2])
        raise ArgumentError, "unknown file kind #{kind.inspect}" unless FILE_KINDS.include?(kind)

        write_once(name, target, kind, chunk, round, strings[chunk], size / chunk)
      when "prepare"
        chunk = Integer(args[0])
        prepare_cached(target, strings[chunk], size / chunk)
      when "delete"
        delete_targets(target)
      else
        raise ArgumentError, "unknown step #{line.chomp.inspect}"
      end
      $stdout.puts "done"
      $stdout.flush
    end
  end

  def reads(dir, size, chunks, rounds, names)
    target = File.join(dir, "sluice-bench-jruby-read.bin")
    random = Random.new(42)
    Sluice::MappedWriter.open(target) do |w|
      block = random.bytes(1 << 20)
      (size / block.bytesize).times { w << block }
      w << block.byteslice(0, size % block.bytesize)
    end
    Sluice::File.open(target) { |f| f.each_chunk { |_| nil } } # in the page cache
    chunks.each do |chunk|
      count = size / chunk
      offsets = Array.new(count) { random.rand(count) * chunk }
      [["seqread", nil], ["randread", offsets]].each do |workload, at|
        (0..rounds).each do |round|
          rotated(names, round).each do |name|
            buffer = String.new(capacity: chunk)
            timed(workload, "cached", chunk, name, round, count * chunk, count) do
              READERS.fetch(name).call(target, chunk, at, count, buffer)
            end
          end
        end
      end
    end
  ensure
    File.delete(target) if target && File.exist?(target)
  end

  # Which measurements this JRuby runs, when not all: `sluice bench jruby` runs writes and reads in JVMs of their own.
  def side(options)
    return " (writes)" if options[:writes] && !options[:reads]
    return " (reads)" if options[:reads] && !options[:writes]
    ""
  end

  def names(list, known)
    list.split(",").each do |n|
      raise ArgumentError, "unknown contender '#{n}': expected one of #{known.keys.join(', ')}" unless known.key?(n)
    end
  end

  def main(argv)
    options = { size: 1 << 30, chunks: [1024, 4096, 16_384], rounds: 3, dir: Dir.tmpdir, writes: true,
                reads: true, writers: WRITERS.keys, readers: READERS.keys, warm_up: true }
    argv.each_slice(2) do |flag, value|
      case flag
      when "--size" then options[:size] = Integer(value)
      when "--chunk-sizes" then options[:chunks] = value.split(",").map { |c| Integer(c) }
      when "--rounds" then options[:rounds] = Integer(value)
      when "--dir" then options[:dir] = value
      when "--writes" then options[:writes] = value == "true"
      when "--reads" then options[:reads] = value == "true"
      when "--writers" then options[:writers] = names(value, WRITERS)
      when "--readers" then options[:readers] = names(value, READERS)
      when "--serve" then options[:serve] = value == "true"
      when "--warm-up" then options[:warm_up] = value == "true"
      else raise ArgumentError, "unknown option #{flag}"
      end
    end
    if options[:serve] && (options[:writers].size != 1 || options[:reads])
      raise ArgumentError, "--serve runs one writer's writes: --writers NAME --reads false"
    end
    $stdout.puts ["info", "jruby", "#{JRUBY_VERSION} (Ruby #{RUBY_VERSION}) on Java #{ENV_JAVA['java.version']}, " \
                  "compile mode #{JRuby.runtime.instance_config.compile_mode}#{side(options)}, " \
                  "native access #{Sluice.native_access? ? 'on' : 'off'}"].join("\t")
    if options[:warm_up]
      warm_up(options[:dir], options[:size], options[:chunks], options[:writes] ? options[:writers] : [],
              options[:reads] ? options[:readers] : [])
    end
    return serve(options[:dir], options[:size], options[:writers].first) if options[:serve]

    writes(options[:dir], options[:size], options[:chunks], options[:rounds], options[:writers]) if options[:writes]
    reads(options[:dir], options[:size], options[:chunks], options[:rounds], options[:readers]) if options[:reads]
  end
end
