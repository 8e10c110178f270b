# frozen_string_literal: true

require "test_helper"

class SluiceFileTest < Minitest::Test
  include SluiceTest::TempDir
  Layout = SluiceTest::Layout
  ALL_BYTES = SluiceTest::ALL_BYTES

  def test_every_byte_value_round_trips_through_every_available_engine
    Sluice.engines.select(&:available?).each do |engine|
      p = path("bytes-#{engine.name}")
      Sluice::File.open(p, "w+", engine: engine.name) do |f|
        assert_equal engine.name, f.engine
        assert_equal ALL_BYTES.bytesize, f.pwrite(ALL_BYTES, 0)
        assert_equal ALL_BYTES, f.pread(ALL_BYTES.bytesize, 0), engine.name
        assert_equal ALL_BYTES.byteslice(7, 300), f.pread(300, 7)
      end
      assert_equal ALL_BYTES, File.binread(p)
    end
  end

  def test_pwrite_moves_exactly_the_bytes_of_a_substring_that_starts_inside_its_array
    big = ALL_BYTES * 4
    sub = big[100, 50]
    assert_equal [100, 50, big.bytesize], Layout.of(sub), "a shared substring starting at 100"
    Sluice::File.open(path("sub"), "w+") do |f|
      assert_equal 50, f.pwrite(sub, 0)
      assert_equal 50, f.size
      assert_equal big.byteslice(100, 50), f.pread(100, 0)
    end
  end

  def test_pwrite_of_shared_strings_from_split_byteslice_and_dup
    # "%%" occurs nowhere in ALL_BYTES, so the parts are exactly head, ALL_BYTES and tail.
    parts = "head%%#{ALL_BYTES}%%tail".b.split("%%".b)
    assert_equal 3, parts.size
    assert(parts.all? { |s| Layout.of(s)[2] > s.bytesize }, "split parts share the whole array")
    assert_equal 6, Layout.of(parts[1])[0]
    slice = ALL_BYTES.byteslice(300, 40)
    copy = ALL_BYTES.dup
    Sluice::File.open(path("shared"), "w+") do |f|
      at = 0
      [parts[2], parts[1], slice, copy, parts[0]].each do |s|
        f.pwrite(s, at)
        at += s.bytesize
      end
      assert_equal "tail".b + ALL_BYTES + ALL_BYTES.byteslice(300, 40) + ALL_BYTES + "head".b, f.pread(at + 10, 0)
    end
  end

  def test_pwrite_ignores_the_spare_capacity_of_a_strings_array
    s = String.new(capacity: 4096, encoding: Encoding::BINARY)
    s << "abc"
    start, size, capacity = Layout.of(s)
    assert_equal [0, 3], [start, size]
    assert_operator capacity, :>=, 4096
    Sluice::File.open(path("cap"), "w") { |f| f.pwrite(s, 0) }
    assert_equal "abc", File.binread(path("cap"))
  end

  def test_frozen_strings_are_written
    literal = "a frozen literal"
    assert_predicate literal, :frozen?
    tail = literal[2..].freeze
    assert_operator Layout.of(tail)[0], :>, 0
    Sluice::File.open(path("frozen"), "w+") do |f|
      f.pwrite(literal, 0)
      f.pwrite(tail, 100)
      assert_equal literal, f.pread(literal.bytesize, 0)
      assert_equal tail, f.pread(100, 100)
    end
  end

  def test_pread_into_a_buffer_resizes_it_and_makes_it_binary
    File.binwrite(path("in"), ALL_BYTES)
    Sluice::File.open(path("in")) do |f|
      buffer = +"é"
      assert_same buffer, f.pread(10, 5, buffer)
      assert_equal ALL_BYTES.byteslice(5, 10), buffer
      assert_equal Encoding::BINARY, buffer.encoding
      big = f.pread(ALL_BYTES.bytesize, 0, buffer)
      assert_equal ALL_BYTES, big
      f.pread(3, 1, buffer)
      assert_equal ALL_BYTES.byteslice(1, 3), buffer
      assert_equal 3, buffer.bytesize
    end
  end

  def test_pread_into_a_shared_buffer_leaves_the_string_it_shares_with_alone
    File.binwrite(path("in"), "x" * 100)
    original = (ALL_BYTES * 2).freeze
    buffer = original[10, 60]
    assert_equal 10, Layout.of(buffer)[0]
    Sluice::File.open(path("in")) { |f| f.pread(60, 0, buffer) }
    assert_equal "x" * 60, buffer
    assert_equal ALL_BYTES * 2, original
  end

  def test_a_frozen_buffer_is_refused_and_left_unchanged
    File.binwrite(path("in"), "data")
    buffer = "abc".freeze
    Sluice::File.open(path("in")) do |f|
      assert_raises(FrozenError) { f.pread(4, 0, buffer) }
    end
    assert_equal "abc", buffer
  end

  def test_encodings_are_bytes
    utf8 = "grüße, 日本, 🎉"
    utf16 = "ab".encode(Encoding::UTF_16LE)
    Sluice::File.open(path("enc"), "w+") do |f|
      f.pwrite(utf8, 0)
      f.pwrite(utf16, 100)
      back = f.pread(utf8.bytesize, 0)
      assert_equal Encoding::BINARY, back.encoding
      assert_equal utf8.b, back
      assert_equal utf8, back.force_encoding(Encoding::UTF_8)
      assert_equal "a\x00b\x00".b, f.pread(4, 100)
    end
  end

  def test_end_of_file
    File.binwrite(path("eof"), "0123456789")
    Sluice::File.open(path("eof")) do |f|
      assert_equal "789", f.pread(100, 7), "short where the file ends"
      assert_raises(EOFError) { f.pread(1, 10) }
      assert_raises(EOFError) { f.pread(1, 1 << 40) }
      assert_equal "", f.pread(0, 1 << 40)
      assert_equal "0123456789", f.pread((1 << 31) - 16, 0), "a huge length allocates only what the file holds"
      buffer = +"leftover"
      assert_raises(EOFError) { f.pread(5, 10, buffer) }
      assert_equal "", buffer
    end
  end

  def test_each_chunk_reads_the_file_in_order
    data = ALL_BYTES * 40
    File.binwrite(path("chunks"), data)
    Sluice::File.open(path("chunks")) do |f|
      chunks = f.each_chunk(1000).to_a
      assert_equal [1000] * 20 + [480], chunks.map(&:bytesize)
      assert_equal data, chunks.join
      assert_equal data.byteslice(20_000..), f.each_chunk(7000, offset: 20_000).to_a.join
      assert_same f, f.each_chunk { |_| nil }
    end
  end

  def test_each_chunk_without_a_size_chooses_one_and_delivers_every_byte_once
    data = ALL_BYTES * 20_000 + "tail"
    File.binwrite(path("adaptive"), data)
    Sluice::File.open(path("adaptive")) do |f|
      chunks = f.each_chunk.to_a
      assert_equal data, chunks.join
      assert chunks.all? { |c| c.encoding == Encoding::ASCII_8BIT && !c.empty? }
      assert_match(/adaptive/, f.last_chunk_policy)
      assert_equal data.byteslice(123_457..), f.each_chunk(offset: 123_457).to_a.join
      assert_equal [], f.each_chunk(offset: data.bytesize).to_a
      assert_raises(ArgumentError) { f.each_chunk(0) { |_| nil } }
      assert_raises(ArgumentError) { f.each_chunk(offset: -1) { |_| nil } }
      seen = 0
      error = assert_raises(RuntimeError) { f.each_chunk { |c| seen += c.bytesize; raise "stop" } }
      assert_equal "stop", error.message, "the block's exception passes through unchanged"
      assert seen.positive?
      assert_equal data.byteslice(0, 10), f.pread(10, 0), "the file stays open after each_chunk"
    end
  end

  def test_size_truncate_fsync_and_modes
    Sluice::File.open(path("m"), "w") do |f|
      f.pwrite("0123456789", 0)
      assert_equal 10, f.size
      assert_equal 0, f.truncate(4)
      assert_equal 0, f.fsync
      assert_equal 0, f.fdatasync
      assert_raises(IOError) { f.pread(1, 0) }
    end
    assert_equal "0123", File.binread(path("m"))
    Sluice::File.open(path("m"), "r+b") { |f| f.pwrite("x", 4) }
    assert_equal "0123x", File.binread(path("m"))
    Sluice::File.open(path("m"), "rb") do |f|
      error = assert_raises(IOError) { f.pwrite("y", 0) }
      assert_equal "not opened for writing", error.message
    end
    assert_raises(Errno::EEXIST) { Sluice::File.open(path("m"), "wx") }
    Sluice::File.open(path("new"), "w+x") { |f| f.pwrite("n", 0) }
    assert_equal "n", File.binread(path("new"))
    assert_raises(ArgumentError) { Sluice::File.open(path("m"), "a") }
    assert_raises(ArgumentError) { Sluice::File.open(path("m"), "q") }
    assert_raises(ArgumentError) { Sluice::File.open(path("m"), "r", engine: :nope) }
  end

  def test_relative_paths_and_pathnames_follow_ruby
    require "pathname"
    Dir.chdir(@dir) do
      Sluice::File.open("rel", "w") { |f| f.pwrite("r", 0) }
      Sluice::File.open(Pathname.new("rel")) { |f| assert_equal File.join(File.realpath(@dir), "rel"), File.realpath(f.path) }
    end
    assert_equal "r", File.binread(path("rel"))
  end

  def test_a_block_that_raises_still_closes_and_the_block_value_is_returned
    file = nil
    assert_raises(RuntimeError) do
      Sluice::File.open(path("b"), "w") do |f|
        file = f
        raise "boom"
      end
    end
    assert_predicate file, :closed?
    assert_equal 42, Sluice::File.open(path("b")) { 42 }
    error = assert_raises(Sluice::Error) { file.size }
    assert_kind_of IOError, error
    assert_includes error.message, path("b")
  end

  def test_sparse_file_past_2_gib
    Sluice::File.open(path("sparse"), "w+") do |f|
      f.pwrite("at three", 3 << 30)
      f.pwrite(ALL_BYTES, (5 << 30) - 100)
      assert_equal (5 << 30) - 100 + ALL_BYTES.bytesize, f.size
      assert_equal "at three", f.pread(8, 3 << 30)
      assert_equal ALL_BYTES, f.pread(1000, (5 << 30) - 100)
      assert_equal "\0" * 16, f.pread(16, 4 << 30)
    end
    File.open(path("sparse"), "rb") do |f|
      f.seek((5 << 30) - 100)
      assert_equal ALL_BYTES, f.read(ALL_BYTES.bytesize)
    end
  end

  def test_threads_read_one_file_at_once
    data = Random.new(7).bytes(1 << 20)
    File.binwrite(path("shared"), data)
    Sluice::File.open(path("shared")) do |f|
      threads = 8.times.map do |t|
        Thread.new do
          random = Random.new(t)
          buffer = +""
          500.times do
            at = random.rand(data.bytesize)
            n = random.rand(1..8192)
            f.pread(n, at, buffer)
            raise "thread #{t}: wrong bytes at #{at}" unless buffer == data.byteslice(at, n)
          end
          true
        end
      end
      assert(threads.map(&:value).all?)
    end
  end
end
