# frozen_string_literal: true

# Loaded by sluice.rb after the extension that defines Sluice::MAF in Java.

module Sluice
  # UCSC's Multiple Alignment Format, parsed by Sluice's Java parser (sluice-maf's MafParser) through a chunked
  # reader whose read size adapts to the file, with every line checked:
  #
  #   Sluice::MAF.each_block("chr22.maf") do |block|
  #     ref = block.ref_seq                      # the first row
  #     puts "#{ref.source}:#{ref.start}-#{ref.end} #{block.sequences.size} rows, score #{block.vars[:score]}"
  #   end
  #   Sluice::MAF.each_block("chr22.maf").count  # an Enumerator without a block
  #
  # Blocks are Sluice::MAF::Block (vars, sequences, offset, size, text_size, ref_seq); rows are Sluice::MAF::Sequence
  # (source, start, size, end, strand, src_size, text, quality, i_data, status, empty?), in file order, e rows among
  # s rows. Strings are ASCII-8BIT. Input that is not MAF raises Sluice::MAF::FormatError (a Sluice::Error) naming
  # the file, line and offset.
  module MAF
    # Yields each block of the MAF file at +path+; without a block, returns an Enumerator. Returns the input offset of
    # a last line that was cut short and dropped (see MafParser's javadoc), or nil.
    def self.each_block(path, &block)
      return enum_for(:each_block, path) unless block

      sluice_each_block(::File.expand_path(path.to_s), &block)
    end
  end
end
