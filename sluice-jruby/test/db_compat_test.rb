# frozen_string_literal: true

require "test_helper"
require "sluice/db"
require "timeout"

# Behaviours checked against Kyoto Cabinet 1.2.79's Ruby binding, one by one (db_differential_test.rb compares whole
# random sequences): what a reader, a damaged or cut-short file and the newer parts of the API do.
class SluiceDBCompatTest < Minitest::Test
  include SluiceTest::TempDir
  DB = Sluice::DB

  def make(name, records)
    db = DB.new
    assert db.open(path(name), DB::OWRITER | DB::OCREATE), -> { db.error.to_s }
    records.each { |k, v| db[k] = v }
    assert db.close
    path(name)
  end

  def reader(file, opts = 0, mode = DB::OREADER)
    db = DB.new(opts)
    assert db.open(file, mode), -> { db.error.to_s }
    db
  end

  # Kyoto Cabinet refuses every write of a reader with NOPERM; shift used to retry its removal for ever.
  def test_shift_on_a_reader_fails_with_noperm_and_returns
    db = reader(make("r.kct", "a" => "1", "b" => "2"))
    result = Timeout.timeout(10) { db.shift }
    assert_nil result
    assert_equal DB::Error::NOPERM, db.error.code
    assert_equal 2, db.count, "nothing removed"
    assert db.close
  end

  # Kyoto Cabinet: an empty or foreign file is INVALID ("missing magic data"), raised as XINVALID; the file stays free
  # for the next open. The error used to be SYSTEM with a Java class name for its message.
  def test_an_empty_or_foreign_file_opened_read_only_is_invalid_and_stays_unlocked
    File.write(path("empty.kct"), "")
    File.write(path("foreign.kct"), "not a store " * 1000)
    %w[empty.kct foreign.kct].each do |name|
      file = path(name)
      db = DB.new
      refute db.open(file, DB::OREADER)
      assert_equal DB::Error::INVALID, db.error.code, db.error.to_s
      assert_includes db.error.message, file
      refute_match(/java\.|Exception/, db.error.message)
      error = assert_raises(DB::Error::XINVALID) { DB.new(DB::GEXCEPTIONAL).open(file, DB::OREADER) }
      assert_includes error.message, file
    end
    writer = DB.new
    assert writer.open(path("empty.kct"), DB::OWRITER), -> { "the file stayed locked: #{writer.error}" }
    writer["k"] = "v"
    assert writer.close
  end

  # A file whose pages were overwritten after they were written: what MVStore threw came through raw with db.error
  # SUCCESS. Kyoto Cabinet reports damage as BROKEN, raised as XBROKEN in exceptional mode.
  def test_a_damaged_page_is_broken_not_a_java_exception
    file = path("damaged.kct")
    db = DB.new
    assert db.open(file, DB::OWRITER | DB::OCREATE)
    4.times do |c|
      500.times { |i| db[format("k%d_%05d", c, i)] = "v" * 40 }
      assert db.synchronize(false)
    end
    assert db.close
    bytes = File.binread(file)
    broken = 0
    [0.2, 0.3, 0.4].each do |at|
      damaged = bytes.dup
      damaged[(bytes.bytesize * at).to_i, 64] = "\xAB".b * 64
      File.binwrite(file, damaged)
      [0, DB::GEXCEPTIONAL].each do |opts|
        d = DB.new(opts)
        assert d.open(file, DB::OREADER), -> { d.error.to_s }
        begin
          d.each { |_k, _v| nil }
          broken += 1 if d.error.code == DB::Error::BROKEN
        rescue DB::Error::XBROKEN => e
          assert_equal DB::GEXCEPTIONAL, opts, "raised without GEXCEPTIONAL: #{e.message}"
          assert_includes e.message, file
          broken += 1
        end
        assert d.close
      end
    end
    assert_operator broken, :>=, 2, "damage at 20-40% of the file is met by a full walk"
  end

  # An interrupted copy: MVStore opens the newest version it finds whole, and the later records were gone without a
  # word. Now the open says so (error BROKEN, a warning naming what was lost); with ONOREPAIR it is refused, as
  # Kyoto Cabinet refuses a file whose size does not match its header.
  def test_a_file_cut_short_says_what_was_lost_and_onorepair_refuses_it
    file = path("whole.kct")
    db = DB.new
    assert db.open(file, DB::OWRITER | DB::OCREATE)
    3.times do |batch|
      db.transaction { 300.times { |i| db["#{batch}-#{i}"] = "v" * 40 }; true }
    end
    assert db.close
    bytes = File.binread(file)
    cut = path("cut.kct")
    File.binwrite(cut, bytes[0, bytes.bytesize - 100])

    d = DB.new
    _out, err = capture_io { assert d.open(cut, DB::OREADER), -> { d.error.to_s } }
    assert_equal DB::Error::BROKEN, d.error.code, d.error.to_s
    assert_includes d.error.message, cut
    assert_match(/version/, d.error.message)
    assert_includes err, cut, "a warning names the file"
    assert_operator d.count, :<, 900
    assert d.close

    refused = DB.new
    refute refused.open(cut, DB::OREADER | DB::ONOREPAIR)
    assert_equal DB::Error::BROKEN, refused.error.code
    assert_raises(DB::Error::XBROKEN) { DB.new(DB::GEXCEPTIONAL).open(cut, DB::OREADER | DB::ONOREPAIR) }

    whole = DB.new
    _out, err = capture_io { assert whole.open(file, DB::OREADER | DB::ONOREPAIR) }
    assert_equal DB::Error::SUCCESS, whole.error.code
    assert_empty err
    assert_equal 900, whole.count
    assert whole.close
  end
end
