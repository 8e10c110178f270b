#!/usr/bin/env bash
# What one JVM of the JRuby mmap post's harness leaves to the next: its fastest writer (MmapFileExt unboxed unsafe) and
# Sluice::MappedWriter, one JVM per row as scripts/seed-mmap-harness.sh runs them, in cycles of M M E E, so that each
# writer runs as often right after its own JVM as right after the other's. Prints every measured pass (the existing
# file) with the row before it, then the medians by row and row before.
#
#   scripts/seed-mmap-carryover.sh CHECKOUT [--kib N] [--cycles N] [--size BYTES] [--heap SIZE] [--dir DIR] [--drop]
#
#   CHECKOUT   a clone of https://github.com/colinsurprenant/jruby-mmap-benchmark (nothing in it is written)
#   --kib      the chunk size, 1, 4 or 16 (default 1)
#   --cycles   cycles of four JVMs (default 12)
#   --size     bytes per pass (default 2097152000, the post's)
#   --heap     each JVM's fixed heap, touched at start (default 1g, as seed-mmap-harness.sh)
#   --dir      where the work directory goes (default: the temp directory)
#   --drop     before each JVM, after sync: drop the page cache and compact free memory (needs root), as
#              seed-mmap-harness.sh --protocol dropped does
set -euo pipefail

usage() { sed -n '7,16p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ $# -ge 1 ] || usage
checkout=$(cd "$1" && pwd) || exit 2
shift
kib=1 cycles=12 size=2097152000 heap=1g dir=${TMPDIR:-/tmp} drop=""
while [ $# -gt 0 ]; do
  case "$1" in
    --kib) kib=$2; shift 2 ;;
    --cycles) cycles=$2; shift 2 ;;
    --size) size=$2; shift 2 ;;
    --heap) heap=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    --drop) drop=1; shift ;;
    *) usage ;;
  esac
done
case "$kib" in 1 | 4 | 16) ;; *) echo "--kib is 1, 4 or 16: $kib" >&2; exit 2 ;; esac
[[ $cycles =~ ^[1-9][0-9]*$ ]] || { echo "--cycles takes a positive integer: $cycles" >&2; exit 2; }
(( size % 16384 == 0 && size > 0 && size <= 2147483647 )) || {
  echo "--size is a positive multiple of 16384, at most 2147483647: $size" >&2; exit 2; }
[[ $heap =~ ^[1-9][0-9]*[mg]$ ]] || { echo "--heap takes a size such as 512m or 1g: $heap" >&2; exit 2; }
here="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=seed-mmap-lib.sh
. "$here/scripts/seed-mmap-lib.sh"
[ -z "$drop" ] || seed_mmap_check_drop --drop
seed_mmap_check_checkout "$checkout"
seed_mmap_setup "$checkout" "$dir" seed-mmap-carryover

echo "JRuby mmap post's harness: $checkout ($(git -C "$checkout" rev-parse --short HEAD 2>/dev/null || echo 'not a git checkout'))"
echo "${kib}k, $size bytes per pass, $cycles cycles of M M E E (M: Sluice::MappedWriter, E: MmapFileExt unboxed unsafe);"
echo "before each JVM: sync${drop:+, the page cache dropped and free memory compacted}; heap $heap fixed"
echo "uptime: $(uptime)"
echo
results="$work/carryover.tsv"
: > "$results"
prev=-
for cycle in $(seq 1 "$cycles"); do
  for row in M M E E; do
    case $row in
      M) name="Sluice::MappedWriter" ;;
      E) name="java MmapFileExt, unboxed, unsafe" ;;
    esac
    sync
    [ -z "$drop" ] || seed_mmap_drop
    out=$(cd "$work" && "$jdk/bin/java" --enable-native-access=ALL-UNNAMED "-Xms$heap" "-Xmx$heap" -XX:+AlwaysPreTouch \
            -cp "$cp" org.jruby.Main "$here/scripts/seed-mmap-harness-row.rb" "$checkout" "$kib" "$name" "$size" 2>&1) || {
      echo "$out" >&2; echo "the row '$name' (${kib}k) failed" >&2; exit 1; }
    # bmbm prints the row twice, rehearsal first; the measured pass's real time is the last line's number in parentheses.
    measured=$(grep -F "$name" <<<"$out" | tail -1 | sed -n 's/.*( *\([0-9.]*\))$/\1/p')
    [ -n "$measured" ] || { echo "$out" >&2; echo "no timing for '$name' in its output" >&2; exit 1; }
    printf '  cycle %2d  %s after %s  %s s\n' "$cycle" "$row" "$prev" "$measured"
    # The first JVM follows none of these rows: shown, not counted.
    [ "$prev" = - ] || printf '%s\t%s\t%s\n' "$row" "$prev" "$measured" >> "$results"
    prev=$row
  done
done

echo
echo "Measured pass, seconds: median (quartiles) by row and the row before"
awk -F'\t' '
  function sortv(a, n,   i, j, t) { for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t } }
  function q(a, n, f,   x) { x = 1 + (n - 1) * f; return a[int(x)] + (x - int(x)) * (a[int(x) + 1] - a[int(x)]) }
  { k = $1 " " $2; v[k, ++n[k]] = $3 }
  END {
    split("M M,M E,E E,E M", keys, ",")
    for (i = 1; i <= 4; i++) {
      k = keys[i]; m = n[k]; if (!m) continue
      for (j = 1; j <= m; j++) a[j] = v[k, j]
      sortv(a, m); med[k] = q(a, m, 0.5)
      split(k, rc, " ")
      printf "  %-4s after %-4s %6.3f (%.3f-%.3f), %d runs\n", (rc[1] == "M" ? "M" : "E"), rc[2], med[k], q(a, m, 0.25), q(a, m, 0.75), m
    }
    if (med["M M"] && med["E E"]) printf "MappedWriter / MmapFileExt by speed, each after its own JVM: %.3f\n", med["E E"] / med["M M"]
    if (med["M E"] && med["E M"]) printf "MappedWriter / MmapFileExt by speed, each after the other'"'"'s JVM: %.3f\n", med["E M"] / med["M E"]
    if (med["M M"] && med["M E"]) printf "MappedWriter after MmapFileExt / after itself, time: %.3f\n", med["M E"] / med["M M"]
    if (med["E E"] && med["E M"]) printf "MmapFileExt after MappedWriter / after itself, time: %.3f\n", med["E M"] / med["E E"]
  }' "$results"
