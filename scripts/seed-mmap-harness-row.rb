# frozen_string_literal: true

# One row of the JRuby mmap post's own harness (jruby-mmap-benchmark's mmap_test.rb), run by
# scripts/seed-mmap-harness.sh in a JVM of its own, as the post's Rakefile runs each row. The harness file is loaded
# from the user's checkout as it is; this file only adds a Sluice::MappedWriter row per chunk size to its TESTS, and
# with a SIZE argument sets its WRITE_SIZE (for quick checks; the post wrote 2,097,152,000 bytes per pass).
#
#   jruby seed-mmap-harness-row.rb CHECKOUT CHUNK_KIB ROW [SIZE]
#
# ROW is the start of a row's description ("ruby File", "java MmapFileExt, unboxed, unsafe", "Sluice::MappedWriter",
# "Sluice::MappedWriter reopened at seek", "MmapFileExt through the row adapter", ...; the first row of the chunk size
# whose description starts so). Run it in a directory holding target/classes (the post's Java sources compiled there):
# the harness puts that relative path on the class path, and writes its test_data.* files beside it.

require "sluice"
require_relative "seed-mmap-sluice-row"

checkout, chunk_kib, row, size = ARGV
abort "usage: seed-mmap-harness-row.rb CHECKOUT CHUNK_KIB ROW [SIZE]" unless row

# mmap_test.rb runs a row only when it is the main script, so loading it only defines MmapTest.
load File.join(checkout, "mmap_test.rb")

if size
  MmapTest.send(:remove_const, :WRITE_SIZE)
  MmapTest.const_set(:WRITE_SIZE, Integer(size))
end

# The controls (seed-mmap-harness.sh --control): Sluice::MappedWriter as the row was before it could seek (a new
# writer at 0 for the measured pass, each write through the row's object: out.writer, then its write), and the post's
# fastest writer behind the same adapter and the same two calls per write, so that its speed against the post's own
# row of that writer is what the adapter costs. MmapFileExt's own seek maps the file again, as in the post's row.
class MmapFileExtRow
  def initialize(path, size)
    @writer = MmapFileExt.new(path, size)
  end

  def seek(pos)
    @writer.seek(pos)
  end

  attr_reader :writer

  def close
    @writer.close
  end
end

[1, 4, 16].each do |kib|
  MmapTest::TESTS << { desc: "Sluice::MappedWriter, #{kib}k ruby String", class: SluiceMappedWriterRow,
                       buffer: MmapTest::BUFFERS.fetch(kib), write: ->(out, buffer) { out.write(buffer) } }
  MmapTest::TESTS << { desc: "Sluice::MappedWriter reopened at seek, #{kib}k ruby String",
                       class: SluiceMappedWriterReopenRow, buffer: MmapTest::BUFFERS.fetch(kib),
                       write: ->(out, buffer) { out.writer.write(buffer) } }
  MmapTest::TESTS << { desc: "MmapFileExt through the row adapter, #{kib}k ruby String", class: MmapFileExtRow,
                       buffer: MmapTest::BUFFERS.fetch(kib),
                       write: ->(out, buffer) { out.writer.unsafe_write(buffer) } }
end
test = MmapTest::TESTS.find { |t| t[:desc].start_with?(row) && t[:buffer].bytesize == Integer(chunk_kib) * 1024 }
abort "no row '#{row}' with #{chunk_kib}k Strings in #{checkout}/mmap_test.rb" unless test
MmapTest.bench(test[:desc], test[:class], test[:buffer], &test[:write])
