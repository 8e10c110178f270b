# frozen_string_literal: true

# What bioruby-maf's own parser finds in MAF files, one line per block and per row, for comparison with Sluice's
# parser (sluice-maf's BiorubyMafFilesTest reads the answers this prints):
#
#   ruby -I sluice-jruby/test/bioruby_maf/stand_ins -I BIORUBY_MAF/lib maf_summary.rb FILE...
#
# Runs under MRI (with the kyotocabinet gem, which bioruby-maf's index code loads) or JRuby.
require "bio-maf"

ARGV.each do |path|
  puts "file #{File.basename(path)}"
  parser = Bio::MAF::Parser.new(path, parse_empty: true, parse_extended: true)
  parser.each_block do |block|
    puts "a #{block.offset} #{block.vars.map { |k, v| "#{k}=#{v}" }.join(' ')}".rstrip
    block.sequences.each do |s|
      if s.respond_to?(:status) && s.status
        puts "e #{s.source} #{s.start} #{s.size} #{s.strand} #{s.src_size} #{s.status}"
      else
        puts "s #{s.source} #{s.start} #{s.size} #{s.strand} #{s.src_size} #{s.text.size}" \
             "#{s.quality ? " q#{s.quality.size}" : ''}#{s.i_data ? " i #{s.i_data.join(' ')}" : ''}"
      end
    end
  end
  parser.close
end
