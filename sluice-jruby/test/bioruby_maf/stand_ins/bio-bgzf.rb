# frozen_string_literal: true

# Stands in for the bio-bgzf gem (not reachable here): the virtual-offset arithmetic of the BGZF format (the
# compressed block's offset in the high 48 bits, the offset within it in the low 16). Reading BGZF is not provided.
module Bio
  module BGZF
    def self.vo_block_offset(offset) = offset >> 16
    def self.vo_data_offset(offset) = offset & 0xffff

    # Reading BGZF files needs the real gem.
    class Reader
      def initialize(*)
        raise NotImplementedError, "reading BGZF needs the bio-bgzf gem; this stand-in only does offsets"
      end
    end
  end
end
