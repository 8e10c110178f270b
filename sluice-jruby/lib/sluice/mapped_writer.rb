# frozen_string_literal: true

module Sluice
  # Appends Strings to a file through a memory-mapped window: a write is a copy from the String's own array, with no
  # system call until the window is full; files grow past 2 GiB a window at a time, and close cuts the file to the
  # bytes written. One thread at a time.
  #
  #   Sluice::MappedWriter.open("log.bin") do |w|
  #     w.write(record)          # the number of bytes
  #     w << header << body      # chains
  #     w.fsync                  # durable up to w.position
  #     w.seek(0)                # as IO#seek; w.size stays the furthest byte written
  #     w.write(header)          # rewritten in place
  #   end
  #
  # After a crash the file may end in up to a window of zeros: readers find the end with their own framing.
  class MappedWriter
    # Bytes mapped at once unless told otherwise: 64 MiB.
    DEFAULT_WINDOW_SIZE = 64 << 20

    # Opens +path+ for writing. +position+: nil creates or truncates the file and writes from 0; :end writes from
    # its end; an Integer writes from there, keeping the bytes before it (a position past the end leaves a hole
    # that reads as zeros). With a block, yields the writer and closes it when the block ends, even by an
    # exception, returning the block's value.
    def self.open(path, position: nil, window_size: DEFAULT_WINDOW_SIZE)
      writer = new(path, position: position, window_size: window_size)
      return writer unless block_given?

      begin
        yield writer
      ensure
        writer.close
      end
    end

    # See MappedWriter.open.
    def initialize(path, position: nil, window_size: DEFAULT_WINDOW_SIZE)
      sluice_open(::File.absolute_path(::File.path(path)), position, window_size)
    end
  end
end
