#!/usr/bin/env python3
"""Pools the runs of one or more scripts/seed-mmap-harness.sh logs (each its standard error) and prints, for each
chunk size, Sluice::MappedWriter / MmapFileExt unboxed unsafe on an existing file by medians of every run in them,
with a 95% bootstrap interval, in the post's harness and in `sluice bench jruby`, and how far the two agree.

    scripts/seed-mmap-pool.py LOG...

On a noisy machine one run of the harness script gives each row 9 or 15 runs a cell, and their medians move by more
than the 10% the two harnesses are asked to agree within; the interval says how far. Logs of the same commands
(the same --size and --heap) can be pooled: every run is one sample of the same two writers.

Logs say which protocol the harness script ran the post's rows by (its --protocol; logs from before the option
say nothing and were the post's Rakefile order, nothing flushed between rows: rakefile). Runs of different protocols
are not samples of the same thing, so logs of both are refused.

Then the same ratio paired by round: in each round of either harness the rows run one after another, so the median
of the rounds' own ratios leaves out what the machine did between rounds (as a slower minute of a shared host) and
keeps only what it did between the two passes.

Then the post's measured passes of the two writers by the row whose JVM ran just before (the harness script's settled
rounds take the rows in a Williams order, so that each follows every other equally often; before that order, in
turn, Sluice::MappedWriter almost always ran right after MmapFileExt).

Then the new-file runs of `sluice bench jruby` alone: the same ratio, each row's median seconds by the row whose
run came just before it (on a VM that hands free memory back to its host, a new file's cost depends on what the
delete before it freed; docs/jruby.md), and each row's runs split in two: those within FAST_MODE of the cell's fastest
run and the rest. On this VM a new 2,000 MB file took either about 0.5 s or 1 to 2.6 s, whichever writer wrote it
(docs/benchmarks/2026-11-28-s18.md), so a cell's median ratio says mostly how many runs of each row drew the slow case.
Where the logs give it, each case's median time from the delete to the timing is printed beside it.
"""
import random
import re
import statistics
import sys

# One measured pass of the post's harness: row, KiB per String, seconds. Logs from before --protocol lack the MiB.
POST = re.compile(r"\s+round \d+\s+new file\s+\S+\s+(?:written back\s+\S+ MiB\s+)?\|\s+(.*?), (\d+)k "
                  r".*\(\s*([\d.]+)\)\s*$")
# One timed run of ours: file kind, bytes per String, row, round (empty for the rehearsal), seconds.
OURS = re.compile(r"\s+seqwrite\s+(cached|new|rewritten)\s+(\d+)\s+(\S+)\s+(?:round (\d+)|rehearsal)\s+([\d.]+)s real")
# Where ours' progress line gives it (logs from 2026-11-28 on), how long after the delete a new-file run's timing began.
SINCE = re.compile(r"\s+seqwrite\s+new\s+(\d+)\s+(\S+)\s+round \d+\s+([\d.]+)s real.*\s([\d.]+)s after the delete$")
FASTEST = {"post": "java MmapFileExt, unboxed, unsafe"}
FASTEST["ours"] = FASTEST["ours-new"] = FASTEST["ours-cached"] = "MmapFileExt-unboxed-unsafe"
WRITER = dict.fromkeys(FASTEST, "Sluice::MappedWriter")
RESAMPLES = 2000


def matched(paths, pattern):
    """For each log in turn, its lines that match pattern, in order."""
    for path in paths:
        with open(path) as f:
            yield [m for m in map(pattern.match, f) if m]


