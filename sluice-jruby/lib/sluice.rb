# frozen_string_literal: true

# Sluice for JRuby: fast file I/O from Ruby Strings without copies into Java arrays.
#
#   Sluice::File.open("data.bin") { |f| f.pread(4096, 8192) }        # bytes at an offset, ASCII-8BIT
#   Sluice::MappedWriter.open("log.bin") { |w| w << record }         # appends through a mapped window
#   Sluice::Zip.open("app.jar") { |z| z.read("META-INF/MANIFEST.MF") } # from any number of threads
#   Sluice.engines                                                    # which engines run here, and why not
#   Sluice::DB.process("index.kct") { |db| db[key] = value }         # Kyoto Cabinet's API on H2's MVStore
#   Sluice::MAF.each_block("chr22.maf") { |b| b.sequences.first }     # MAF blocks and rows as Ruby objects

require "sluice/version"

if ENV_JAVA["java.specification.version"].to_i < 22
  raise LoadError, "sluice needs Java 22 or newer (the FFM API); this JRuby runs on Java " \
                   "#{ENV_JAVA['java.specification.version']} (#{ENV_JAVA['java.home']})"
end

# The gem carries Sluice's jars beside this file. Loaded from a jar on the class path instead (an application that
# bundles Sluice, or `sluice bench jruby`), the classes are there already and there is nothing to add.
%w[sluice-core sluice-db sluice-maf h2-mvstore sluice-jruby].each do |name|
  jar = File.join(__dir__, "sluice", "#{name}.jar")
  require jar if File.exist?(jar)
end
JRuby::Util.load_ext("io.sluice.jruby.SluiceLibrary")

require "sluice/file"
require "sluice/mapped_writer"
require "sluice/zip"
require "sluice/database"
require "sluice/maf"

module Sluice
  # One of Sluice's I/O engines: its name (:classic, :channel, :mmap, :io_uring, :auto), how it moves bytes, and why it
  # cannot run here (nil when it can).
  Engine = Struct.new(:name, :description, :unavailable_reason) do
    # Whether the engine can be used in this JVM on this machine.
    def available?
      unavailable_reason.nil?
    end
  end

  # Every engine, available or not; an unavailable one says why (no native access, no io_uring in this kernel...).
  def self.engines
    engine_states.map { |name, description, reason| Engine.new(name, description, reason) }
  end
end
