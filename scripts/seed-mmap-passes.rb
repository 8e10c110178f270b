# frozen_string_literal: true

# Several passes of one writer over one file in one JVM, as the JRuby mmap post's harness makes them (a new file,
# then the same file overwritten from 0), printing per pass what the harness's timing hides: the writing thread's
# CPU time, minor page faults, bytes allocated per write, collections, the JIT's compiling time, and how much of
# each mapping of the file the kernel mapped with 2 MiB entries (FilePmdMapped in /proc/self/smaps). Run by
# scripts/seed-mmap-passes.sh.
#
#   jruby seed-mmap-passes.rb CHECKOUT CHUNK_KIB ROW PASSES
#
# ROW: "sluice" (Sluice::MappedWriter as the harness row drives it: one writer, seek(0) before each pass moving back
# within its window, out.write), "reopen" (the row's protocol before the writer could seek: a new writer at 0 for
# each pass after the first, each write through the row's object, out.writer.write), "direct" (those same writers,
# each write straight to the pass's writer, fetched once before the pass) or "ext" (the post's MmapFileExt, unboxed,
# unsafe: seek(0) maps the file again). Pass 0 writes a new file.

require "sluice"
require "java"
require_relative "seed-mmap-sluice-row"

checkout, chunk_kib, row, passes = ARGV
abort "usage: seed-mmap-passes.rb CHECKOUT CHUNK_KIB sluice|reopen|direct|ext PASSES" unless
  passes && %w[sluice reopen direct ext].include?(row)

load File.join(checkout, "mmap_test.rb")

THREADS = java.lang.management.ManagementFactory.getThreadMXBean
COLLECTORS = java.lang.management.ManagementFactory.getGarbageCollectorMXBeans.to_a
COMPILER = java.lang.management.ManagementFactory.getCompilationMXBean

def minor_faults
  stat = File.read("/proc/thread-self/stat")
  stat[(stat.rindex(")") + 2)..].split(" ")[7].to_i
end

def collections = COLLECTORS.sum(&:getCollectionCount)

# MiB mapped by PMD entries, per mapping of +path+ (the post's writers leave earlier mappings to the collector).
def pmd_mapped(path)
  File.read("/proc/self/smaps").scan(/#{Regexp.escape(File.basename(path))}\n(?:.*\n)*?FilePmdMapped:\s+(\d+)/)
      .map { |(kb)| kb.to_i / 1024 }
end

buffer = MmapTest::BUFFERS.fetch(Integer(chunk_kib))
size = MmapTest::WRITE_SIZE
count = size / buffer.bytesize
path = "test_data.mmap"
File.delete(path) if File.exist?(path)
out, write = if row == "sluice"
               [SluiceMappedWriterRow.new(path, size), ->(o, b) { o.write(b) }]
             elsif row == "reopen"
               [SluiceMappedWriterReopenRow.new(path, size), ->(o, b) { o.writer.write(b) }]
             elsif row == "direct"
               [SluiceMappedWriterReopenRow.new(path, size), ->(w, b) { w.write(b) }]
             else
               [MmapFileExt.new(path, size), ->(o, b) { o.unsafe_write(b) }]
             end
Integer(passes).times do |pass|
  GC.start
  faults = minor_faults
  gcs = collections
  allocated = THREADS.getCurrentThreadAllocatedBytes
  cpu = THREADS.getCurrentThreadCpuTime
  jit = COMPILER.getTotalCompilationTime
  t0 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  out.seek(0)
  target = row == "direct" ? out.writer : out
  count.times.each { |_i| write.call(target, buffer) }
  real = Process.clock_gettime(Process::CLOCK_MONOTONIC) - t0
  printf("%-6s %2dk pass %d (%s): %.3f s real, %.3f s thread CPU, %6d minor faults, %5.1f bytes allocated per " \
         "write, %d collections, %d ms of JIT compiling, PMD-mapped MiB per mapping %s\n", row, Integer(chunk_kib), pass,
         pass.zero? ? "new file" : "existing", real, (THREADS.getCurrentThreadCpuTime - cpu) / 1e9,
         minor_faults - faults, (THREADS.getCurrentThreadAllocatedBytes - allocated).to_f / count,
         collections - gcs, COMPILER.getTotalCompilationTime - jit, pmd_mapped(path).inspect)
end
out.close
File.delete(path) if File.exist?(path)
