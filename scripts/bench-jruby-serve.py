#!/usr/bin/env python3
"""Drives one served writer JVM of `sluice bench jruby` by hand, step by step, and prints each timed run.

    scripts/bench-jruby-serve.py WRITER [--heap SIZE|0] [--size BYTES] [--chunk BYTES] [--dir DIR] [--perf DIR]
                                 STEP...

WRITER is a row's JSON name (Sluice::MappedWriter, MmapFileExt-unboxed-unsafe, ...). The JVM is the one the bench
starts for that row (bench.rb --serve, the jars ./sluice built), warmed up as the bench warms it; the steps are:

    prepare   the cached cells' file written in full (by Sluice::MappedWriter) and read into the page cache
    run       one timed run over the cached file: "run cached CHUNK N", printed as real, user and system seconds
    new       one timed run to a new file: "run new CHUNK N" (the previous file flushed and deleted, untimed, first)
    rewritten one run of the seed's harness's two passes: "run rewritten CHUNK N" (the file deleted, written once
              untimed, then the writer's seek(0) and the writes again, timed)
    sleepN    N seconds of nothing

--heap gives the JVM a fixed heap touched at its start, as `bench jruby --heap` does (default 1g; 0: the JVM's own
sizing); more JVM options go in SLUICE_SERVE_JAVA_OPTS (e.g. -Xlog:gc:file=gc.log). --perf DIR records each run
system-wide with `perf record -e cpu-clock` into DIR/run-N.data, so that where a slow run's time went can be read
with `perf report --comm java`. Each run also prints the /proc/vmstat counters of
page migration, compaction, reclaim and faults that moved during it.

It is how the runs behind docs/benchmarks/2026-11-27-heap-s9.md were made: the same JVM over the same cached file, one
run after another, without the other rows in between.
"""
import argparse
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COUNTERS = ("migrat", "compact", "thp_", "pgsteal", "pgscan", "pgfault", "pgmajfault", "workingset_refault")


def java():
    """A JDK 22+ as the launcher finds one: JAVA_HOME, else the usual JVM directories."""
    candidates = [os.environ.get("JAVA_HOME", "")] + sorted(
        (os.path.join("/usr/lib/jvm", d) for d in os.listdir("/usr/lib/jvm")) if os.path.isdir("/usr/lib/jvm") else [],
        reverse=True)
    for home in candidates:
        exe = os.path.join(home, "bin", "java")
        if home and os.access(exe, os.X_OK):
            out = subprocess.run([exe, "-version"], capture_output=True, text=True).stderr
            m = re.search(r'version "(\d+)', out)
            if m and int(m.group(1)) >= 22:
                return exe
    sys.exit("no JDK 22+ in JAVA_HOME or /usr/lib/jvm")


def class_path():
    # The launcher builds the jars when the sources changed since, so the JVM runs what the checkout holds.
    subprocess.run([os.path.join(HERE, "sluice"), "--version"], check=True, stdout=subprocess.DEVNULL)
    target = os.path.join(HERE, "sluice-cli", "target")
    jars = [os.path.join(target, "jruby", "jruby-complete-10.0.6.0.jar")] + [
        os.path.join(target, "lib", j + ".jar")
        for j in ("sluice-bench", "sluice-jruby", "sluice-core", "sluice-db", "sluice-maf", "h2-mvstore")]
    missing = [j for j in jars if not os.path.isfile(j)]
    if missing:
        sys.exit("not built: %s (./sluice --version should have built them)" % ", ".join(missing))
    return ":".join(jars)


def vmstat():
    with open("/proc/vmstat") as f:
        return {k: int(v) for k, v in (line.split() for line in f)}


def main():
    p = argparse.ArgumentParser(usage=__doc__.split("\n\n")[1])
    p.add_argument("writer")
    p.add_argument("steps", nargs="+")
    p.add_argument("--heap", default="1g")
    p.add_argument("--size", type=int, default=2097152000)
    p.add_argument("--chunk", type=int, default=1024)
    p.add_argument("--dir", default="/tmp")
    p.add_argument("--perf")
    a = p.parse_args()
    for s in a.steps:
        if not (s in ("prepare", "run", "new", "rewritten") or re.fullmatch(r"sleep\d+(\.\d+)?", s)):
            sys.exit("unknown step %r: prepare, run, new or sleepN" % s)
    if not re.fullmatch(r"\d+[kmg]?", a.heap):
        sys.exit("--heap takes a size such as 512m or 1g, or 0: %s" % a.heap)
    heap = [] if re.fullmatch(r"0+[kmg]?", a.heap) else ["-Xms" + a.heap, "-Xmx" + a.heap, "-XX:+AlwaysPreTouch"]
    extra = os.environ.get("SLUICE_SERVE_JAVA_OPTS", "").split()
    command = [java(), "--enable-native-access=ALL-UNNAMED", "-Xss2m"] + heap + extra + [
        "-cp", class_path(), "org.jruby.Main", "-e",
        "load 'uri:classloader:/io/sluice/bench/jruby/bench.rb'; SluiceBench.main(ARGV)", "--",
        "--size", str(a.size), "--chunk-sizes", str(a.chunk), "--rounds", "1", "--dir", os.path.abspath(a.dir),
        "--writes", "true", "--reads", "false", "--writers", a.writer, "--serve", "true"]
    print("#", " ".join(command), flush=True)
    jvm = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def answer():
        lines = []
        for line in jvm.stdout:
            if line.strip() == "done":
                return lines
            lines.append(line)
        sys.exit("the JVM ended (exit %s)" % jvm.wait())

    def step(text):
        jvm.stdin.write(text + "\n")
        jvm.stdin.flush()
        return answer()

    answer()
    run = 0
    try:
        for s in a.steps:
            if s == "prepare":
                step("prepare %d" % a.chunk)
                print("prepared", flush=True)
            elif s.startswith("sleep"):
                time.sleep(float(s[5:]))
            else:
                perf = None
                if a.perf:
                    os.makedirs(a.perf, exist_ok=True)
                    perf = subprocess.Popen(["perf", "record", "-q", "-e", "cpu-clock", "-F", "4000", "-a", "-o",
                                             os.path.join(a.perf, "run-%d.data" % run)], stderr=subprocess.DEVNULL)
                    time.sleep(1)
                before = vmstat()
                lines = step("run %s %d %d" % (s if s in ("new", "rewritten") else "cached", a.chunk, run))
                after = vmstat()
                if perf:
                    perf.send_signal(2)
                    perf.wait()
                for line in lines:
                    if line.startswith("sample"):
                        f = line.rstrip("\n").split("\t")
                        moved = " ".join("%s=%d" % (k, after[k] - before.get(k, 0)) for k in sorted(after)
                                         if k.startswith(COUNTERS) and after[k] != before.get(k, 0))
                        print("%s %d  %s s real  %s user  %s system  | %s" % (s, run, f[8], f[9], f[10], moved),
                              flush=True)
                run += 1
        step("delete")
    finally:
        jvm.stdin.close()
        jvm.wait()


if __name__ == "__main__":
    main()
