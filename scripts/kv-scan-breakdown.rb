# Where a Sluice::DB scan's time goes from JRuby: the scan of `sluice bench kv` (jump to a key, then up to 100
# `cur.get(true)`, a byte of each key and value read) beside the same loop doing less, and beside the Java row's scan
# on a second store loaded alike in the same JVM; each in thread CPU time and bytes allocated per entry:
#   java   KvBench.scanFrom     the KvStore-java row's scan (key() and value(), a byte of each), all in Java
#   pair   scan_from            the bench's own scan (kv_bench.rb): cur.get(true), [key, value], a byte of each
#   get    cur.get(true)        [key, value] and a step, the pair not looked at
#   value  cur.get_value(true)  one String and a step, its byte read
#   step   cur.step             a step, no String
#   nowalk cur.get              pair's Ruby work on one record: [key, value] and a byte of each, no step (the
#                               cursor stays on the jump's record, so no store walk and the same two arrays each time)
#   empty  the loop alone       Ruby's own cost of the loop and its counters, with no call into the store
# (java and pair count SCAN entries a scan: fewer only for the few random keys within 100 of the end.)
# The differences between lines are what each part costs. Run from the checkout, after ./sluice has built:
#   L=sluice-cli/target/lib; J=$(ls sluice-cli/target/jruby/jruby-complete-*.jar)
#   $JAVA --enable-native-access=ALL-UNNAMED -Xms2g -Xmx2g -Xmn512m -Djruby.compile.mode=FORCE \
#     -cp $J:$L/sluice-bench.jar:$L/sluice-jruby.jar:$L/sluice-core.jar:$L/sluice-db.jar:$L/sluice-maf.jar:$L/h2-mvstore.jar \
#     org.jruby.Main -I sluice-jruby/lib scripts/kv-scan-breakdown.rb [N] [DIR]
# ONLY=pair,step (in the environment) runs only the lines named.
require "sluice/db"
require "java"
load "uri:classloader:/io/sluice/bench/jruby/kv_bench.rb"

n = Integer(ARGV[0] || 1_000_000)
dir = ARGV[1] || Dir.tmpdir
SCAN = 100
SCANS = 20_000
ROUNDS = 7 # the first 3 are warm-up
THREADS = java.lang.management.ManagementFactory.getThreadMXBean

def cpu_ns
  THREADS.getCurrentThreadCpuTime
end

def allocated
  THREADS.getCurrentThreadAllocatedBytes
end

def scan_value(cur, key, _)
  cur.jump(key)
  j = 0
  s = 0
  while j < SCAN && (v = cur.get_value(true))
    s += v.getbyte(-1) & 1
    j += 1
  end
  $sink += s
  j
end

def scan_get(cur, key, _)
  cur.jump(key)
  j = 0
  while j < SCAN && cur.get(true)
    j += 1
  end
  j
end

def scan_nowalk(cur, key, _)
  cur.jump(key)
  seen = 0
  j = 0
  while j < SCAN && (pair = cur.get)
    seen += pair[0].getbyte(3) & pair[1].getbyte(-1) & 1
    j += 1
  end
  $sink += seen
  j
end

def scan_step(cur, key, _)
  cur.jump(key)
  j = 0
  while j < SCAN && cur.step
    j += 1
  end
  j
end

def scan_empty(cur, key, _)
  cur.jump(key)
  j = 0
  s = 0
  while j < SCAN
    s += 1
    j += 1
  end
  $sink += s
  j
end

path = File.join(dir, "kv-scan-breakdown-#{Process.pid}.kct")
db = Sluice::DB.new
db.open(path, Sluice::DB::OWRITER | Sluice::DB::OCREATE | Sluice::DB::OTRUNCATE) or raise "#{path}: #{db.error}"
begin
  i = 0
  while i < n
    db.set(SluiceKvBench.key(i), SluiceKvBench.value(i))
    i += 1
  end
  random = Random.new(1)
  keys = Array.new(SCANS) { SluiceKvBench.key(random.rand(n)) }
  # The Java row's store: the same entries in a KvStore of its own, loaded and scanned by Java code.
  java_path = "#{path}-java"
  kv = Java::IoSluiceDb::KvStore.open(java.nio.file.Path.of(java_path), true, true, true)
  i = 0
  while i < n
    kv.put(SluiceKvBench.key(i).to_java_bytes, SluiceKvBench.value(i).to_java_bytes)
    i += 1
  end
  kv.sync(false)
  java_keys = keys.map(&:to_java_bytes)
  java_cur = kv.cursor
  bench = Java::IoSluiceBenchJruby::KvBench
  # Each variant is a method of its own with its counters in locals, as the bench's scan is (a block's variables
  # live on the heap and would add Ruby work of their own); each returns the entries it visited and keeps what it
  # read in $sink.
  variants = {
    "java" => lambda { |_, k, x| $sink += bench.scanFrom(java_cur, java_keys[x]); SCAN },
    "pair" => lambda { |cur, k, _| $sink += SluiceKvBench.scan_from(cur, k); SCAN },
    "get" => method(:scan_get),
    "value" => method(:scan_value),
    "step" => method(:scan_step),
    "nowalk" => method(:scan_nowalk),
    "empty" => method(:scan_empty),
  }
  variants.select! { |name, _| ENV["ONLY"].split(",").include?(name) } if ENV["ONLY"]
  $sink = 0
  results = Hash.new { |h, k| h[k] = [] }
  bytes = Hash.new { |h, k| h[k] = [] }
  cur = db.cursor
  ROUNDS.times do |round|
    variants.to_a.rotate(round).each do |name, scan|
      GC.start
      t = cpu_ns
      a = allocated
      entries = 0
      keys.each_with_index { |k, x| entries += scan.call(cur, k, x) }
      next if round < 3

      results[name] << (cpu_ns - t).fdiv(entries)
      bytes[name] << (allocated - a).fdiv(entries)
    end
  end
  puts "#{n} entries, #{SCANS} scans of #{SCAN}; thread CPU ns per entry, median of #{ROUNDS - 3} rounds (min-max); " \
       "bytes allocated per entry"
  variants.each_key do |name|
    v = results[name].sort
    puts format("  %-6s %6.1f  (%.1f-%.1f)  %6.1f B", name, v[v.size / 2], v.first, v.last, bytes[name].sort[v.size / 2])
  end
ensure
  db.close
  kv&.close
  [path, java_path].each { |f| File.delete(f) if f && File.exist?(f) }
end
