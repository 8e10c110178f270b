# frozen_string_literal: true

require "test_helper"

class SluiceMappedWriterTest < Minitest::Test
  include SluiceTest::TempDir
  Layout = SluiceTest::Layout
  ALL_BYTES = SluiceTest::ALL_BYTES

  def test_write_and_append_move_exactly_each_strings_bytes
    big = ALL_BYTES * 4
    sub = big[100, 50]
    assert_equal 100, Layout.of(sub)[0]
    spare = String.new(capacity: 4096, encoding: Encoding::BINARY) << "abc"
    frozen = "frozen literal"
    result = Sluice::MappedWriter.open(path("w")) do |w|
      assert_equal ALL_BYTES.bytesize, w.write(ALL_BYTES)
      assert_same w, (w << sub << spare << frozen)
      assert_equal 7, w.write("grüße")
      assert_equal 3, w.write(123)
      assert_equal 2, w.write("a", "b")
      assert_equal ALL_BYTES.bytesize + 50 + 3 + frozen.bytesize + 7 + 3 + 2, w.position
      :done
    end
    assert_equal :done, result
    assert_equal ALL_BYTES + big.byteslice(100, 50) + "abc" + frozen.b + "grüße".b + "123ab", File.binread(path("w"))
  end

  # One to three Strings per call, each arity a method of its own (see RubyMappedWriter#write): more is refused
  # whole, before anything is written.
  def test_writes_one_to_three_strings_per_call
    Sluice::MappedWriter.open(path("k")) do |w|
      assert_equal 3, w.write("a", "b", "c")
      error = assert_raises(ArgumentError) { w.write("d", "e", "f", "g") }
      assert_match(/wrong number of arguments/, error.message)
      assert_raises(ArgumentError) { w.write }
      assert_equal 3, w.position
    end
    assert_equal "abc", File.binread(path("k"))
  end

  def test_repeated_counts_come_back_as_one_integer
    chunk = "abcdefg\n" * 128
    Sluice::MappedWriter.open(path("n")) do |w|
      first = w.write(chunk)
      assert_equal 1024, first
      # Beyond JRuby's ready-made Integers (-256 to 255) a new one per call would be an allocation per write.
      assert JRuby.reference(first).equal?(JRuby.reference(w.write(chunk))), "the same Integer for the same count"
      assert_equal 5, w.write("hello")
      assert_equal 1024, w.write(chunk)
      assert_equal 1029, w.write(chunk, "hello")
      assert_equal 1029, w.write("hello", chunk)
      assert_equal 5 * 1024 + 3 * 5, w.position
    end
    assert_equal chunk * 2 + "hello" + chunk * 2 + "hello" * 2 + chunk, File.binread(path("n"))
  end

  # One Integer for the runtime, not one per writer: a new writer's first write must not take a branch that the
  # loop of writes before it, compiled with a writer whose cache was full, never saw (the JVM then throws that loop
  # back to its interpreter, in the middle of the next pass).
  def test_a_new_writer_returns_the_integer_the_writer_before_it_did
    chunk = "abcdefg\n" * 128
    first = Sluice::MappedWriter.open(path("a")) { |w| w.write(chunk) }
    second = Sluice::MappedWriter.open(path("b")) { |w| w.write(chunk) }
    assert_equal 1024, second
    assert JRuby.reference(first).equal?(JRuby.reference(second)), "the same Integer from a new writer"
  end

  def test_windows_past_4_gib_in_a_sparse_file
    start = (4 << 30) - 100
    data = ALL_BYTES * 20
    Sluice::MappedWriter.open(path("big"), position: start, window_size: 4096) do |w|
      assert_equal 4096, w.window_size
      3.times { w << data }
      assert_equal start + 3 * data.bytesize, w.position
    end
    assert_equal start + 3 * data.bytesize, File.size(path("big"))
    Sluice::File.open(path("big")) do |f|
      assert_equal data * 3, f.pread(3 * data.bytesize, start)
      assert_equal "\0" * 64, f.pread(64, 1 << 31)
    end
  end

  def test_positions_keep_or_truncate_what_is_there
    File.binwrite(path("p"), "0123456789")
    Sluice::MappedWriter.open(path("p"), position: :end) { |w| w << "ab" }
    assert_equal "0123456789ab", File.binread(path("p"))
    Sluice::MappedWriter.open(path("p"), position: 4) { |w| w << "XY" }
    assert_equal "0123XY", File.binread(path("p")), "close cuts the file where writing ended"
    Sluice::MappedWriter.open(path("p")) { |w| w << "new" }
    assert_equal "new", File.binread(path("p"))
    assert_raises(ArgumentError) { Sluice::MappedWriter.open(path("p"), position: -1) }
  end

  # seek as IO#seek: Ruby's own File, given the same writes and seeks, is the reference for the bytes and the length.
  def test_seek_moves_writes_as_ios_seek_does
    rng = Random.new(24)
    File.open(path("ref"), "wb") do |ref|
      Sluice::MappedWriter.open(path("ours"), window_size: 4096) do |w|
        200.times do |step|
          case rng.rand(10)
          when 0..5
            s = rng.bytes(rng.rand(9000))
            assert_equal ref.write(s), w.write(s)
          when 6
            to = rng.rand(ref.size + 5000)
            assert_equal ref.seek(to), w.seek(to)
          when 7
            by = rng.rand(-[ref.pos, 3000].min..3000)
            assert_equal ref.seek(by, IO::SEEK_CUR), w.seek(by, :CUR)
          when 8
            back = -rng.rand([ref.size, 3000].min + 1)
            ref.flush
            assert_equal ref.seek(back, IO::SEEK_END), w.seek(back, IO::SEEK_END)
          else
            w.pos = ref.pos = rng.rand(ref.size + 1)
          end
          ref.flush
          assert_equal ref.pos, w.pos, "position after step #{step}"
          assert_equal ref.size, w.size, "size after step #{step}"
        end
      end
    end
    assert_equal File.binread(path("ref")), File.binread(path("ours"))
  end

  def test_seek_refuses_what_io_refuses_naming_the_file
    Sluice::MappedWriter.open(path("s")) do |w|
      w.write("abc")
      error = assert_raises(Errno::EINVAL) { w.seek(-4, IO::SEEK_CUR) }
      assert_match(/#{Regexp.escape(path("s"))}/, error.message)
      assert_raises(Errno::EINVAL) { w.seek(0, 7) }
      assert_raises(Errno::EINVAL) { w.seek(0, :NOWHERE) }
      assert_equal 3, w.pos
      w.seek(0)
      w.write("X")
      assert_equal [1, 3], [w.pos, w.size]
    end
    assert_equal "Xbc", File.binread(path("s"))
    w = Sluice::MappedWriter.new(path("t"))
    w.close
    assert_raises(IOError) { w.seek(0) }
  end

  def test_a_block_that_raises_still_closes_and_cuts_the_file
    writer = nil
    assert_raises(RuntimeError) do
      Sluice::MappedWriter.open(path("r")) do |w|
        writer = w
        w << "kept"
        w.fsync
        raise "boom"
      end
    end
    assert_predicate writer, :closed?
    assert_equal "kept", File.binread(path("r"))
    assert_raises(Sluice::Error) { writer << "late" }
  end

  def test_a_full_file_system_is_enospc_explaining_the_cause
    with_tmpfs("full", "size=1m") do |mnt|
      file = File.join(mnt, "log.bin")
      # What Ruby's own File says on the same file system, for comparison.
      assert_raises(Errno::ENOSPC) { File.open(File.join(mnt, "plain"), "w") { |f| f.write("x" * (2 << 20)) } }
      File.delete(File.join(mnt, "plain"))
      error = assert_raises(Errno::ENOSPC) do
        Sluice::MappedWriter.open(file) { |w| 4096.times { w << ("x" * 1024) } }
      end
      assert_includes error.message, file
      assert_includes error.message, "full or over quota", "the message says what most likely happened"
    end
  end
end
