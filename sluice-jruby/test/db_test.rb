# frozen_string_literal: true

require "test_helper"
require "sluice/db"
require "rbconfig"
require "open3"

# Sluice::DB against a Hash kept beside it, and the parts of Kyoto Cabinet's behaviour a model cannot show.
class SluiceDBTest < Minitest::Test
  include SluiceTest::TempDir
  DB = Sluice::DB

  def open_db(name = "t.kct", mode = DB::OWRITER | DB::OCREATE, opts = 0)
    db = DB.new(opts)
    assert db.open(path(name), mode), -> { db.error.to_s }
    db
  end

  # Keys and values drawn from bytes that sort differently signed and unsigned, and from the empty String.
  BYTES = ["\x00", "\x01", "\x7f", "\x80", "\xff", "a"].map(&:b).freeze

  def random_bytes(rng, max = 3)
    Array.new(rng.rand(max + 1)) { BYTES[rng.rand(BYTES.size)] }.join.b
  end

  def assert_value(expected, actual, msg)
    expected.nil? ? assert_nil(actual, msg) : assert_equal(expected, actual, msg)
  end

  def test_seeded_random_operations_match_a_hash
    seed = Integer(ENV.fetch("SLUICE_DB_SEED", "20261123"))
    rng = Random.new(seed)
    model = {}
    db = open_db
    3000.times do |i|
      k = random_bytes(rng)
      v = random_bytes(rng, 4)
      msg = "seed #{seed}, step #{i}"
      case rng.rand(16)
      when 0, 1 then assert_equal true, db.set(k, v), msg; model[k] = v
      when 2 then db[k] = v; model[k] = v
      when 3
        assert_equal !model.key?(k), db.add(k, v), msg
        model[k] ||= v
      when 4
        assert_equal model.key?(k), db.replace(k, v), msg
        model[k] = v if model.key?(k)
      when 5 then db.append(k, v); model[k] = (model[k] || "".b) + v
      when 6 then assert_equal model.delete(k) ? true : false, db.remove(k), msg
      when 7 then assert_value model[k], db.get(k), msg
      when 8 then assert_value model[k], db[k], msg
      when 9
        h = Array.new(rng.rand(4)) { [random_bytes(rng), random_bytes(rng)] }.to_h
        assert_equal h.size, db.set_bulk(h, rng.rand(2).zero?), msg
        model.merge!(h)
      when 10
        keys = Array.new(3) { random_bytes(rng) }
        assert_equal model.slice(*keys), db.get_bulk(keys), msg
      when 11
        keys = Array.new(3) { random_bytes(rng) }.uniq
        assert_equal keys.count { |x| model.key?(x) }, db.remove_bulk(keys), msg
        keys.each { |x| model.delete(x) }
      when 12
        expect = model.keys.sort.find { |x| x >= k }
        db.cursor_process do |cur|
          assert_equal !expect.nil?, cur.jump(k), msg
          model.keys.sort.select { |x| x >= k }.first(4).each do |x|
            assert_equal [x, model[x]], cur.get(true), msg
          end
        end
      when 13
        prefix = k.byteslice(0, 1)
        assert_equal model.keys.select { |x| x.start_with?(prefix) }.sort, db.match_prefix(prefix), msg
      when 14
        commit = rng.rand(2).zero?
        before = model.dup
        db.transaction do
          db.set(k, v)
          db.remove(v)
          commit
        end
        if commit
          model[k] = v
          model.delete(v)
        else
          assert_equal before, db.to_hash, msg
        end
      else
        if rng.rand(10).zero?
          assert db.close
          db = open_db
        end
      end
      assert_equal model.size, db.count, msg
    end
    assert_equal model.sort, db.to_a
    assert db.close
    db = open_db("t.kct", DB::OREADER)
    assert_equal model.sort, db.each.to_a, "after reopening read-only"
  ensure
    db&.close
  end

  def test_keys_of_every_byte_value_iterate_in_unsigned_byte_order
    keys = SluiceTest::ALL_BYTES.each_char.map(&:b).uniq
    keys += keys.map { |c| c + "\x00".b } + ["".b]
    db = open_db
    keys.shuffle(random: Random.new(3)).each { |k| db[k] = k + k }
    assert_equal keys.sort, db.each_key.map(&:first), "Ruby sorts binary Strings by unsigned bytes too"
    assert_equal "\x80".b, db.cursor.then { |c| c.jump("\x7f\x01".b) && c.key }
    assert_equal "\xff\xff".b, db.get("\xff".b)
    assert_equal Encoding::BINARY, db.get("a").encoding
    db.close
  end

  def test_cursors_at_both_ends_and_past_them
    db = open_db
    cur = db.cursor
    refute cur.jump, "an empty database"
    assert_nil cur.get
    db.set("b", "2")
    db.set("d", "4")
    refute cur.jump("e"), "past the last key"
    assert_equal DB::Error::NOREC, db.error.code
    assert_nil cur.key
    assert cur.jump("c")
    assert_equal "d", cur.key
    assert_equal %w[d 4], cur.get(true)
    assert_nil cur.get(true), "stepped past the end"
    refute cur.step
    assert cur.jump_back
    assert_equal "d", cur.key
    assert cur.step_back
    assert_equal "b", cur.value(false) && cur.key
    refute cur.step_back, "before the first"
    assert cur.jump("")
    assert_equal "b", cur.key(true)
    assert_equal "4", cur.value
    assert_equal "d", cur.get_key, "Kyoto Cabinet's names for key and value"
    assert_equal "4", cur.get_value
    cur.disable
    refute cur.jump
    assert_equal DB::Error::INVALID, db.error.code
    stale = db.cursor
    db.close
    assert db.open(path("t.kct"))
    refute stale.jump, "a cursor of the closed store stays dead after reopening"
    assert_equal DB::Error::INVALID, db.error.code
    assert db.cursor.jump
    db.close
  end

  # The Strings a read returns share the store's own arrays until changed (no copy per read): a change in place must
  # copy them first, never write into the store's cached records.
  def test_changing_a_string_read_in_place_leaves_the_store_unchanged
    db = open_db
    db.set("key", "value")
    cur = db.cursor
    assert cur.jump
    read = [db.get("key"), db["key"], db.get_bulk(["key"])["key"], db.match_prefix("k").first,
            cur.key, cur.value, *cur.get]
    read.each do |s|
      s.setbyte(0, 0x58)
      s[1] = "Y"
    end
    assert_equal %w[XYlue XYlue XYlue XYy XYy XYlue XYy XYlue], read
    assert_equal "value", db.get("key")
    assert cur.jump("key"), "the key is still there"
    assert_equal %w[key value], cur.get
    assert_equal({ "key" => "value" }, db.to_hash)
    db.close
  end

  def test_transactions_that_abort_leave_nothing
    db = open_db
    db.set("keep", "1")
    assert db.transaction { db.set("a", "1"); db.remove("keep"); false }
    assert db.transaction { db.set("b", "1"); nil }, "nil aborts, as in Kyoto Cabinet"
    assert_raises(RuntimeError) { db.transaction { db.set("c", "1"); raise "boom" } }
    assert_equal({ "keep" => "1" }, db.to_hash)
    assert db.begin_transaction
    refute db.begin_transaction, "not nested"
    db.set("d", "1")
    assert db.end_transaction(false)
    refute db.end_transaction, "none open"
    assert db.begin_transaction(true)
    db.set("e", "1")
    assert db.end_transaction(true)
    assert db.transaction { db.set("f", "1") }
    db.close
    db = open_db
    assert_equal %w[e f keep], db.each_key.map(&:first)
    db.close
  end

  def test_reopen_after_close_and_open_modes
    db = open_db
    db.set("x", "1")
    assert db.close
    refute db.close, "closed already"
    assert_equal DB::Error::INVALID, db.error.code
    assert_nil db.get("x")
    assert_equal(-1, db.count)
    assert db.open(path("t.kct"), DB::OWRITER)
    assert_equal "1", db.get("x")
    refute db.open(path("t.kct")), "open twice"
    db.close
    assert db.open(path("t.kct#opts=ls#dfunit=100000"), DB::OWRITER | DB::OTRUNCATE)
    assert_equal path("t.kct"), db.path
    assert_equal 0, db.count, "truncated"
    db.close
    refute DB.new.open(path("missing.kct"), DB::OWRITER), "no OCREATE"
    refute DB.new.open(path("missing.kct"), DB::OREADER)
    refute File.exist?(path("missing.kct"))
  end

  def test_read_only_open_refuses_writes
    open_db.tap { |db| db.set("k", "v") }.close
    db = open_db("t.kct", DB::OREADER)
    refute db.set("k", "w")
    assert_equal DB::Error::NOPERM, db.error.code
    assert_includes db.error.to_s, "no permission"
    refute db.begin_transaction
    assert_equal(-1, db.set_bulk({ "a" => "b" }))
    assert_equal "v", db["k"]
    db.close
    strict = open_db("t.kct", DB::OREADER, DB::GEXCEPTIONAL)
    error = assert_raises(DB::Error::XNOPERM) { strict.remove("k") }
    assert_equal DB::Error::NOPERM, error.code
    assert_nil strict.get("missing"), "no record is not raised, as in Kyoto Cabinet"
    strict.close
  end

  def test_in_memory_databases
    %w[% : *].each do |name|
      db = DB.new
      assert db.open(name), name
      db["b"] = "1"
      db["a"] = "2"
      assert_equal %w[a b], db.each_key.map(&:first)
      assert_operator db.size, :>=, 0
      assert db.close
    end
    assert_nil(DB.process("%") { |db| db["k"] = "v" })
    assert_kind_of DB::Error, DB.process(path("missing/dir/x.kct")) { flunk }
  end

  def test_increment_stores_eight_big_endian_bytes
    db = open_db
    assert_equal 5, db.increment("n", 5)
    assert_equal 3, db.increment("n", -2)
    assert_equal [0, 3].pack("NN"), db["n"]
    assert_equal 110, db.increment("m", 10, 100), "a missing record starts at orig"
    db["s"] = "text"
    assert_nil db.increment("s", 1)
    assert_equal DB::Error::LOGIC, db.error.code
    db.close
  end

  def test_kyoto_cabinets_other_names_and_small_methods
    db = open_db
    db.store("b", "2")
    db["a"] = "1"
    assert_equal "2", db.fetch("b")
    assert_equal 2, db.length
    assert_equal 1, db.check("a")
    assert_equal(-1, db.check("zz"))
    assert_equal "1", db.seize("a")
    assert_nil db.seize("a")
    assert_equal %w[b 2], db.shift
    assert_nil db.shift
    db["c"] = "3"
    assert db.delete("c")
    refute db.delete("c")
    assert_equal 0, db.count
    db.close
  end

  def test_synchronize_calls_its_file_processor
    db = open_db
    db["k"] = "v"
    seen = nil
    assert db.synchronize(true) { |p, count, size| seen = [p, count, size] }
    assert_equal path("t.kct"), seen[0]
    assert_equal 1, seen[1]
    assert_operator seen[2], :>, 0
    db.close
  end

  # An open the system refuses: the path and the cause (no MVStore version tag), the error code Kyoto Cabinet would
  # give, and with GEXCEPTIONAL the Errno:: class Ruby's File.open raises for the same path.
  def assert_open_refused(file, errno, code, cause)
    assert_raises(errno) { File.open(file, "w") }
    db = DB.new
    refute db.open(file)
    assert_equal code, db.error.code
    assert_includes db.error.message, file
    assert_includes db.error.message, cause
    refute_match(/\[\d+\.\d+\.\d+/, db.error.message, "no version tag of the store library")
    error = assert_raises(errno) { DB.new(DB::GEXCEPTIONAL).open(file) }
    assert_includes error.message, file
    assert_includes error.message, cause
  end

  def test_open_on_a_read_only_file_system_is_erofs_naming_path_and_cause
    with_tmpfs("ro", "ro,size=1m") do |mnt|
      assert_open_refused(File.join(mnt, "t.kct"), Errno::EROFS, DB::Error::NOPERM, "Read-only file system")
    end
  end

  def test_open_under_a_file_is_enotdir
    File.write(path("plain"), "x")
    assert_open_refused(path("plain/t.kct"), Errno::ENOTDIR, DB::Error::SYSTEM, "Not a directory")
  end

  def test_open_in_a_directory_without_write_permission_is_eacces
    skip "root may write any directory, so nothing here is refused with EACCES" if Process.euid.zero?
    locked = path("locked")
    Dir.mkdir(locked, 0o555)
    assert_open_refused(File.join(locked, "t.kct"), Errno::EACCES, DB::Error::NOPERM, "Permission denied")
  end
end
