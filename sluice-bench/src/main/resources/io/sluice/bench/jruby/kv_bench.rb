# frozen_string_literal: true

# The Ruby rows of `sluice bench kv`, as workers that io.sluice.bench.jruby.KvBench starts and drives round by round.
# An index build shaped like bio-maf's maf_index: N entries loaded one per call (16-byte keys of sequence, bin and
# start; 16-byte values of offset and length), then random gets, then scans of 100 entries from random keys, through:
#   Sluice::DB              this binding (JRuby)
#   MVStore-autoconversion  the same MVStore opened from Ruby, keys and values passed as Ruby Strings that JRuby
#                           converts to and from java.lang.String at each call (JRuby)
#   PStore                  Ruby's own PStore (a marshalled Hash), at a smaller N; scans sort its keys first (JRuby)
#   KyotoCabinet-MRI        Kyoto Cabinet's TreeDB (a .kct file, default tuning) through the kyotocabinet gem under
#                           MRI: the stack bio-maf was written for, run by the very code of the Sluice::DB row
#
# A worker serves the rows named by --rows and reads one command per line on standard input (tab-separated):
#   run <row> <round> <n> <gets> <scans> <key file> <store path>
#   quit
# The key file holds big-endian 32-bit numbers, the gets' then the scans'; entry i % n is looked up for each, so every
# row of a round looks up the same keys. For each run it writes on standard output
# "sample <row> <op> <round> <ops> <seconds> <n> <cpu seconds>" for load, get and scan (cpu: the whole process's,
# which for a JVM includes its collector and compiler threads), "size <row> <bytes>" (the file after close), then
# "done", or "error <message>". Progress goes to standard error. Each run collects garbage before its timed work, so
# that no round pays for the rounds before it (KvBench's settle does the same in the Java worker).

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

  # A row on Kyoto Cabinet's Ruby API: Sluice::DB and KyotoCabinet::DB run this same code.
  def self.kyoto_api(type)
    {
      load: lambda do |path, n|
        db = type.new
        db.open(path, type::OWRITER | type::OCREATE | type::OTRUNCATE) or raise "#{path}: #{db.error}"
        # One set per entry, as the other rows put one entry per call: a set_bulk of a Hash per batch (bio-maf's
        # way) would add the building of that Hash, Ruby work none of the other rows does.
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
        keys.each { |k| seen += scan_from(cur, k) }
        cur.disable
        seen
      end,
      close: ->(db) { db.close or raise db.error.to_s },
    }
  end

  # One scan on Kyoto Cabinet's cursor API, written as bio-maf's index scan (Bio::MAF::KyotoIndex#scan_bin) is: a
  # method of its own called per scan, its counters in locals, `cur.get(true)` in a `while`. (Written instead in a
  # block nested in the row's lambda, the counters were variables of the enclosing scope, which JRuby keeps on the
  # heap: more Ruby work per entry, the same for every row on this API, that bio-maf's code does not do.) A byte of
  # the key and of the value is read, as bio-maf reads both (it unpacks the key to know where to stop, the value to
  # know what to fetch), and the count is the Java row's (KvBench.scanFrom): entries whose key's fourth byte (the low
  # byte of its sequence) and value's last byte are both odd.
  def self.scan_from(cur, key)
    cur.jump(key)
    seen = 0
    j = 0
    while j < SCAN && (pair = cur.get(true))
      seen += pair[0].getbyte(3) & pair[1].getbyte(-1) & 1
      j += 1
    end
    seen
  end

  # One scan on MVStore's own cursor, in the shape of scan_from.
  def self.mvstore_scan_from(map, key)
    c = map.cursor(key)
    seen = 0
    j = 0
    while j < SCAN && c.hasNext
      c.next
      seen += 1 if c.getValue.bytesize > 0
      j += 1
    end
    seen
  end

  def self.mvstore_autoconversion
    {
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
        keys.each { |k| seen += mvstore_scan_from(map, k) }
        seen
      end,
      close: ->((store, _)) { store.close },
    }
  end

  def self.pstore
    {
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
    }
  end

  # The row named, after loading what it needs.
  def self.row(name)
    case name
    when "Sluice::DB"
      require "sluice/db"
      kyoto_api(Sluice::DB)
    when "MVStore-autoconversion"
      require "java"
      mvstore_autoconversion
    when "PStore"
      require "pstore"
      pstore
    when "KyotoCabinet-MRI"
      require "kyotocabinet"
      kyoto_api(KyotoCabinet::DB)
    else
      raise ArgumentError, "no row #{name}"
    end
  end

  if RUBY_ENGINE == "jruby"
    require "java"
    # JRuby has no CLOCK_PROCESS_CPUTIME_ID; the JVM counts the same (every thread of the process).
    def self.cpu
      java.lang.management.ManagementFactory.getOperatingSystemMXBean.getProcessCpuTime / 1e9
    end

    # A full collection of the JVM's heap, as the Java worker makes: the old stores leave the old generation.
    def self.settle
      java.lang.System.gc
    end
  else
    def self.cpu
      Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
    end

    def self.settle
      GC.start(full_mark: true, immediate_sweep: true)
    end
  end

  def self.main(argv)
    opts = argv.each_slice(2).to_h { |k, v| [k.delete_prefix("--"), v] }
    rows = opts.fetch("rows").split(",").to_h { |name| [name, row(name)] }
    $stdout.sync = true
    $stderr.puts "worker #{rows.keys.join(', ')}: #{RUBY_DESCRIPTION}"
    puts "ready"
    while (line = $stdin.gets)
      f = line.chomp.split("\t")
      break if f.empty? || f[0] == "quit"

      begin
        raise ArgumentError, "bad command: #{line.inspect}" unless f[0] == "run" && f.size == 8

        run(rows.fetch(f[1]), f[1], Integer(f[2]), Integer(f[3]), Integer(f[4]), Integer(f[5]), f[6], f[7])
        puts "done"
      rescue StandardError => e
        puts "error\t#{e.class}: #{e.message.tr("\t\n", '  ')}"
      end
    end
  end

  def self.run(row, name, round, count, gets, scans, key_file, path)
    idx = File.binread(key_file, 4 * (gets + scans)).unpack("N*")
    get_keys = idx[0, gets].map { |i| key(i % count) }
    scan_keys = idx[gets, scans].map { |i| key(i % count) }
    FileUtils.rm_f(path)
    settle
    handle = measure(name, "load", round, count, count) { row[:load].call(path, count) }
    found = measure(name, "get", round, gets, count) { row[:get].call(handle, get_keys) }
    raise "#{name}: #{found} of #{gets} keys found" unless found == gets

    seen = measure(name, "scan", round, scans, count) { row[:scan].call(handle, scan_keys) }
    raise "#{name}: scans saw nothing" if seen.zero?

    row[:close].call(handle)
    puts "size\t#{name}\t#{File.size(path)}"
  ensure
    FileUtils.rm_f(path)
  end

  def self.measure(name, op, round, ops, count)
    c = cpu
    t = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    out = yield
    seconds = Process.clock_gettime(Process::CLOCK_MONOTONIC) - t
    puts ["sample", name, op, round, ops, format("%.6f", seconds), count, format("%.6f", cpu - c)].join("\t")
    out
  end
end

SluiceKvBench.main(ARGV) if $PROGRAM_NAME == __FILE__
