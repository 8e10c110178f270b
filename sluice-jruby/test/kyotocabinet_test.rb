# frozen_string_literal: true

require "test_helper"
require "sluice/kyotocabinet"

# Code written for the kyotocabinet gem, as a MAF-style genome index uses it, runs on Sluice::DB with only its require
# changed: the KyotoCabinet names, tuning parameters in the path, the in-memory tree '%', binary keys packed
# big-endian, bulk loads, prefix matches, and cursors walked from several threads at once.
class KyotoCabinetCompatibilityTest < Minitest::Test
  include SluiceTest::TempDir

  # marker 0xFF, sequence id, bin, start, end: big-endian, so that byte order is numeric order.
  KEY = "CCnNN"
  VALUE = "Q>N"

  def entries(sequences, per_bin)
    h = {}
    sequences.times do |seq|
      [585, 586, 4681].each do |bin|
        per_bin.times do |i|
          start = bin * 1000 + i * 7
          h[[0xFF, seq, bin, start, start + 50].pack(KEY)] = [start * 3, 100 + i].pack(VALUE)
        end
      end
    end
    h
  end

  def build(target)
    db = KyotoCabinet::DB.new
    raise "open failed: #{db.error}" unless db.open("#{target}#opts=ls#dfunit=100000",
                                                     KyotoCabinet::DB::OWRITER | KyotoCabinet::DB::OCREATE)

    db["meta:version"] = 2
    db["meta:file"] = "genome.maf"
    %w[mm8.chr7 rn4.chr1].each_with_index { |name, id| db.set("sequence:#{name}", id.to_s) }
    db["species:mm8"] = 0
    entries(2, 40).each_slice(50) { |slice| assert_equal slice.size, db.set_bulk(slice.to_h, false) }
    assert db.synchronize(true)
    db
  end

  # Everything up to the first 0xFF key is metadata; then index records to the end.
  def walk(db)
    meta = {}
    records = []
    db.cursor_process do |cur|
      cur.jump("")
      loop do
        k, v = cur.get(false)
        flunk "ran out of records in the metadata" unless k
        break if k.getbyte(0) == 0xFF

        meta[k] = v
        assert cur.step
      end
      while (pair = cur.get(true))
        records << pair
      end
    end
    [meta, records]
  end

  def scan_bin(cur, seq, bin)
    found = []
    cur.jump([0xFF, seq, bin].pack("CCn"))
    while (pair = cur.get(true))
      _, s, b, start, = pair[0].unpack(KEY)
      break if s != seq || b != bin

      found << [start, pair[1].unpack1(VALUE)]
    end
    found
  end

  def check_index(db)
    expect = entries(2, 40)
    assert_equal expect.size + 5, db.count
    names = db.match_prefix("sequence:").map { |k| k.split(":", 2)[1] }
    assert_equal %w[mm8.chr7 rn4.chr1], names
    assert_equal "1", db["sequence:rn4.chr1"]
    assert_equal "2", db["meta:version"]
    meta, records = walk(db)
    assert_equal %w[meta:file meta:version sequence:mm8.chr7 sequence:rn4.chr1 species:mm8], meta.keys
    assert_equal expect.sort, records

    # Each thread takes bins from a shared queue and scans them with a cursor of its own.
    jobs = Queue.new
    [0, 1].product([585, 586, 4681]).each { |job| jobs << job }
    jobs.close
    results = Queue.new
    threads = Array.new(4) do
      Thread.new do
        db.cursor_process do |cur|
          while (job = jobs.pop)
            results << [job, scan_bin(cur, *job)]
          end
        end
      end
    end
    threads.each(&:join)
    assert_equal 6, results.size
    until results.empty?
      (seq, bin), found = results.pop
      assert_equal 40, found.size, "sequence #{seq} bin #{bin}"
      assert_equal found.sort, found, "in key order"
      assert(found.all? { |start, offset| offset == start * 3 })
    end
  end

  def test_an_index_file_is_built_then_reopened_read_only_and_scanned_from_threads
    file = path("index.kct")
    build(file).close
    db = KyotoCabinet::DB.new
    assert db.open("#{file}#opts=ls#dfunit=100000", KyotoCabinet::DB::OREADER)
    check_index(db)
    refute db.set("x", "y"), "the reader refuses writes"
    db.close
  end

  def test_an_index_in_memory
    db = build("%")
    check_index(db)
    db.close
  end

  def test_the_constants_are_sluices
    assert_same Sluice::DB, KyotoCabinet::DB
    assert_same Sluice::DB::Error, KyotoCabinet::Error
    assert_same KyotoCabinet::DB::Error::XNOPERM, KyotoCabinet::Error::XNOPERM
  end
end
