#!/usr/bin/env bash
# Runs the JRuby mmap post's own benchmark (jruby-mmap-benchmark: its mmap_test.rb and its three Java sources) from
# a checkout the user names, with a Sluice::MappedWriter row added (scripts/seed-mmap-harness-row.rb), on the
# JRuby the build fetches and a JDK 22+; then `sluice bench jruby` on the same rows and sizes; then both side by side.
#
#   scripts/seed-mmap-harness.sh CHECKOUT [--size BYTES] [--rounds N] [--forks N] [--rows short|all] [--heap SIZE]
#                                [--dir DIR] [--protocol settled|dropped|rakefile] [--control]
#
#   CHECKOUT   a clone of https://github.com/colinsurprenant/jruby-mmap-benchmark (nothing in it is written)
#   --size     bytes per pass (default 2097152000, the post's); smaller runs are for checking the script
#   --rounds   runs of each row, one JVM each as in the post's Rakefile; medians are printed (default 3)
#   --forks    JVMs per row and cell in `sluice bench jruby` (its --forks; default: --rounds, a fresh JVM for each
#              round as the post's harness starts, each alone, and in the rewritten cells with no warm-up or
#              rehearsal, as a JVM of the post's harness; 1 keeps each row in one JVM for the whole run)
#   --rows     short: ruby File, the post's fastest writer (MmapFileExt unboxed unsafe) and Sluice::MappedWriter
#              (default); all: every row of the post's harness too
#   --heap     every JVM's heap, in both harnesses: fixed and touched when the JVM starts (-Xms, -Xmx,
#              -XX:+AlwaysPreTouch; `sluice bench jruby --heap`), as 512m, 1g (default) or 0 for the JVM's own sizing.
#              The post's timed loop allocates on every write; a heap left to grow takes that memory fresh inside
#              the timed pass, which on a VM is the host's work landing on whichever row grew it.
#   --dir      where the work directory (compiled classes, the files written) goes (default: the temp directory)
#   --protocol settled (default): before each row's JVM the page cache's dirty pages are written out (sync), and the
#              rows take turns leading a round, in orders where each row follows every other equally often (over 6
#              rounds for three rows, 4 for four); dropped: settled, and then the page cache dropped and free memory
#              compacted before each row's JVM (needs root: /proc/sys/vm/drop_caches), a control for what a JVM
#              leaves in memory to the next; rakefile: the rows in the post's order every round (its Rakefile's:
#              ruby File first), nothing flushed between them, as the post ran them
#   --control  two more rows in the post's harness: Sluice::MappedWriter as its row was before it could seek (a new
#              writer at 0 for the measured pass, each write through the row's object, out.writer and then its write),
#              and the post's fastest writer behind that same adapter, to measure what the adapter costs
#
# The post's harness runs Benchmark.bmbm: a rehearsal pass to a new file, then the measured pass over the file the
# rehearsal wrote, each pass starting with the writer's seek(0). Only the measured pass (an existing file) is
# compared, with the "rewritten" cells of `sluice bench jruby`, which time the same pass the same way; its "cached"
# cells (a writer made for a file already written) are printed beside them. Each writer's seek is its own: the
# post's writers map the file again, Sluice::MappedWriter moves back within the window it has. The rehearsal's new-file figures are
# printed but are not reliable on a VM: the system time of the fresh pages lands on whichever writer runs after Ruby
# File, in this harness and across rows. New files are measured the way `sluice bench jruby` does (the "new" cells
# of its table): the file deleted before every timed run, the rows taking turns.
#
# Why settled: in the post's order, MmapFileExt always runs right after ruby File, whose 2,000 MB (a file kept, so its
# pages must reach the disk) are still dirty. Its own rehearsal adds 2,000 MB more, past the kernel's background
# writeback threshold (vm.dirty_background_ratio: 10% of the memory that can hold them), so the flusher wrote
# 2,428-2,916 MiB (medians per chunk size) during MmapFileExt's JVM, on the other of two cores. The row after it
# deletes its file (the harness reuses test_data.mmap), dropping those dirty pages unwritten: 236-560 MiB were written
# during Sluice::MappedWriter's. That order handicapped the post's fastest writer, not ours: MappedWriter /
# MmapFileExt read 1.04 / 1.43 / 1.29 at 1k / 4k / 16k in it (docs/benchmarks/2026-11-27-settled-s11.md). Settled,
# but with the rows only taking turns to lead, MappedWriter still ran right after MmapFileExt in almost every round,
# and read 0.92 / 0.93 / 0.98 (five runs pooled; docs/benchmarks/2026-11-27-williams-s12.md); in the Williams order,
# 0.88 / 1.02 / 0.99 (eight runs pooled, 90 a row; docs/benchmarks/2026-11-27-s14.md). Each round line says how
# much was written back during that row's JVM.
set -euo pipefail

