#!/usr/bin/env bash
# Runs scripts/seed-mmap-passes.rb for the post's fastest writer and Sluice::MappedWriter in alternating JVMs, from a
# checkout of jruby-mmap-benchmark the user names (its Java sources compiled into a work directory, as
# scripts/seed-mmap-harness.sh does), on the JRuby the build fetches and a JDK 22+.
#
#   scripts/seed-mmap-passes.sh CHECKOUT [--chunk KIB] [--passes N] [--jvms N] [--dir DIR] [--rows LIST]
#                               [--pair SIZE [--dirty]]
#
# Defaults: 1 KiB chunks, 3 passes (pass 1 is the one the post's harness times), 4 JVMs per writer, rows ext,sluice
# (--rows: any of ext, sluice, reopen and direct, the JVMs taking them in turn; sluice is MappedWriter as the harness
# row drives it, one writer moved back by seek(0) for each pass; reopen the row before it could seek, a new writer
# per pass written through the row's object; direct those writers written to straight). Without --pair, a summary
# follows: each row's writing-thread CPU seconds in pass 1 and in the passes after it, medians over the JVMs. JVM options for
# both writers' JVMs (-XX:MetaspaceSize=256m, -Xlog:gc:file=gc.log, ...) go in SEED_JAVA_OPTS. With --pair, each JVM
# runs both writers instead, taking turns for N passes each of SIZE bytes (scripts/seed-mmap-pair.rb): over clean
# pages, or with --dirty over the pages the pass before left dirty, as the post's measured pass finds its file.
set -euo pipefail
[ $# -ge 1 ] || { sed -n '5,13p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
checkout=$(cd "$1" && pwd) || exit 2
shift
chunk=1 passes=3 jvms=4 dir=${TMPDIR:-/tmp} pair="" dirty="" rows=ext,sluice
while [ $# -gt 0 ]; do
  case "$1" in
    --chunk) chunk=$2; shift 2 ;;
    --passes) passes=$2; shift 2 ;;
    --jvms) jvms=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    --pair) pair=$2; shift 2 ;;
    --dirty) dirty=dirty; shift ;;
    --rows) rows=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
[ -z "$dirty" ] || [ -n "$pair" ] || { echo "--dirty goes with --pair SIZE" >&2; exit 2; }
IFS=, read -r -a row_list <<<"$rows"
for row in "${row_list[@]}"; do
  case "$row" in ext | sluice | reopen | direct) ;; *) echo "--rows takes ext, sluice, reopen and direct, comma-separated: $rows" >&2; exit 2 ;; esac
done
[ -f "$checkout/mmap_test.rb" ] || { echo "$checkout is not a jruby-mmap-benchmark checkout: no mmap_test.rb" >&2; exit 2; }
here="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=seed-mmap-lib.sh
. "$here/scripts/seed-mmap-lib.sh"
seed_mmap_setup "$checkout" "$dir" seed-mmap-passes
echo "uptime: $(uptime)"
for _ in $(seq 1 "$jvms"); do
  if [ -n "$pair" ]; then
    (cd "$work" && "$jdk/bin/java" ${SEED_JAVA_OPTS:-} --enable-native-access=ALL-UNNAMED -cp "$cp" org.jruby.Main \
       "$here/scripts/seed-mmap-pair.rb" "$checkout" "$chunk" "$passes" "$pair" ${dirty:+"$dirty"} 2>&1 |
       grep -v -i '^warning\|warn:' || true)
    continue
  fi
  for row in "${row_list[@]}"; do
    (cd "$work" && "$jdk/bin/java" ${SEED_JAVA_OPTS:-} --enable-native-access=ALL-UNNAMED -cp "$cp" org.jruby.Main \
       "$here/scripts/seed-mmap-passes.rb" "$checkout" "$chunk" "$row" "$passes" 2>&1 | grep -v -i '^warning\|warn:' || true) |
      tee -a "$work/passes.txt"
  done
done
[ -z "$pair" ] || exit 0
# Pass 1 is the pass the post's harness times: the first over the existing file, right after the rehearsal.
echo
echo "Writing-thread CPU seconds per pass, medians over the JVMs: pass 1 | the passes after it"
awk -v rows="$rows" '
  function median(list,   n, a, i, j, t) {
    n = split(list, a, " "); if (!n) return -1
    for (i = 2; i <= n; i++) { t = a[i] + 0; for (j = i - 1; j >= 1 && a[j] + 0 > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  $3 == "pass" && $5 == "(existing):" {
    cpu = $9; if ($4 == 1) first[$1] = first[$1] " " cpu; else later[$1] = later[$1] " " cpu
  }
  END {
    n = split(rows, r, ",")
    for (i = 1; i <= n; i++) {
      f = median(first[r[i]]); l = median(later[r[i]])
      if (f < 0) continue
      printf "  %-7s %.3f | %s\n", r[i], f, (l < 0 ? "-" : sprintf("%.3f", l))
      med1[r[i]] = f; med2[r[i]] = l
    }
    for (i = 1; i <= n; i++) if (r[i] != "ext" && med1[r[i]] > 0 && med1["ext"] > 0)
      printf "  MmapFileExt / %s by speed: pass 1 %.2f, after it %s\n", r[i], med1["ext"] / med1[r[i]],
             ((med2[r[i]] > 0 && med2["ext"] > 0) ? sprintf("%.2f", med2["ext"] / med2[r[i]]) : "-")
  }' "$work/passes.txt"
