#!/usr/bin/env python3
"""The cached cells of a `sluice bench jruby --forks N` run, by a run's place in its JVM.

    scripts/bench-jruby-by-jvm.py STDERR_FILE

STDERR_FILE is what the run printed on standard error (scripts/seed-mmap-harness.sh prints it too). For each chunk
size and writer, the median real seconds of the first, second, ... measured run of each JVM, with the runs
themselves: a row whose first runs are slower than its later ones is still warming up when it is measured.
"""
import re
import statistics
import sys
from collections import defaultdict

if len(sys.argv) != 2:
    sys.exit(__doc__)
cell = None
place = defaultdict(int)
runs = defaultdict(list)
with open(sys.argv[1], encoding="utf-8") as f:
    for line in f:
        m = re.search(r"cached (\d+)k, JVM generation \d+ of \d+", line)
        if m:
            cell, place = int(m.group(1)), defaultdict(int)
            continue
        m = re.match(r"\s+seqwrite\s+cached\s+\d+\s+(\S+)\s+round \d+\s+([\d.]+)s", line)
        if m and cell is not None:
            writer = m.group(1)
            runs[(cell, writer, place[writer])].append(float(m.group(2)))
            place[writer] += 1
if not runs:
    sys.exit("no cached-cell runs from generations of JVMs in " + sys.argv[1] + ": was it run with --forks N > 1?")
for (kib, writer) in sorted({(k, w) for k, w, _ in runs}, key=lambda kw: (kw[0], kw[1])):
    print(f"{kib}k {writer}")
    n = 0
    while (kib, writer, n) in runs:
        r = runs[(kib, writer, n)]
        print(f"  run {n + 1} of its JVM: median {statistics.median(r):.3f} s of {len(r)}: "
              + " ".join(f"{x:.3f}" for x in r))
        n += 1