usage() { sed -n '6,30p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ $# -ge 1 ] || usage
checkout=$(cd "$1" && pwd) || exit 2
shift
size=2097152000 rounds=3 forks= rows=short heap=1g dir=${TMPDIR:-/tmp} protocol=settled control=""
while [ $# -gt 0 ]; do
  case "$1" in
    --size) size=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --forks) forks=$2; shift 2 ;;
    --rows) rows=$2; shift 2 ;;
    --heap) heap=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    --protocol) protocol=$2; shift 2 ;;
    --control) control=1; shift ;;
    *) usage ;;
  esac
done
[[ $size =~ ^[0-9]+$ && $rounds =~ ^[1-9][0-9]*$ ]] || { echo "--size and --rounds take positive integers" >&2; exit 2; }
forks=${forks:-$rounds}
[[ $forks =~ ^[1-9][0-9]*$ ]] && (( forks <= rounds )) || { echo "--forks takes 1 to --rounds ($rounds): $forks" >&2; exit 2; }
[ "$rows" = short ] || [ "$rows" = all ] || { echo "--rows is short or all, not $rows" >&2; exit 2; }
case "$protocol" in settled | dropped | rakefile) ;; *) echo "--protocol is settled, dropped or rakefile, not $protocol" >&2; exit 2 ;; esac
here="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=seed-mmap-lib.sh
. "$here/scripts/seed-mmap-lib.sh"
[ "$protocol" != dropped ] || seed_mmap_check_drop "--protocol dropped"
# The same text goes to java's -Xms and -Xmx and to `sluice bench jruby --heap`: a number and k, m or g.
[[ $heap =~ ^[0-9]+[kmg]?$ ]] || { echo "--heap takes a size such as 512m or 1g, or 0: $heap" >&2; exit 2; }
heap_flags=()
[[ $heap =~ ^0+[kmg]?$ ]] || heap_flags=("-Xms$heap" "-Xmx$heap" "-XX:+AlwaysPreTouch")
# `sluice bench jruby` refuses less than 64m (JRubyBench.MIN_HEAP), but only after the post's harness has run: say so now.
if [ ${#heap_flags[@]} -gt 0 ]; then
  heap_kib=${heap%[kmg]}
  case "$heap" in *k) ;; *m) heap_kib=$((heap_kib << 10)) ;; *g) heap_kib=$((heap_kib << 20)) ;; *) heap_kib=$((heap_kib >> 10)) ;; esac
  (( heap_kib >= 64 << 10 )) || { echo "--heap must be 0 or at least 64m, for JRuby itself: $heap" >&2; exit 2; }
fi
seed_mmap_check_checkout "$checkout"
# mmap_test.rb divides the size into 1k, 4k and 16k Strings and refuses a remainder.
(( size % 16384 == 0 && size > 0 )) || { echo "--size must be a positive multiple of 16384: $size" >&2; exit 2; }
# Its writers map the whole pass in one MappedByteBuffer.
(( size <= 2147483647 )) || { echo "--size is at most 2147483647 (one MappedByteBuffer): $size" >&2; exit 2; }

