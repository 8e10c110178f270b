# frozen_string_literal: true

# The post's fastest writer (MmapFileExt, unboxed, unsafe, from the checkout) and Sluice::MappedWriter in one JVM,
# taking turns over one existing file: what a write costs each once the JVM and the kernel have settled, with no
# row's figure resting on a JVM of its own. Each pass makes its writer (the whole file mapped) before the timing and
# closes it after, as `sluice bench jruby` does; before each, the file's dirty pages are written out (fdatasync), so
# that both writers start from the same clean cached pages. With "dirty" they are not: each pass overwrites the pages
# the pass before left dirty, as the post's measured pass overwrites its rehearsal's. Prints each writer's median
# nanoseconds per write in each quarter of the run and the median of the passes' ratios. Run by
# scripts/seed-mmap-passes.sh --pair (and --dirty).
#
#   jruby seed-mmap-pair.rb CHECKOUT CHUNK_KIB PASSES SIZE [dirty]

require "sluice"
require "java"

checkout, chunk_kib, passes, size, pages = ARGV
abort "usage: seed-mmap-pair.rb CHECKOUT CHUNK_KIB PASSES SIZE [dirty]" unless size && [nil, "dirty"].include?(pages)
dirty = pages == "dirty"

load File.join(checkout, "mmap_test.rb")

buffer = MmapTest::BUFFERS.fetch(Integer(chunk_kib))
passes = Integer(passes)
count = Integer(size) / buffer.bytesize
size = count * buffer.bytesize
path = "test_data.mmap"
ROWS = {
  "MmapFileExt" => [->(p, s) { MmapFileExt.new(p, s) }, ->(o, b) { o.unsafe_write(b) }],
  "MappedWriter" => [->(p, s) { Sluice::MappedWriter.new(p, position: 0, window_size: s) }, ->(o, b) { o.write(b) }]
}.freeze
names = ROWS.keys

def flush(path)
  channel = java.nio.channels.FileChannel.open(java.nio.file.Path.of(path), java.nio.file.StandardOpenOption::WRITE)
  channel.force(false)
ensure
  channel&.close
end

File.delete(path) if File.exist?(path)
Sluice::MappedWriter.open(path) { |w| count.times { w.write(buffer) } }
seconds = Hash.new { |h, k| h[k] = [] }
passes.times do |pass|
  (pass.even? ? names : names.reverse).each do |name|
    open, write = ROWS.fetch(name)
    flush(path) unless dirty
    GC.start
    out = open.call(path, size)
    t0 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    count.times.each { |_i| write.call(out, buffer) }
    seconds[name] << Process.clock_gettime(Process::CLOCK_MONOTONIC) - t0
    out.close
  end
end
File.delete(path)

def median(list) = list.sort[list.size / 2]

quarter = [passes / 4, 1].max
printf("%dk writes, %d MiB per pass, %d passes each, taking turns, %s\n", Integer(chunk_kib), size >> 20, passes,
       dirty ? "over the pages the pass before left dirty" : "over clean pages (fdatasync before each pass)")
names.each do |name|
  printf("  %-12s median ns per write by quarter: %s\n", name,
         seconds[name].each_slice(quarter).map { |s| format("%.0f", median(s) / count * 1e9) }.join(" "))
end
ratios = seconds["MmapFileExt"].zip(seconds["MappedWriter"]).map { |ext, ours| ext / ours }
printf("  MappedWriter / MmapFileExt, speed, median of the passes: all %.3f, last half %.3f\n", median(ratios),
       median(ratios.drop(passes / 2)))
