# frozen_string_literal: true

# The JRuby half of `sluice bench kv` (io.sluice.bench.jruby.KvBench starts it with SluiceKvBench.main(ARGV) and adds
# the row measured from Java). An index build shaped like bio-maf's maf_index: N entries loaded one per call (16-byte
# keys of sequence, bin and start; 16-byte values of offset and length), then random gets, then scans of 100 entries
# from random keys, through:
#   Sluice::DB              this binding
#   MVStore-autoconversion  the same MVStore opened from Ruby, keys and values passed as Ruby Strings that JRuby
#                           converts to and from java.lang.String at each call
#   PStore                  Ruby's own PStore (a marshalled Hash), at a smaller N; scans sort its keys first
#
# Output on standard output, tab-separated: "sample <row> <op> <round> <ops> <seconds> <n>" (round 0 is a rehearsal)
# and "size <row> <bytes>". Progress on standard error.

require "java"
require "sluice/db"
require "pstore"
require "fileutils"

module SluiceKvBench
  SCAN = 100

  # Entry i: sequence i % 25, start i / 25 * 1000 (blocks of one sequence in file order), bin the 128 kb bin of start.
  def self.key(i)
    start = i / 25 * 1000
    [i % 25, start >> 17, start].pack("NNQ>")
  end

  def self.value(i)
    [i * 4096, 1000 + (i & 1023)].pack("Q>Q>")
  end

  # Each row: load(path, n) -> handle; get(handle, keys); scan(handle, keys) -> entries seen; close(handle).
  ROWS = {
    "Sluice::DB" => {
      load: lambda do |path, n|
        db = Sluice::DB.new
        db.open(path, Sluice::DB::OWRITER | Sluice::DB::OCREATE | Sluice::DB::OTRUNCATE) or raise db.error.to_s
        # One set per entry, as the other rows put one entry per call: a set_bulk of a Hash per batch (bio-maf's way)
        # would add the building of that Hash, Ruby work none of the other rows does.
        i = 0
        while i < n
          db.set(key(i), value(i))
          i += 1
        end
        db.synchronize(false)
        db
      end,
      get: lambda do |db, keys|
        found = 0
        keys.each { |k| found += 1 if db[k] }
        found
      end,
      scan: lambda do |db, keys|
        seen = 0
        cur = db.cursor
        keys.each do |k|
          cur.jump(k)
          j = 0
          while j < SCAN && (pair = cur.get(true))
            seen += pair[1].bytesize > 0 ? 1 : 0
            j += 1
          end
        end
        cur.disable
        seen
      end,
      close: ->(db) { db.close },
    },
    "MVStore-autoconversion" => {
      load: lambda do |path, n|
        store = org.h2.mvstore.MVStore.open(path)
        map = store.openMap("data")
        i = 0
        while i < n
          map.put(key(i), value(i))
          i += 1
        end
        store.commit
        [store, map]
      end,
      get: lambda do |(_, map), keys|
        found = 0
        keys.each { |k| found += 1 if map.get(k) }
        found
      end,
      scan: lambda do |(_, map), keys|
        seen = 0
        keys.each do |k|
          c = map.cursor(k)
          j = 0
          while j < SCAN && c.hasNext
            c.next
            seen += c.getValue.bytesize > 0 ? 1 : 0
            j += 1
          end
        end
        seen
      end,
      close: ->((store, _)) { store.close },
    },
    "PStore" => {
      load: lambda do |path, n|
        store = PStore.new(path)
        store.transaction do
          i = 0
          while i < n
            store[key(i)] = value(i)
            i += 1
          end
        end
        store
      end,
      get: lambda do |store, keys|
        found = 0
        store.transaction(true) { keys.each { |k| found += 1 if store[k] } }
        found
      end,
      scan: lambda do |store, keys|
        seen = 0
        store.transaction(true) do
          sorted = store.roots.sort
          keys.each do |k|
            at = sorted.bsearch_index { |x| x >= k } || sorted.size
            sorted[at, SCAN].each { |x| seen += store[x].bytesize > 0 ? 1 : 0 }
          end
        end
        seen
      end,
      close: ->(_) {},
    },
  }.freeze

  def self.main(argv)
    opts = argv.each_slice(2).to_h { |k, v| [k.delete_prefix("--"), v] }
    n = Integer(opts.fetch("n"))
    pstore_n = Integer(opts.fetch("pstore-n"))
    gets = Integer(opts.fetch("gets"))
    scans = Integer(opts.fetch("scans"))
    rounds = Integer(opts.fetch("rounds"))
    dir = opts.fetch("dir")
    rows = opts.fetch("rows").split(",")
    rng = Random.new(42)
    $stdout.sync = true
    (0..rounds).each do |round|
      rows.rotate(round).each do |name|
        row = ROWS.fetch(name)
        count = name == "PStore" ? pstore_n : n
        get_keys = Array.new(gets) { key(rng.rand(count)) }
        scan_keys = Array.new(scans) { key(rng.rand(count)) }
        path = File.join(dir, "sluice-kv-bench-#{Process.pid}-#{name.gsub(/\W/, '_')}")
        FileUtils.rm_f(path)
        $stderr.puts "round #{round}#{round.zero? ? ' (rehearsal)' : ''}: #{name}, #{count} entries"
        t = now
        handle = row[:load].call(path, count)
        emit(name, "load", round, count, now - t, count)
        t = now
        found = row[:get].call(handle, get_keys)
        emit(name, "get", round, gets, now - t, count)
        raise "#{name}: #{found} of #{gets} keys found" unless found == gets
        t = now
        seen = row[:scan].call(handle, scan_keys)
        emit(name, "scan", round, scans, now - t, count)
        raise "#{name}: scans saw nothing" if seen.zero?
        row[:close].call(handle)
        puts "size\t#{name}\t#{File.size(path)}" if round == rounds
        FileUtils.rm_f(path)
      end
    end
  end

  def self.now
    Process.clock_gettime(Process::CLOCK_MONOTONIC)
  end

  def self.emit(name, op, round, ops, seconds, n)
    puts ["sample", name, op, round, ops, format("%.6f", seconds), n].join("\t")
  end
end