seed_mmap_setup "$checkout" "$dir" seed-mmap-harness

chunks=(1 4 16)
if [ "$rows" = all ]; then
  names=("ruby File" "java MmapFileExt, unboxed, unsafe" "java MmapFileExt, unboxed, safe"
         "java MmapFile, unboxed, unsafe" "java MmapFile, unboxed, safe" "java MmapFile, autoboxing"
         "ruby PureMmapFile" "Sluice::MappedWriter")
else
  names=("ruby File" "java MmapFileExt, unboxed, unsafe" "Sluice::MappedWriter")
fi
# The controls (seed-mmap-harness-row.rb): in the post's harness only, since ours calls every writer directly.
reopened="Sluice::MappedWriter reopened at seek"
adapted="MmapFileExt through the row adapter"
[ -z "$control" ] || names+=("$reopened" "$adapted")
# Settled rounds take the rows in a Williams design, the one `sluice bench jruby` orders its rows by (JRubyBench.order),
# so that what a row inherits from the one before it (the memory its deleted file freed, a page cache it left) falls
# on every row alike: each row follows every other once in n rounds, or for an odd n twice in 2n. (Only leading in
# turn left each row behind the same one in almost every round: Sluice::MappedWriter behind MmapFileExt.)
n=${#names[@]}
period=$(( n % 2 ? 2 * n : n ))

echo "JRuby mmap post's harness: $checkout ($(git -C "$checkout" rev-parse --short HEAD 2>/dev/null || echo 'not a git checkout'))"
echo "$(basename "$jruby") on $("$jdk/bin/java" -version 2>&1 | head -1); $size bytes per pass; $rounds JVM(s) per row"
if [ ${#heap_flags[@]} -gt 0 ]; then
  echo "every JVM of both harnesses: a fixed heap of $heap, touched when it starts (${heap_flags[*]})"
else
  echo "every JVM of both harnesses: the JVM's own heap sizing"
fi
# Standard error says it too, for scripts/seed-mmap-pool.py, which pools only runs of one protocol.
echo "protocol: $protocol" >&2
if [ "$protocol" = settled ]; then
  echo "settled: dirty pages written out (sync) before each row's JVM; the rows take turns leading a round, each"
  echo "following every other equally often over $period rounds"
elif [ "$protocol" = dropped ]; then
  echo "dropped: as settled (sync, the rows in turn over $period rounds), and before each row's JVM the page cache"
  echo "dropped and free memory compacted"
else
  echo "as the post's Rakefile runs them: its order every round, nothing flushed between rows"
fi
echo "uptime: $(uptime)"
echo
# Pages written to storage so far (4 KiB each), for the MiB written back during each row's JVM.
written() { awk '$1 == "nr_written" { print $2 }' /proc/vmstat 2>/dev/null || true; }
# One line per run: chunk, row, rehearsal (new file) seconds, measured (existing file) seconds, CPU seconds and MiB
# written back while its JVM ran (empty where /proc/vmstat does not say).
samples="$work/samples.tsv"
: > "$samples"
for round in $(seq 1 "$rounds"); do
  order=("${names[@]}")
  if [ "$protocol" != rakefile ]; then
    # As JRubyBench.order: position j holds row k + (0, 1, n-1, 2, n-2, ...)[j], and for an odd n every other run of
    # n rounds fills the positions backwards.
    k=$((round - 1)) order=()
    for ((j = 0; j < n; j++)); do
      step=$(( j == 0 ? 0 : j % 2 ? (j + 1) / 2 : n - j / 2 ))
      order[n % 2 && (k / n) % 2 ? n - 1 - j : j]=${names[(k + step) % n]}
    done
  fi
  for kib in "${chunks[@]}"; do
    for name in "${order[@]}"; do
      [ "$protocol" = rakefile ] || sync
      if [ "$protocol" = dropped ]; then
        # A control for what one JVM leaves in memory to the next (the page cache, the memory its file and heap
        # freed): every row starts from the same state. It did not move the comparison at 1k
        # (docs/benchmarks/2026-11-27-s15.md; scripts/seed-mmap-carryover.sh measures the carryover itself).
        seed_mmap_drop
      fi
      w0=$(written)
      out=$(cd "$work" && "$jdk/bin/java" --enable-native-access=ALL-UNNAMED ${heap_flags[@]+"${heap_flags[@]}"} -cp "$cp" org.jruby.Main \
              "$here/scripts/seed-mmap-harness-row.rb" "$checkout" "$kib" "$name" "$size" 2>&1) || {
        echo "$out" >&2; echo "the row '$name' (${kib}k) failed" >&2; exit 1; }
      # bmbm prints the row twice, rehearsal first; the real time is the last number, in parentheses.
      times=$(grep -F "$name" <<<"$out" | sed -n 's/.*( *\([0-9.]*\))$/\1/p' | tr '\n' ' ')
      read -r rehearsal measured _ <<<"$times"
      [ -n "${measured:-}" ] || { echo "$out" >&2; echo "no timings for '$name' (${kib}k) in its output" >&2; exit 1; }
      # And the measured pass's CPU seconds (user + system, the whole process), which waiting on a busy machine
      # does not inflate.
      cpu=$(grep -F "$name" <<<"$out" | tail -1 | awk '{print $(NF-2)}')
      w1=$(written)
      wb=""
      [ -n "$w0" ] && [ -n "$w1" ] && wb=$(( (w1 - w0) / 256 ))
      printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$kib" "$name" "$rehearsal" "$measured" "$cpu" "$wb" >> "$samples"
      # Its own line for the measured pass, as the post's harness prints it.
      printf '  round %d  new file %8.3fs  written back %6s MiB  | %s\n' "$round" "$rehearsal" "${wb:--}" \
        "$(grep -F "$name" <<<"$out" | tail -1)" >&2
    done
  done
done

# sluice bench jruby, the same rows, sizes and rounds.
only="ruby-File,MmapFileExt-unboxed-unsafe,Sluice::MappedWriter"
[ "$rows" = all ] && only=""
json="$work/bench-jruby.json"
echo "sluice bench jruby --no-reads --size $size --chunk-sizes 1k,4k,16k --rounds $rounds --forks $forks --heap $heap ${only:+--only $only} --dir $work"
"$here/sluice" bench jruby --no-reads --size "$size" --chunk-sizes 1k,4k,16k --rounds "$rounds" --forks "$forks" --heap "$heap" \
  ${only:+--only "$only"} --dir "$work" --json "$json" > "$work/bench-jruby.txt"
echo

awk -F'\t' -v size="$size" -v json="$json" -v adapted="$adapted" -v reopened="$reopened" '
  function median(list,   n, a, i, j, t) {
    n = split(list, a, " ")
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  { old[$1 SUBSEP $2] = old[$1 SUBSEP $2] " " size / $4 / 1e6; cpu[$1 SUBSEP $2] = cpu[$1 SUBSEP $2] " " $5
    if ($6 != "") wb[$1 SUBSEP $2] = wb[$1 SUBSEP $2] " " $6
 fresh[$1 SUBSEP $2] = fresh[$1 SUBSEP $2] " " size / $3 / 1e6
    if (!($2 in seen)) { seen[$2] = 1; order[++rows] = $2 } }
  END {
    names["ruby File"] = "ruby-File"; names["java MmapFileExt, unboxed, unsafe"] = "MmapFileExt-unboxed-unsafe"
    names["java MmapFileExt, unboxed, safe"] = "MmapFileExt-unboxed-safe"
    names["java MmapFile, unboxed, unsafe"] = "MmapFile-unboxed-unsafe"
    names["java MmapFile, unboxed, safe"] = "MmapFile-unboxed-safe"
    names["java MmapFile, autoboxing"] = "MmapFile-autoboxing"; names["ruby PureMmapFile"] = "PureMmapFile"
    names["Sluice::MappedWriter"] = "Sluice::MappedWriter"
    while ((getline line < json) > 0) {
      if (line !~ /"workload": "seqwrite"/) continue
      e = line; sub(/.*"engine": "/, "", e); sub(/".*/, "", e)
      b = line; sub(/.*"blockSize": /, "", b); sub(/,.*/, "", b)
      f = line; sub(/.*"file": "/, "", f); sub(/".*/, "", f)
      m = line; sub(/.*"mbPerSec": /, "", m); sub(/,.*/, "", m)
      u = line; sub(/.*"userSec": /, "", u); sub(/,.*/, "", u)
      s = line; sub(/.*"systemSec": /, "", s); sub(/,.*/, "", s)
      ours[f SUBSEP b / 1024 SUBSEP e] = m; ourscpu[f SUBSEP b / 1024 SUBSEP e] = u + s
    }
    print "Existing file, MB/s (x ruby File), medians: the post'"'"'s harness (measured pass) | sluice bench jruby (rewritten)"
    printf "%-36s %19s %19s %19s | %19s %19s %19s\n", "", "1k", "4k", "16k", "1k", "4k", "16k"
    for (r = 1; r <= rows; r++) {
      n = order[r]; line = sprintf("%-36s", n)
      for (k = 1; k <= 3; k++) { kib = 4 ^ (k - 1); v = median(old[kib SUBSEP n]); base = median(old[kib SUBSEP "ruby File"])
        post[kib SUBSEP n] = v; line = line sprintf(" %10.0f (%5.2f)", v, v / base) }
      line = line " |"
      for (k = 1; k <= 3; k++) { kib = 4 ^ (k - 1); v = ours["rewritten" SUBSEP kib SUBSEP names[n]]
        base = ours["rewritten" SUBSEP kib SUBSEP "ruby-File"]
        line = line (v == "" ? sprintf(" %19s", "") : sprintf(" %10.0f (%5.2f)", v, v / base)) }
      print line
    }
    print ""
    print "Sluice::MappedWriter / MmapFileExt unboxed unsafe (the post'"'"'s fastest), existing file:"
    printf "%-36s %10s %10s %10s\n", "", "1k", "4k", "16k"
    lp = sprintf("%-36s", "the post'"'"'s harness"); lo = sprintf("%-36s", "sluice bench jruby (rewritten)")
    la = sprintf("%-36s", "agreement (post / ours)"); lc = sprintf("%-36s", "sluice bench jruby (cached)")
    for (k = 1; k <= 3; k++) { kib = 4 ^ (k - 1)
      p = post[kib SUBSEP "Sluice::MappedWriter"] / post[kib SUBSEP "java MmapFileExt, unboxed, unsafe"]
      o = ours["rewritten" SUBSEP kib SUBSEP "Sluice::MappedWriter"] / ours["rewritten" SUBSEP kib SUBSEP "MmapFileExt-unboxed-unsafe"]
      c = ours["cached" SUBSEP kib SUBSEP "Sluice::MappedWriter"] / ours["cached" SUBSEP kib SUBSEP "MmapFileExt-unboxed-unsafe"]
      lp = lp sprintf(" %10.2f", p); lo = lo sprintf(" %10.2f", o); la = la sprintf(" %10.2f", p / o)
      lc = lc sprintf(" %10.2f", c) }
    print lp; print lo; print la
    print "And over a file already written, each writer made for it (no seek: the post'"'"'s writers map it once, ours"
    print "one window of it), in sluice bench jruby:"
    print lc
    print "The same ratio by CPU seconds (user + system of the whole JRuby process; medians), which waiting on a busy"
    print "machine does not inflate:"
    lp = sprintf("%-36s", "the post'"'"'s harness, by CPU"); lo = sprintf("%-36s", "sluice bench jruby, by CPU")
    for (k = 1; k <= 3; k++) { kib = 4 ^ (k - 1)
      # Tiny runs can take less than the 10 ms the CPU times are counted in.
      a = median(cpu[kib SUBSEP "java MmapFileExt, unboxed, unsafe"]); b = median(cpu[kib SUBSEP "Sluice::MappedWriter"])
      lp = lp (b > 0 ? sprintf(" %10.2f", a / b) : sprintf(" %10s", "-"))
      a = ourscpu["rewritten" SUBSEP kib SUBSEP "MmapFileExt-unboxed-unsafe"]; b = ourscpu["rewritten" SUBSEP kib SUBSEP "Sluice::MappedWriter"]
      lo = lo (b > 0 ? sprintf(" %10.2f", a / b) : sprintf(" %10s", "-")) }
    print lp; print lo
    if ((1 SUBSEP adapted) in old) {
      print ""
      print "The controls, in the post'"'"'s harness: Sluice::MappedWriter reopened at seek (a new writer for the measured"
      print "pass, each write through the row'"'"'s object: out.writer, then its write), and the post'"'"'s fastest writer behind"
      print "the same two calls:"
      printf "%-56s %10s %10s %10s\n", "", "1k", "4k", "16k"
      lr = sprintf("%-56s", "reopened / MmapFileExt")
      la = sprintf("%-56s", "MmapFileExt: through the adapter / direct")
      lb = sprintf("%-56s", "reopened / MmapFileExt through the adapter")
      for (k = 1; k <= 3; k++) { kib = 4 ^ (k - 1); c = post[kib SUBSEP adapted]; e = post[kib SUBSEP "java MmapFileExt, unboxed, unsafe"]
        lr = lr sprintf(" %10.2f", post[kib SUBSEP reopened] / e)
        la = la sprintf(" %10.2f", c / e)
        lb = lb sprintf(" %10.2f", post[kib SUBSEP reopened] / c) }
      print lr; print la; print lb
    }
    print ""
    print "MiB the kernel wrote back while each row'"'"'s JVM ran in the post'"'"'s harness (medians): the flusher'"'"'s work on"
    print "the other core while the row wrote"
    for (r = 1; r <= rows; r++) { n = order[r]; line = sprintf("%-36s", n)
      for (k = 1; k <= 3; k++) { kib = 4 ^ (k - 1)
        line = line ((kib SUBSEP n) in wb ? sprintf(" %10.0f", median(wb[kib SUBSEP n])) : sprintf(" %10s", "-")) }
      print line }
    print ""
    print "New file, MB/s: sluice bench jruby (new: the file deleted before each timed run, the rows taking turns)"
    for (r = 1; r <= rows; r++) { n = order[r]; line = sprintf("%-36s", n)
      for (k = 1; k <= 3; k++) { kib = 4 ^ (k - 1); v = ours["new" SUBSEP kib SUBSEP names[n]]
        line = line (v == "" ? sprintf(" %10s", "") : sprintf(" %10.0f", v)) }
      print line }
    print ""
    print "Not compared: the post'"'"'s rehearsal pass (a new file), MB/s. Unreliable on a VM: the system time of fresh"
    print "pages lands on whichever writer runs after ruby File, so new files are measured as sluice bench jruby does."
    for (r = 1; r <= rows; r++) { n = order[r]; line = sprintf("%-36s", n)
      for (k = 1; k <= 3; k++) { kib = 4 ^ (k - 1); line = line sprintf(" %10.0f", median(fresh[kib SUBSEP n])) }
      print line }
  }' "$samples"
echo
echo "sluice bench jruby's own table:"
cat "$work/bench-jruby.txt"
