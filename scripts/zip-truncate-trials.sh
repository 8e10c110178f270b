#!/usr/bin/env bash
# Cuts a zip archive while `sluice zip test` reads it, N times, and counts how each run ended. A JVM crash (exit
# 134, SIGBUS in native code reading a lost page) is the failure this looks for; exits 1 and 2 are the expected
# "this entry/archive is damaged" outcomes, exit 0 a cut that came after the check had finished.
#
#   scripts/zip-truncate-trials.sh ARCHIVE [N]      (Linux: it watches /proc/*/maps to cut while the archive is open)
set -euo pipefail
archive=$(readlink -f "$1"); n=${2:-100}
here="$(cd "$(dirname "$0")/.." && pwd)"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
size=$(stat -c %s "$archive")
ok=0; failed=0; crashed=0; other=0
for i in $(seq 1 "$n"); do
  cp "$archive" "$work/t.zip"
  "$here/sluice" zip test "$work/t.zip" > "$work/out.txt" 2>&1 &
  pid=$!
  for _ in $(seq 1 500); do grep -qs "$work/t.zip" /proc/[0-9]*/maps && break; sleep 0.005; done
  sleep "$(printf '0.%02d' $((RANDOM % 40)))"
  truncate -s $(( (RANDOM * 32768 + RANDOM) % (size - 1) + 1 )) "$work/t.zip"
  rc=0; wait "$pid" || rc=$?
  case $rc in
    0) ok=$((ok + 1)) ;;
    1) failed=$((failed + 1)) ;;
    134) crashed=$((crashed + 1)); grep -m3 'Problematic frame\|^# C  \|^# J ' "$work/out.txt" || true ;;
    *) other=$((other + 1)); echo "exit $rc: $(tail -1 "$work/out.txt")" ;;
  esac
done
echo "trials=$n exit0=$ok exit1=$failed crashed=$crashed other=$other"
[ "$crashed" -eq 0 ]
