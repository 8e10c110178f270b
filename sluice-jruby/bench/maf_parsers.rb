# frozen_string_literal: true

# Sluice::MAF against bioruby-maf's own parser (Bio::MAF::Parser), in one JRuby, on the same MAF file made by
# sluice-maf's MafGenerator: MB/s of each, round by round, the two taking turns so that load on the machine falls on
# both alike. Each parser is asked for the same work: every block, every row (e rows and i/q data included: bioruby-maf
# with parse_empty and parse_extended), the rows counted and their text lengths summed, and the totals must agree.
#
#   java -jar jruby-complete.jar -I sluice-jruby/target/gem/lib \
#        -I sluice-jruby/test/bioruby_maf/stand_ins -I BIORUBY_MAF/lib -I sluice-jruby/test/bioruby_maf/kyotocabinet_shim \
#        sluice-jruby/bench/maf_parsers.rb [--size MB] [--rounds N] [--file PATH]
#
# bioruby-maf's checkout gives its parser (lib/); the stand-ins replace the dependency gems this machine cannot
# fetch (none of them is on the parsing path), and the shim answers its index code's require 'kyotocabinet'. A file
# given with --file is used as it is; otherwise one of --size MB (default 64) is generated in the temp directory.
require "optparse"
require "tmpdir"
require "sluice"
require "bio-maf"

size_mb = 64
rounds = 5
file = nil
OptionParser.new do |o|
  o.on("--size MB", Integer) { |v| size_mb = v }
  o.on("--rounds N", Integer) { |v| rounds = v }
  o.on("--file PATH") { |v| file = v }
end.parse!(ARGV)

unless file
  file = File.join(Dir.tmpdir, "sluice-maf-bench-#{size_mb}m.maf")
  unless File.exist?(file)
    Java::IoSluiceMaf::MafGenerator.write(java.nio.file.Path.of(file), size_mb << 20, 42)
  end
end
bytes = File.size(file)

def sluice(file)
  rows = 0
  columns = 0
  blocks = 0
  Sluice::MAF.each_block(file) do |block|
    blocks += 1
    block.sequences.each do |s|
      rows += 1
      columns += s.text.bytesize if s.text
    end
  end
  [blocks, rows, columns]
end

def bioruby(file)
  rows = 0
  columns = 0
  blocks = 0
  parser = Bio::MAF::Parser.new(file, parse_empty: true, parse_extended: true)
  parser.each_block do |block|
    blocks += 1
    block.sequences.each do |s|
      rows += 1
      columns += s.text.bytesize if s.respond_to?(:text) && s.text && !s.empty?
    end
  end
  parser.close
  [blocks, rows, columns]
end

def timed
  t = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  result = yield
  [Process.clock_gettime(Process::CLOCK_MONOTONIC) - t, result]
end

puts "file #{file}: #{bytes} bytes; JRuby #{JRUBY_VERSION} on Java #{ENV_JAVA['java.version']}; #{rounds} rounds " \
     "after a rehearsal; load #{File.read('/proc/loadavg').split[0, 3].join(' ') rescue '?'}"
runs = { "Sluice::MAF" => [], "Bio::MAF::Parser" => [] }
(0..rounds).each do |round|
  order = round.even? ? runs.keys : runs.keys.reverse
  answers = {}
  order.each do |name|
    secs, answer = timed { name == "Sluice::MAF" ? sluice(file) : bioruby(file) }
    answers[name] = answer
    runs[name] << bytes / secs / 1e6 if round.positive?
    puts format("round %d %-17s %8.1f MB/s  %s", round, name, bytes / secs / 1e6,
                "#{answer[0]} blocks, #{answer[1]} rows, #{answer[2]} columns")
  end
  raise "the parsers disagree: #{answers.inspect}" unless answers.values.uniq.size == 1
end
median = ->(a) { a.sort[a.size / 2] }
s = median.(runs["Sluice::MAF"])
b = median.(runs["Bio::MAF::Parser"])
puts format("median: Sluice::MAF %.1f MB/s, Bio::MAF::Parser %.1f MB/s: %.1fx", s, b, s / b)
puts "load after: #{File.read('/proc/loadavg').split[0, 3].join(' ') rescue '?'}"
