#!/bin/sh
# What the device under FILE gives to O_DIRECT random reads of BS (default 4k), by the ways of keeping reads in flight
# that `sluice bench channels` compares: one ring or AIO context at a queue depth (io_uring, libaio), and a number of
# threads each blocking in pread (psync, numjobs). Prints one line per job: the job, thousands of reads per second,
# mean completion latency in microseconds. Run it under the benchmark lock; FILE should be at least as large as the
# bench's test file (any content), on the file system the bench uses.
#   flock /work/bench.lock scripts/fio-direct-ceiling.sh /tmp/data.bin
set -eu
F=${1:?usage: fio-direct-ceiling.sh FILE [BS]}
BS=${2:-4k}
SIZE=$(stat -c %s "$F")
run() { # label, fio options...
  label=$1; shift
  fio --name=d --filename="$F" --direct=1 --rw=randread --bs="$BS" --size="$SIZE" --norandommap --randrepeat=0 \
      --time_based --runtime=4s --ramp_time=1s --thread --group_reporting --output-format=json "$@" 2>/dev/null |
    python3 -c 'import json,sys; j=json.load(sys.stdin)["jobs"][0]["read"]; print("%s %.1f %.0f" % (sys.argv[1], j["iops"]/1000, j["clat_ns"]["mean"]/1000))' "$label"
}
for d in 1 4 16 32 64; do run "io_uring iodepth=$d" --ioengine=io_uring --iodepth=$d; done
# As the bench's contenders wait: submit 32, reap all 32, again.
run "io_uring iodepth=32 batch32" --ioengine=io_uring --iodepth=32 --iodepth_batch_submit=32 --iodepth_batch_complete_min=32
for d in 1 4 16 32 64; do run "libaio iodepth=$d" --ioengine=libaio --iodepth=$d; done
for j in 1 2 4 32 64; do run "psync numjobs=$j" --ioengine=psync --numjobs=$j; done
