#!/usr/bin/env bash
# How long writing a new file takes here, against how long ago the previous one was deleted: the file written with dd
# (write(2) into the page cache, no JVM), deleted, then after GAP seconds written again, timed; once per GAP, in order.
#
#   scripts/new-file-gap.sh [--size MIB] [--dir DIR] GAP...      e.g. scripts/new-file-gap.sh 0.2 10 0.2 10
#
# On a VM whose balloon device reports free pages to the host (virtio-balloon's free page reporting: the kernel hands
# memory that has been free for a second or two back to the host), a new file written right after the delete can get
# the pages the delete freed, which the host still backs; after a longer gap they are the host's again, and their
# first touch costs a fault in the host, counted here as the writer's system time. `sluice bench jruby`'s new-file
# cells, and the rehearsal of the mmap post's harness, write new files at gaps that vary from run to run.
set -euo pipefail
usage() { sed -n '5p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
size=2000 dir=${TMPDIR:-/tmp}
while [ $# -gt 0 ]; do
  case "$1" in
    --size) size=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    -*) usage ;;
    *) break ;;
  esac
done
[ $# -ge 1 ] || usage
[[ $size =~ ^[1-9][0-9]*$ ]] || { echo "--size takes MiB, a positive integer: $size" >&2; exit 2; }
for gap in "$@"; do
  [[ $gap =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "a GAP is seconds, such as 0.2 or 10: $gap" >&2; exit 2; }
done

# Free page reporting is feature bit 5 of the virtio balloon (VIRTIO_BALLOON_F_REPORTING); sysfs shows the
# negotiated features as a string of 0s and 1s, bit 0 first.
reporting=no
for f in /sys/bus/virtio/drivers/virtio_balloon/virtio*/features; do
  [ -r "$f" ] && [ "$(cut -c6 "$f")" = 1 ] && reporting=yes
done
echo "free page reporting to the host (virtio-balloon): $reporting; $size MiB per file, in $dir"

file=$(mktemp "$dir/new-file-gap.XXXXXX")
trap 'rm -f "$file"' EXIT
dd if=/dev/zero of="$file" bs=1M count="$size" status=none
# What the kernel reported to the host meanwhile, where it counts it (not every kernel does).
counter=/sys/module/page_reporting/parameters/reported_kib
reported() { if [ -r "$counter" ]; then cat "$counter"; else echo 0; fi; }
TIMEFORMAT='%R %S'
for gap in "$@"; do
  sync "$file"
  rm -f "$file"
  before=$(reported)
  sleep "$gap"
  gave=$(( ($(reported) - before) >> 10 ))
  t=$( { time dd if=/dev/zero of="$file" bs=1M count="$size" status=none; } 2>&1 )
  read -r real sys <<<"$t"
  if [ -r "$counter" ]; then
    printf 'deleted %5ss before: %6.2f s real, %6.2f s system; %6d MiB reported to the host in the gap\n' \
      "$gap" "$real" "$sys" "$gave"
  else
    printf 'deleted %5ss before: %6.2f s real, %6.2f s system\n' "$gap" "$real" "$sys"
  fi
done
