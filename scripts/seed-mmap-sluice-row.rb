# frozen_string_literal: true

# Sluice::MappedWriter as a writer of the JRuby mmap post's harness (jruby-mmap-benchmark's mmap_test.rb), shared by
# scripts/seed-mmap-harness-row.rb and scripts/seed-mmap-passes.rb.

# The harness's writer protocol: new(path, size) before the passes, then in each timed pass seek(0) and the writes,
# close after both passes. The post's writers map the whole target in new and map it again in seek, leaving the old
# mapping to the garbage collector; likewise this keeps the writer of the first pass open (a close would unmap its
# windows inside the timed pass) and closes every writer in close, the last one last, since close cuts the file
# where its writer ended.
class SluiceMappedWriterRow
  def initialize(path, size)
    @path = path
    @size = size
    @writers = [Sluice::MappedWriter.new(path, position: 0, window_size: size)]
    @writer = @writers.last
  end

  def seek(pos)
    return if @writer.position == pos

    @writer = Sluice::MappedWriter.new(@path, position: pos, window_size: @size)
    @writers << @writer
  end

  # The row's write: the harness's block calls the writer itself, as its other rows call theirs.
  attr_reader :writer

  def close
    @writers.each(&:close)
  end
end
