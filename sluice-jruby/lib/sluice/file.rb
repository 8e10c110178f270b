# frozen_string_literal: true

module Sluice
  # A file read and written at explicit offsets, safe from any number of threads at once. The bytes go straight
  # between the file and the Strings' own arrays; results are ASCII-8BIT.
  #
  #   Sluice::File.open("data.bin", "r+") do |f|
  #     header = f.pread(64, 0)            # up to 64 bytes; EOFError at or past the end
  #     f.pread(4096, 8192, buffer)        # into a reused String
  #     f.pwrite("\x00\x01", 1 << 40)      # a sparse file past 1 TiB
  #   end
  #
  # Modes: "r" (read), "r+" (read and write an existing file), "w" (create or truncate, write), "w+" (the same,
  # readable); "b" is accepted and changes nothing, "x" refuses an existing file ("wx"). Engines: :channel
  # (FileChannel pread/pwrite, the default here), :mmap, :classic, :io_uring, :auto (see Sluice.engines).
  class File
    # Bytes per chunk of each_chunk when none is given.
    DEFAULT_CHUNK_SIZE = 1 << 20

    # Opens +path+. With a block, yields the file, closes it when the block ends, even by an exception, and returns
    # the block's value; without one, returns the open file.
    def self.open(path, mode = "r", engine: :channel)
      file = new(path, mode, engine: engine)
      return file unless block_given?

      begin
        yield file
      ensure
        file.close
      end
    end

    # Opens +path+ (a String or Pathname, relative to Dir.pwd) in +mode+ with the given engine.
    def initialize(path, mode = "r", engine: :channel)
      sluice_open(::File.absolute_path(::File.path(path)), mode, engine.to_s)
    end

    # Yields the file's bytes from +offset+ on, front to back, in chunks, each a new ASCII-8BIT String; returns self,
    # or an Enumerator without a block. Without +chunk_size+ the chunk size is chosen while reading: the reader
    # measures how fast the block consumes the file (its own work included) and moves in powers of two towards the
    # fastest size (io.sluice.chunks.AdaptivePolicy); with one, every chunk but the last has that size. The file is
    # read to wherever it ends when the reader gets there.
    def each_chunk(chunk_size = nil, offset: 0, &block)
      return enum_for(:each_chunk, chunk_size, offset: offset) unless block
      raise ArgumentError, "chunk size must be positive: #{chunk_size}" if chunk_size && !chunk_size.positive?

      @last_chunk_policy = sluice_each_chunk(chunk_size, offset, &block)
      self
    end

    # What the last each_chunk chose and why (the adaptive policy's size, first guess and state), or nil.
    attr_reader :last_chunk_policy
  end
end
