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

  def all(db)
    out = []
    db.each { |k, v| out << [k, v] }
    out
  end

  # The expected values are what Kyoto Cabinet 1.2.79's binding returned for the same calls.
  def test_visitors_accept_accept_bulk_and_iterate
    db = DB.new
    assert db.open(path("v.kct"), DB::OWRITER | DB::OCREATE)
    db["a"] = "1"
    db["b"] = "2"
    seen = []
    assert db.accept("a") { |k, v| seen << [k, v]; "X" }
    assert db.accept("zz") { |k, v| seen << [k, v]; 5 }
    assert_equal [["a", "1"], ["zz", nil]], seen
    assert_equal %w[X 5], [db["a"], db["zz"]]
    refute db.accept("b", nil, false) { "no" }
    assert_equal DB::Error::LOGIC, db.error.code
    assert db.accept("b", nil, false) { nil }
    assert db.accept("zz") { DB::Visitor::REMOVE }
    assert db.accept("zz") { DB::Visitor::REMOVE }, "REMOVE without a record"
    assert_nil db["zz"]
    assert db.accept_bulk(%w[a b c]) { |k, _v| "#{k}!" }
    assert_equal [%w[a a!], %w[b b!], %w[c c!]], all(db)
    assert db.iterate { |_k, v| v == "b!" ? DB::Visitor::REMOVE : "y" }
    assert_equal [%w[a y], %w[c y]], all(db)
    visitor = Class.new(DB::Visitor) do
      def visit_full(_k, _v) = "full"
      def visit_empty(_k) = "empty"
    end.new
    assert db.accept("q", visitor)
    assert_equal "empty", db["q"]
    assert db.accept("q", visitor)
    assert_equal "full", db["q"]
    assert db.accept("q", DB::Visitor.new), "the base class's NOP"
    assert_equal "full", db["q"]
    assert db.close
    refute db.accept("a") { nil }
    assert_equal DB::Error::INVALID, db.error.code
  end

  def test_cas_increment_double_snapshots_merge_and_copy
    db = DB.new
    assert db.open(path("c.kct"), DB::OWRITER | DB::OCREATE)
    db["a"] = "y"
    refute db.cas("a", nil, "new")
    refute db.cas("a", "zzz", "n2")
    assert_equal DB::Error::LOGIC, db.error.code
    assert db.cas("a", "y", nil)
    assert_nil db["a"]
    assert db.cas("a", nil, "c")
    assert_equal "c", db["a"]

    assert_equal 1.5, db.increment_double("d", 1.5)
    assert_equal [0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 198, 191, 82, 99, 64, 0], db["d"].unpack("C*")
    assert_equal 1.75, db.increment_double("d", 0.25, 3)
    assert_equal(-2.0, db.increment_double("d", -3.75))
    assert_equal [255] * 7 + [254] + [0] * 8, db["d"].unpack("C*")
    assert_nil db.increment_double("a", 1)
    assert_equal DB::Error::LOGIC, db.error.code

    db.clear
    db["c"] = "y"
    db["q"] = "wfull"
    assert db.dump_snapshot(path("snap"))
    assert_equal "KCSS\n\x00\x00\x01\x01cy\x00\x01\x05qwfull\xFF".b, File.binread(path("snap"))
    db.clear
    db["x"] = "1"
    assert db.load_snapshot(path("snap"))
    assert_equal [%w[c y], %w[q wfull], %w[x 1]], all(db)
    File.binwrite(path("bad"), "junk")
    refute db.load_snapshot(path("bad"))
    assert_equal DB::Error::SYSTEM, db.error.code
    refute db.load_snapshot(path("none"))
    assert_equal DB::Error::NOREPOS, db.error.code

    other = DB.new
    assert other.open("%")
    other["c"] = "M"
    other["zz"] = "Z"
    assert db.merge([other], DB::MADD)
    assert_equal [%w[c y], %w[q wfull], %w[x 1], %w[zz Z]], all(db)
    assert db.merge([other], DB::MAPPEND)
    assert_equal "yM", db["c"]
    assert db.merge([other])
    assert_equal "M", db["c"]
    refute other.copy(path("mem-copy"))
    assert_equal DB::Error::LOGIC, other.error.code

    assert db.copy(path("copy.kct"))
    copy = DB.new
    assert copy.open(path("copy.kct"), DB::OREADER)
    assert_equal all(db), all(copy)
    assert copy.close
    assert db.close
  end

  def test_cursor_writes_and_accept
    db = DB.new
    assert db.open("%")
    %w[a b c d e x zz].each { |k| db[k] = k * 2 }
    c = db.cursor
    assert c.jump("b")
    assert c.set_value("B")
    assert_equal %w[b B], c.get
    assert c.set_value("B2", true)
    assert_equal %w[c cc], c.get
    assert c.remove
    assert_equal %w[d dd], c.get
    assert_equal %w[d dd], c.seize
    assert_equal %w[e ee], c.get
    assert c.jump_back
    assert_equal %w[zz zzzz], c.seize
    assert_equal %w[x xx], c.get, "after jump_back the cursor moves backward"
    assert c.jump("b")
    assert c.accept(nil, true, true) { DB::Visitor::REMOVE }
    assert_equal %w[e ee], c.get, "REMOVE moves on; no second step"
    assert c.jump
    refute c.accept(nil, false) { "x" }
    assert_equal DB::Error::LOGIC, db.error.code
    assert c.accept(nil, false, true) { nil }
    assert_equal %w[e ee], c.get
    assert db.close
  end

  def test_occupy_match_similar_encoding_and_exception_rule
    db = DB.new
    assert db.open(path("o.kct"), DB::OWRITER | DB::OCREATE)
    %w[b a d c e].each { |k| db[k] = k * 2 }
    seen = nil
    assert db.occupy(false) { |x| seen = x }
    assert_equal [path("o.kct"), 5], seen.first(2)
    refute db.occupy(true) { false }
    assert_equal DB::Error::LOGIC, db.error.code
    assert_equal %w[a b c d e], db.match_similar("a", 1)
    assert_equal %w[b a], db.match_similar("bb", 2, false, 2)
    assert_equal [["a"], ["b"]], db.each_key.first(2), "each_key yields [key], as Kyoto Cabinet does"
    assert db.tune_encoding("UTF-8")
    assert_equal Encoding::UTF_8, db["a"].encoding
    assert db.tune_encoding(nil)
    assert_equal Encoding::BINARY, db["a"].encoding
    assert db.tune_exception_rule([DB::Error::NOREC])
    assert_raises(DB::Error::XNOREC) { db["none"] }
    db.each { |_k, _v| nil }
    assert db.close
  end
end
