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
end