def after(paths):
    """Seconds of ours' timed new-file runs, by (KiB, row, the row whose run came just before, rehearsals included)."""
    runs = {}
    for log in matched(paths, OURS):
        before = None
        for m in log:
            kind, chunk, row = m.group(1), int(m.group(2)), m.group(3)
            if kind == "new" and before and before[0] == chunk and m.group(4):
                runs.setdefault((chunk // 1024, row, before[1]), []).append(float(m.group(5)))
            before = (chunk, row) if kind == "new" else None
    return runs


def post_after(paths):
    """Seconds of the post's measured passes, by (KiB, row, the row whose JVM ran just before: None for a log's
    first)."""
    runs = {}
    for log in matched(paths, POST):
        before = None
        for m in log:
            runs.setdefault((int(m.group(2)), m.group(1), before), []).append(float(m.group(3)))
            before = m.group(1)
    return runs


SHORT = {FASTEST["post"]: "MmapFileExt", WRITER["post"]: "MappedWriter",
         "MmapFileExt through the row adapter": "MmapFileExt adapted",
         "Sluice::MappedWriter reopened at seek": "MappedWriter reopened"}


def by_predecessor(by, keys, label, digits, short=None, prevs=None):
    """A table of median seconds (runs) from {(key..., the row just before): seconds}: a line per key, a column per
    row in prevs (by default, every row that came just before); rows named as in short, where it has them."""
    short = short or {}
    prevs = prevs or sorted({k[-1] for k in by if k[-1] is not None})
    print(label)
    print("%-28s %s" % ("", " ".join("%-24s" % ("after " + short.get(r, r))[:24] for r in prevs)))
    for key in keys:
        cells = []
        for prev in prevs:
            t = [x for k, v in by.items() if k[:-1] == key and k[-1] == prev for x in v]
            cells.append("%-24s" % ("%.*f (%d)" % (digits, statistics.median(t), len(t)) if t else "-"))
        print("%-28s %s" % (" ".join(short.get(x, x) for x in key), " ".join(cells)))


def read(rounds):
    """Seconds per run, by (harness, KiB, row), each row's in the order of the logs, from paired(paths)."""
    runs = {}
    for (harness, kib, _, _), rows in rounds.items():
        for row, seconds in rows.items():
            runs.setdefault((harness, kib, row), []).append(seconds)
    return runs


ROUND = re.compile(r"\s+round (\d+)\s")


def paired(paths):
    """Each round's passes: {(harness, KiB, log, round): {row: seconds}}, the harness "post", "ours" (the rewritten
    cells, which time what the post's measured pass does; in logs from before them, the cached cells),
    "ours-cached" (the cached cells, in logs that have rewritten ones) or "ours-new" (rehearsals left out). In a
    round of the post's harness the rows' JVMs run one after another, and in one of ours the rows' runs do, so a
    round's passes saw the machine at nearly the same time."""
    rounds = {}
    for i, path in enumerate(paths):
        names = {"new": "ours-new", "cached": "ours-cached" if rewritten(path) else "ours", "rewritten": "ours"}
        with open(path) as f:
            for line in f:
                m = POST.match(line)
                if m:
                    key = ("post", int(m.group(2)), i, int(ROUND.match(line).group(1)))
                    rounds.setdefault(key, {})[m.group(1)] = float(m.group(3))
                    continue
                m = OURS.match(line)
                if m and m.group(4):
                    harness = names[m.group(1)]
                    key = (harness, int(m.group(2)) // 1024, i, int(m.group(4)))
                    rounds.setdefault(key, {})[m.group(3)] = float(m.group(5))
    return rounds




def ratio(fastest, writer):
    # Seconds per pass of the same bytes: the writer's MB/s over the fastest's is the fastest's time over the writer's.
    return statistics.median(fastest) / statistics.median(writer)


def resampled(fastest, writer, rng):
    """The ratio of one bootstrap resample: each row's runs drawn again, as many, with replacement."""
    return ratio(rng.choices(fastest, k=len(fastest)), rng.choices(writer, k=len(writer)))


def interval(draw):
    r = sorted(draw() for _ in range(RESAMPLES))
    return r[int(0.025 * RESAMPLES)], r[int(0.975 * RESAMPLES) - 1]


def paired_cell(ratios, rng):
    """The median of the rounds' ratios, its interval (the rounds drawn again) and the number of rounds."""
    lo, hi = interval(lambda: statistics.median(rng.choices(ratios, k=len(ratios))))
    return statistics.median(ratios), lo, hi, len(ratios)


def cell(fastest, writer, rng):
    """The ratio, its interval and the fewer runs of the two rows, as the tables print them."""
    lo, hi = interval(lambda: resampled(fastest, writer, rng))
    return ratio(fastest, writer), lo, hi, min(len(fastest), len(writer))


CELL = "%.2f (%.2f-%.2f), %d runs"

# A run within this factor of its cell's fastest run (of either row) is in the cell's fast case.
FAST_MODE = 1.25


def since_delete(paths):
    """{(KiB, row): [(seconds of the run, seconds from the delete to its timing)]} of ours' measured new-file runs."""
    gaps = {}
    for log in matched(paths, SINCE):
        for m in log:
            gaps.setdefault((int(m.group(1)) // 1024, m.group(2)), []).append((float(m.group(3)), float(m.group(4))))
    return gaps


def modes(runs, harness, gaps=None):
    """Lines per chunk size and row of one of ours' cells: the fastest run, the median of the runs in the fast case
    (and how many) and of the rest, then the fast cases' ratio of the two writers. With gaps (since_delete), each
    case's median seconds from the delete to the timing too."""
    gaps = gaps or {}

    def gap(pairs, in_case):
        g = [since for seconds, since in pairs if in_case(seconds)]
        return "%.3f" % statistics.median(g) if g else "-"

    lines = []
    for kib in sorted({k for h, k, _ in runs if h == harness}):
        rows = [(r, runs.get((harness, kib, r))) for r in (FASTEST[harness], WRITER[harness])]
        if not all(t for _, t in rows):
            continue
        best = min(min(t) for _, t in rows)

        def quick_one(seconds):
            return seconds <= FAST_MODE * best

        fast = {}
        for row, t in rows:
            quick = [x for x in t if quick_one(x)]
            slow = [x for x in t if not quick_one(x)]
            fast[row] = quick
            line = "%-6s %-28s %6.3f   %6s (%2d of %2d)   %6s" % (
                "%dk" % kib, row, min(t), "%.3f" % statistics.median(quick) if quick else "-", len(quick), len(t),
                "%.3f" % statistics.median(slow) if slow else "-")
            if gaps:
                pairs = gaps.get((kib, row), [])
                line += "   %5s / %5s" % (gap(pairs, quick_one), gap(pairs, lambda x: not quick_one(x)))
            lines.append(line)
        if all(fast.values()):
            lines.append("%-6s %-28s %.2f" % ("", "MappedWriter / MmapFileExt", ratio(*fast.values())))
    return lines


def uncompared(runs, harness, rng):
    """A line per chunk size of the ratio in one of ours' other cells, which the post's harness has no pass for."""
    lines = []
    for kib in sorted({k for h, k, _ in runs if h == harness}):
        fastest, writer = runs.get((harness, kib, FASTEST[harness])), runs.get((harness, kib, WRITER[harness]))
        if fastest and writer:
            lines.append("%-6s " % ("%dk" % kib) + CELL % cell(fastest, writer, rng))
    return lines


PROTOCOL = re.compile(r"protocol: (\S+)$")


def protocol(path):
    """The harness script's --protocol for a log: its "protocol:" line, or rakefile (the order before the option)."""
    with open(path) as f:
        for line in f:
            m = PROTOCOL.match(line)
            if m:
                return m.group(1)
    return "rakefile"


def rewritten(path):
    """Whether a log has `sluice bench jruby`'s rewritten cells (and the post's harness's Sluice::MappedWriter row
    seeking as its own writer): logs from before them timed ours over a cached file, and our row in the post's
    harness reopened at seek."""
    with open(path) as f:
        return any(m and m.group(1) == "rewritten" for m in map(OURS.match, f))


def main(paths):
    if not paths:
        sys.exit(__doc__.split("\n\n")[1].strip())
    kinds = {p: protocol(p) for p in paths}
    if len(set(kinds.values())) > 1:
        sys.exit("logs of different protocols, not pooled: " + ", ".join("%s (%s)" % kv for kv in kinds.items()))
    newer = {p: rewritten(p) for p in paths}
    if len(set(newer.values())) > 1:
        sys.exit("logs with and without sluice bench jruby's rewritten cells, not pooled: "
                 + ", ".join("%s (%s)" % (p, "rewritten" if r else "cached only") for p, r in newer.items()))
    rounds = paired(paths)
    runs = read(rounds)
    rng = random.Random(42)  # the same logs give the same intervals
    lines = []
    for kib in sorted({k for _, k, _ in runs}):
        cells, pairs = {}, {}
        for h in ("post", "ours"):
            fastest, writer = runs.get((h, kib, FASTEST[h])), runs.get((h, kib, WRITER[h]))
            if fastest and writer:
                pairs[h] = (fastest, writer)
                cells[h] = cell(fastest, writer, rng)
        if not cells:
            continue
        text = [CELL % cells[h] if h in cells else "-" for h in ("post", "ours")]
        agree = "-"
        if len(cells) == 2:
            lo, hi = interval(lambda: resampled(*pairs["post"], rng) / resampled(*pairs["ours"], rng))
            agree = "%.2f (%.2f-%.2f)" % (cells["post"][0] / cells["ours"][0], lo, hi)
        lines.append("%-6s %-30s %-30s %s" % ("%dk" % kib, text[0], text[1], agree))
    if not lines:
        sys.exit("no runs of both writers in %s: not logs of scripts/seed-mmap-harness.sh" % ", ".join(paths))
    print("Sluice::MappedWriter / MmapFileExt unboxed unsafe (the post's fastest), existing file, from %d log(s),"
          " protocol %s:" % (len(paths), kinds[paths[0]]))
    print("medians of every run in them (runs per row), 95%% bootstrap interval (%d resamples of each row's runs)"
          % RESAMPLES)
    ours = "sluice bench jruby" + (" (rewritten)" if newer[paths[0]] else " (cached)")
    print("%-6s %-30s %-30s %s" % ("", "the post's harness", ours, "agreement (post / ours)"))
    print("\n".join(lines))
    other = uncompared(runs, "ours-cached", rng)
    if other:
        print("over a file already written, each writer made for it (sluice bench jruby's cached cells):")
        print("\n".join(other))
    # The same ratio round by round: a slow minute of the machine then costs both passes of a round.
    lines = []
    for kib in sorted({k for h, k, _, _ in rounds if h in ("post", "ours")}):
        text = []
        for h in ("post", "ours"):
            ratios = [v[FASTEST[h]] / v[WRITER[h]] for (hh, k, _, _), v in sorted(rounds.items())
                      if hh == h and k == kib and FASTEST[h] in v and WRITER[h] in v]
            text.append(CELL.replace("runs", "rounds") % paired_cell(ratios, rng) if ratios else "-")
        lines.append("%-6s %-30s %s" % ("%dk" % kib, text[0], text[1]))
    print("the same, paired by round: the median of each round's ratio of the two writers' passes (rounds),")
    print("95%% bootstrap interval (%d resamples of the rounds)" % RESAMPLES)
    print("\n".join(lines))
    # What the row before left (the memory its JVM and its files freed) can decide a pass: by that row.
    before = post_after(paths)
    keys = [("%dk" % kib, row) for kib in sorted({k for k, _, _ in before}) for row in (FASTEST["post"], WRITER["post"])
            if any(k == kib and r == row for k, r, _ in before)]
    by_predecessor({("%dk" % k, r, p): v for (k, r, p), v in before.items()}, keys, "the post's harness, measured "
                   "pass, median seconds (runs) by the row whose JVM ran just before:", 3, SHORT)
    # New files in ours only: the post's new-file pass is its rehearsal, which is not compared (docs/jruby.md).
    fresh = uncompared(runs, "ours-new", rng)
    if fresh:
        print("new file, sluice bench jruby (the post's new-file pass, its rehearsal, is not compared):")
        print("\n".join(fresh))
        # What a new-file run costs depends on what the run before it left freed (docs/jruby.md): by that row.
        by = {}
        for (_, row, prev), v in after(paths).items():
            by.setdefault((row, prev), []).extend(v)
        rows = sorted({r for r, _ in by} | {p for _, p in by})
        by_predecessor(by, [(r,) for r in rows], "new file, sluice bench jruby, median seconds (runs) by the row that "
                       "wrote the file just before, all chunk sizes:", 2, prevs=rows)
        print("new file, sluice bench jruby, seconds: each row's fastest run; the median of its runs within %.2fx of"
              % FAST_MODE)
        print("the cell's fastest (how many); the median of the rest. Then MappedWriter / MmapFileExt in the fast case")
        gaps = since_delete(paths)
        print("%-6s %-28s %6s   %-16s   %s%s" % ("", "", "best", "fast case", "slow case",
                                               "   s from the delete, fast / slow" if gaps else ""))
        print("\n".join(modes(runs, "ours-new", gaps)))


if __name__ == "__main__":
    main(sys.argv[1:])
