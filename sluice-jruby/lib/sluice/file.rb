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
  # (FileChannel pread/pwrite, the default), :mmap, :classic, :io_uring (see Sluice.engines).
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

    # Yields the file's bytes from +offset+ on in chunks of +chunk_size+ (the last one may be shorter), each a new
    # String; returns self, or an Enumerator without a block. A plain loop of pread calls: it reads what the file
    # holds when each chunk is read.
    def each_chunk(chunk_size = DEFAULT_CHUNK_SIZE, offset: 0)
      return enum_for(:each_chunk, chunk_size, offset: offset) unless block_given?
      raise ArgumentError, "chunk size must be positive: #{chunk_size}" unless chunk_size.positive?

      position = offset
      loop do
        chunk = begin
          pread(chunk_size, position)
        rescue EOFError
          break
        end
        yield chunk
        position += chunk.bytesize
      end
      self
    end
  end
end
