# frozen_string_literal: true

# Sluice::MappedWriter as a writer of the JRuby mmap post's harness (jruby-mmap-benchmark's mmap_test.rb), shared by
# scripts/seed-mmap-harness-row.rb and scripts/seed-mmap-passes.rb.

# The harness's writer protocol: new(path, size) before the passes, then in each timed pass seek(0) and the writes
# (out.write(buffer) here, as the post's rows call their writers' own methods), close after both passes. Only the
# constructor is adapted, to the harness's two arguments: the whole target in one window, as the post's writers map
# it in one buffer. seek is Sluice::MappedWriter's own: back to 0 within the window it has, where the post's writers
# map the file again (their authors' seek).
class SluiceMappedWriterRow < Sluice::MappedWriter
  def initialize(path, size)
    super(path, position: 0, window_size: size)
  end
end

# The protocol of the row before Sluice::MappedWriter could seek, kept as a control: a new writer at 0 for each pass
# after the first, each write through the row's object (out.writer, then its write). The writer of the first pass
# stays open (a close would unmap its window inside the timed pass) and close closes every writer, the last one
# last, since close cuts the file where its writer ended.
class SluiceMappedWriterReopenRow
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

  attr_reader :writer

  def close
    @writers.each(&:close)
  end
end
