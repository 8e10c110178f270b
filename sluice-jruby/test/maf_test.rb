# frozen_string_literal: true

require "test_helper"

# Sluice::MAF: blocks and rows as Ruby objects, from files on disk through the adaptive chunked reader.
class MafTest < Minitest::Test
  include SluiceTest::TempDir

  MAF = <<~TEXT
    track name=example type=maf
    ##maf version=1 scoring=autoMZ.v1
    # a comment
    a score=13668.000000 pass=2
    s hg19.chr22              16054189 11 + 51304566 TCTGTGAA.CCA
    s ponAbe2.chrUn           13354616 12 - 72422247 TCTTTCAAACCC
    q ponAbe2.chrUn                                  855489998999
    i ponAbe2.chrUn           C 0 C 7
    e turTru1.scaffold_109008    25049 1601 +    50103 I

    a score=-1.5
    s hg19.chr22 16054199 3 + 51304566 A-CG
  TEXT

  def write(name, text)
    path(name).tap { |p| File.binwrite(p, text) }
  end

  def test_blocks_and_rows_carry_every_field
    blocks = Sluice::MAF.each_block(write("x.maf", MAF)).to_a
    assert_equal 2, blocks.size
    a, b = blocks
    assert_equal MAF.index("a score=13668"), a.offset
    assert_equal MAF.index("\n\na score=-1.5") + 1 - a.offset, a.size
    assert_equal({ score: "13668.000000", pass: "2" }, a.vars)
    assert_equal 12, a.text_size
    assert_equal 3, a.sequences.size
    hg, pon, tur = a.sequences
    assert_same hg, a.ref_seq
    assert_equal ["hg19.chr22", 16_054_189, 11, 16_054_200, :+, 51_304_566, "TCTGTGAA.CCA", nil, nil, nil, false],
                 [hg.source, hg.start, hg.size, hg.end, hg.strand, hg.src_size, hg.text, hg.quality, hg.i_data,
                  hg.status, hg.empty?]
    assert_equal Encoding::ASCII_8BIT, hg.text.encoding
    assert_equal [:-, "855489998999", ["C", 0, "C", 7]], [pon.strand, pon.quality, pon.i_data]
    assert_equal ["turTru1.scaffold_109008", 25_049, 1601, "I", true, nil],
                 [tur.source, tur.start, tur.size, tur.status, tur.empty?, tur.text]
    assert hg.source.frozen?
    assert_same hg.source, b.sequences.first.source, "rows of one source share its name"
    assert_equal({ score: "-1.5" }, b.vars)
    assert_equal ["A-CG"], b.sequences.map(&:text)
    assert_equal MAF.bytesize - b.offset, b.size
  end

  def test_each_block_yields_and_says_whether_a_last_line_was_cut_short
    seen = []
    assert_nil Sluice::MAF.each_block(write("x.maf", MAF)) { |blk| seen << blk.offset }
    assert_equal 2, seen.size
    cut = "#{MAF}i hg19.chr22 C 0 C"
    assert_equal MAF.bytesize, Sluice::MAF.each_block(write("cut.maf", cut)) { |_| nil }
  end

  def test_what_is_not_maf_is_refused_with_the_file_line_and_offset
    file = write("bad.maf", "##maf version=1\na score=abc\n")
    error = assert_raises(Sluice::MAF::FormatError) { Sluice::MAF.each_block(file) { |_| nil } }
    assert_kind_of Sluice::Error, error
    assert_equal "#{file}: line 2, offset 24: a line: score 'abc' is not a decimal number", error.message
    assert_raises(Errno::ENOENT) { Sluice::MAF.each_block(path("missing.maf")) { |_| nil } }
  end

  def test_an_exception_in_the_block_stops_the_parse
    calls = 0
    assert_raises(StopIteration) do
      Sluice::MAF.each_block(write("x.maf", MAF)) do |_|
        calls += 1
        raise StopIteration
      end
    end
    assert_equal 1, calls
  end

  def test_a_generated_file_gives_as_many_blocks_as_the_generator_wrote
    file = path("gen.maf")
    written = Java::IoSluiceMaf::MafGenerator.write(java.nio.file.Path.of(file), 3 << 20, 7)
    rows = 0
    blocks = 0
    Sluice::MAF.each_block(file) do |blk|
      blocks += 1
      rows += blk.sequences.size
      blk.sequences.each { |s| assert_equal s.size, s.text.count("A-Za-z") unless s.empty? }
    end
    assert_equal written, blocks
    assert_operator rows, :>, blocks * 2
  end
end
