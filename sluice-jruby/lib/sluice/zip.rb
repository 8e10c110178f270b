# frozen_string_literal: true

module Sluice
  # A zip or jar archive, mapped once and read with no lock: any number of threads may list and read it at once.
  #
  #   Sluice::Zip.open("app.jar") do |zip|
  #     zip.read("META-INF/MANIFEST.MF")                   # ASCII-8BIT, CRC-32 checked
  #     zip.each { |entry| puts entry.name, entry.size }
  #     zip.extract("out")                                 # never outside "out", never over a file, within limits
  #   end
  class Zip
    include Enumerable

    # Opens the archive at +path+. With a block, yields it and closes it when the block ends, even by an
    # exception, returning the block's value.
    def self.open(path)
      zip = new(path)
      return zip unless block_given?

      begin
        yield zip
      ensure
        zip.close
      end
    end

    # See Zip.open.
    def initialize(path)
      sluice_open(::File.absolute_path(::File.path(path)))
    end

    # Writes every entry under +dir+ (created if needed) and returns the number of files and directories written.
    # Nothing is written outside +dir+ (no "..", absolute names or links), nothing is overwritten, and an archive
    # over a limit is refused before anything is written: +max_bytes+ uncompressed in all (default 4 GiB),
    # +max_entries+ (100,000), +max_ratio+ of size to compressed size for entries over 1 MiB (100). Raises
    # Sluice::ZipError naming the entry, or Errno::EEXIST; files this call wrote are removed again on failure.
    def extract(dir, max_bytes: nil, max_entries: nil, max_ratio: nil)
      sluice_extract(::File.absolute_path(::File.path(dir)), max_bytes, max_entries, max_ratio)
    end
  end
end
