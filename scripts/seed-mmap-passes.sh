#!/usr/bin/env bash
# Runs scripts/seed-mmap-passes.rb for the post's fastest writer and Sluice::MappedWriter in alternating JVMs, from a
# checkout of jruby-mmap-benchmark the user names (its Java sources compiled into a work directory, as
# scripts/seed-mmap-harness.sh does), on the JRuby the build fetches and a JDK 22+.
#
#   scripts/seed-mmap-passes.sh CHECKOUT [--chunk KIB] [--passes N] [--jvms N] [--dir DIR] [--pair SIZE [--dirty]]
#
# Defaults: 1 KiB chunks, 3 passes (pass 1 is the one the post's harness times), 4 JVMs per writer. JVM options for
# both writers' JVMs (-XX:MetaspaceSize=256m, -Xlog:gc:file=gc.log, ...) go in SEED_JAVA_OPTS. With --pair, each JVM
# runs both writers instead, taking turns for N passes each of SIZE bytes (scripts/seed-mmap-pair.rb): over clean
# pages, or with --dirty over the pages the pass before left dirty, as the post's measured pass finds its file.
set -euo pipefail
[ $# -ge 1 ] || { sed -n '5,7p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
checkout=$(cd "$1" && pwd) || exit 2
shift
chunk=1 passes=3 jvms=4 dir=${TMPDIR:-/tmp} pair="" dirty=""
while [ $# -gt 0 ]; do
  case "$1" in
    --chunk) chunk=$2; shift 2 ;;
    --passes) passes=$2; shift 2 ;;
    --jvms) jvms=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    --pair) pair=$2; shift 2 ;;
    --dirty) dirty=dirty; shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
[ -z "$dirty" ] || [ -n "$pair" ] || { echo "--dirty goes with --pair SIZE" >&2; exit 2; }
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
  for row in ext sluice; do
    (cd "$work" && "$jdk/bin/java" ${SEED_JAVA_OPTS:-} --enable-native-access=ALL-UNNAMED -cp "$cp" org.jruby.Main \
       "$here/scripts/seed-mmap-passes.rb" "$checkout" "$chunk" "$row" "$passes" 2>&1 | grep -v -i '^warning\|warn:' || true)
  done
done
