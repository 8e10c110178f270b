# Where a Sluice::DB scan's time goes from JRuby: the scan of `sluice bench kv` (jump to a key, then up to 100
# `cur.get(true)`, counting non-empty values) beside the same loop doing less, each in thread CPU time per entry:
#   pair   cur.get(true)        [key, value] and a step: the bench's scan
#   value  cur.get_value(true)  one String and a step
#   step   cur.step             a step, no String
#   empty  the loop alone       Ruby's own cost of the loop and its counters, with no call into the store
# The differences between lines are what each part costs. Run from the checkout, after ./sluice has built:
#   L=sluice-cli/target/lib; J=$(ls sluice-cli/target/jruby/jruby-complete-*.jar)
#   $JAVA --enable-native-access=ALL-UNNAMED -Xms2g -Xmx2g -Xmn512m -Djruby.compile.mode=FORCE \
#     -cp $J:$L/sluice-jruby.jar:$L/sluice-core.jar:$L/sluice-db.jar:$L/sluice-maf.jar:$L/h2-mvstore.jar \
#     org.jruby.Main -I sluice-jruby/lib scripts/kv-scan-breakdown.rb [N] [DIR]
require "sluice/db"
require "java"

n = Integer(ARGV[0] || 1_000_000)
dir = ARGV[1] || Dir.tmpdir
SCAN = 100
SCANS = 20_000
ROUNDS = 7 # the first 3 are warm-up
THREADS = java.lang.management.ManagementFactory.getThreadMXBean

def cpu_ns
  THREADS.getCurrentThreadCpuTime
end

# Keys and values shaped as the bench's (KvBench's key and value of entry i), loaded in key order.
def key(i)
  start = i / 25 * 1000
  [i % 25, start >> 17, start].pack("NNQ>")
end

path = File.join(dir, "kv-scan-breakdown-#{Process.pid}.kct")
db = Sluice::DB.new
db.open(path, Sluice::DB::OWRITER | Sluice::DB::OCREATE | Sluice::DB::OTRUNCATE) or raise "#{path}: #{db.error}"
begin
  i = 0
  while i < n
    db.set(key(i), [i * 4096, 1000 + (i & 1023)].pack("Q>Q>"))
    i += 1
  end
  random = Random.new(1)
  keys = Array.new(SCANS) { key(random.rand(n)) }
  variants = {
    "pair" => lambda { |cur, k|
      cur.jump(k); j = 0; s = 0
      while j < SCAN && (pair = cur.get(true)); s += pair[1].bytesize > 0 ? 1 : 0; j += 1; end
      s },
    "value" => lambda { |cur, k|
      cur.jump(k); j = 0; s = 0
      while j < SCAN && (v = cur.get_value(true)); s += v.bytesize > 0 ? 1 : 0; j += 1; end
      s },
    "step" => lambda { |cur, k|
      cur.jump(k); j = 0; s = 0
      while j < SCAN && cur.step; s += 1; j += 1; end
      s },
    "empty" => lambda { |cur, k|
      cur.jump(k); j = 0; s = 0
      while j < SCAN; s += 1; j += 1; end
      s },
  }
  results = Hash.new { |h, k| h[k] = [] }
  cur = db.cursor
  ROUNDS.times do |round|
    variants.to_a.rotate(round).each do |name, scan|
      GC.start
      t = cpu_ns
      entries = 0
      keys.each { |k| entries += scan.call(cur, k) }
      results[name] << (cpu_ns - t).fdiv(entries) if round >= 3
    end
  end
  puts "#{n} entries, #{SCANS} scans of #{SCAN}; thread CPU ns per entry, median of #{ROUNDS - 3} rounds (min-max)"
  variants.each_key do |name|
    v = results[name].sort
    puts format("  %-6s %6.1f  (%.1f-%.1f)", name, v[v.size / 2], v.first, v.last)
  end
ensure
  db.close
  File.delete(path) if File.exist?(path)
end
