package io.sluice;

import java.util.Locale;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

/**
 * AUTO's choice, per read, between a copy out of the mapping and a {@code pread}: one preference per kind of
 * destination (native memory, heap memory) and power-of-two size class, started from {@link AutoThresholds} and then
 * moved by the rates the calls themselves show.
 *
 * <p>Timing every call would cost two clock reads on reads that take a few hundred nanoseconds, so while a class learns
 * about one call in {@value #SAMPLE_EVERY} is timed, and one timed call in {@value #EXPLORE_EVERY} goes the other way,
 * so that the path not taken is still measured. Once the preferred path's cost is known, how often a class is timed
 * follows that cost: a timed read cost several untimed ones among random 512-byte reads (the clock, the record, code
 * and data that untimed reads do not touch), so a settled class of cheap reads is timed once in up to
 * {@code SAMPLE_EVERY << }{@value #MAX_BACKOFF} calls; a class whose reads take long enough that timing one in
 * {@value #SAMPLE_EVERY} is within the budget stays at that rate. Which calls are timed is a countdown per thread
 * (threads share a countdown only when their ids fall in the same of {@value #STRIPES} stripes, which costs a few
 * samples, never a result): an untimed call does one decrement in memory no other thread writes, and draws nothing. The
 * draw, from the dice, is made on a timed call only and gives both whether that call explores and how many calls the
 * next timed one is away (1 to {@value #GAP_SPAN}, {@value #SAMPLE_EVERY} on average; random, so a caller whose reads
 * repeat with a period is not always timed on the same size).
 *
 * <p>An exploring call starts a burst: it and the thread's next calls of the same class, {@value #BURST} in all, go
 * the other way, and only the last is timed. A read that goes the other way once in thousands runs on caches, branch
 * history and kernel state that the steady path does not share: after 4096 mapped copies, the first of four 512-byte
 * preads took 3.0 to 3.1 µs, the fourth 1.5 to 1.6, one in a run of them 1.0 (scripts/LonePreadTiming.java,
 * docs/benchmarks/2026-11-26-deciding-s6-lone-pread.txt). (The 87 µs against 58 that a 1 MiB explored pread showed
 * in docs/benchmarks/2026-11-26-deciding-s5.md were mostly AutoFile's timed pread itself, which made two views of the
 * buffer per call in code a young JVM had not compiled; it now makes the untimed preads' call.) The burst
 * is kept in the thread's countdown stripe, whose countdown stays at 1 meanwhile, so its calls come to the out-of-line
 * timed path and the untimed one stays a read and a decrement. A call of another class during a burst goes its own
 * way untimed; after {@value #BURST_REACH} of those the burst is dropped, its sample lost.
 *
 * <p>Each path keeps, per size class, its last {@value #WINDOW} samples in nanoseconds per byte, and the paths are
 * compared on the second lowest of each one's last <i>m</i> samples, <i>m</i> being the same for both: the smaller
 * of {@value #WINDOW} and either path's count. Timing noise only ever adds time, so a low order statistic is the
 * path's cost; taking it over as many samples on both sides is what makes the comparison fair. The preferred path gets
 * every timed call and the other only the explored ones, and the minimum of many draws is lower than that of a few:
 * a floor kept over all of each path's samples favoured whichever path was preferred, and kept 1 MiB reads on the
 * mapping at 46 µs by its floor where they took 69 µs a read by MMAP and 58 by {@code pread}. The second lowest rather
 * than the lowest, so that no single sample, low or high, moves a class; a window rather than all samples, so that a
 * path that became slower is seen once its last few samples say so. A mean, even a clamped one, let the first samples
 * of a cold start flip small reads to pread for thousands of calls. A class changes its preference only when both
 * paths have at least {@value #MIN_SAMPLES} samples and the other is faster by more than {@value #MARGIN_PERCENT}%,
 * so single outliers (a preempted thread, a page fault) do not flip it, while a lasting change (data falling out of
 * the page cache) does. The other path's samples are older than the preferred one's, since it is timed only when
 * explored, so the change is made on an exploring sample only, and only when that fresh sample too beats the preferred
 * path by the margin: when the preferred path's samples alone say it got slower, the class explores again at once
 * rather than moving. Another load on the machine slows both paths; compared with samples the other path gave before
 * that load, the preferred one looked slower, and 1 MiB reads changed path a dozen times in one bench cell.
 *
 * <p>An exploring call costs what the slower path costs: at 512 bytes a {@code pread} takes several times a mapped
 * copy, so one call in 256 going there took a few percent of the rate. So each exploring sample that finds the other
 * path slower by more than the margin (the sample and the estimate both) halves how often the class explores, down to
 * one timed call in {@code EXPLORE_EVERY << }{@value #MAX_BACKOFF}, or further, up to {@value #MAX_BACKOFF_DEAR}
 * halvings, while the bursts would cost more than {@link #EXPLORE_BUDGET} of the class's time (a burst costs
 * {@value #BURST} reads by the slower path); a sample within the margin, or a change of preference, goes back to one
 * in {@value #EXPLORE_EVERY}. A path that got slower is seen once all but one of its
 * last {@value #WINDOW} samples say so and the next exploring burst, {@value #EXPLORE_EVERY} timed calls away,
 * confirms it; one that got faster within that many timed calls and {@value #EXPLORE_EVERY} more (two samples, each
 * after a burst).
 *
 * <p>The dice and the clock are given, so tests script them. State is shared by all files on one device. What every
 * call reads (the preferences) sits in its own padded array, written only when a preference changes; the samples
 * and the back-off, written on timed calls, are in another object, and each thread's countdown and burst on lines of
 * their own, so a thread recording or counting down does not take from another thread's cache the line that thread
 * reads on every call. Nothing is locked: a stale preference, or a sample lost to a race, costs speed only.
 */
final class AutoChooser {
    static final int NATIVE = 0;
    static final int HEAP = 1;
    static final int PREAD = 0;
    static final int MAP = 1;
    /** Set in {@link #route}'s answer when the call is to be timed and reported to {@link #record}. */
    static final int TIMED = 2;

    static final int SAMPLE_EVERY = 64;
    /**
     * The calls from one timed call to the next are 1 plus the dice's low bits below this (1 to 128) while a class
     * is learning, scaled by the class's {@link Samples#gapShift} once its cost is known.
     */
    static final int GAP_SPAN = 2 * SAMPLE_EVERY;
    private static final int GAP_BITS = Integer.numberOfTrailingZeros(GAP_SPAN);
    /** log2 of {@link #SAMPLE_EVERY}: the gap shift that keeps the dice's gaps as they are. */
    static final int LEARNING_SHIFT = Integer.numberOfTrailingZeros(SAMPLE_EVERY);
    /**
     * What one timed call may cost, spread over the calls up to the next, in nanoseconds of the class's own reads:
     * 200 times the 800 ns a timed read cost above an untimed one among random 512-byte reads of a 512 MiB file
     * (docs/benchmarks/2026-11-26-auto-s3.md), so timing takes about 0.5% of the time a class's reads take: a settled
     * 512-byte class is timed once in 1024 calls, a settled 4 KiB one once in 256.
     */
    static final long TIMING_BUDGET_NANOS = 200 * 800;
    /** Countdowns, one per stripe of thread ids; a power of two. */
    static final int STRIPES = 64;
    /** Ints from one stripe's countdown to the next: 128 bytes, two cache lines, as adjacent lines are fetched in pairs. */
    private static final int STRIPE_INTS = 32;
    /** In a stripe, after its countdown: the calls of the burst's class still to go the other way (0: no burst). */
    private static final int BURST_LEFT = 1;
    /** In a stripe: the burst's kind and size class. */
    private static final int BURST_CLASS = 2;
    /** In a stripe: the path the burst goes by. */
    private static final int BURST_PATH = 3;
    /** In a stripe: the countdown to set when the burst ends, drawn when it started. */
    private static final int BURST_GAP = 4;
    /** In a stripe: how many more calls of other classes the burst waits through. */
    private static final int BURST_WAIT = 5;
    static final int EXPLORE_EVERY = 4;
    static final int MIN_SAMPLES = 4;
    /**
     * Calls of one thread and class in an exploring burst: the first and the next two go the other way untimed, to
     * warm what that path runs on, the fourth is timed.
     */
    static final int BURST = 4;
    /** Calls of other classes a burst waits through before it is dropped: a mean gap between timed calls. */
    static final int BURST_REACH = SAMPLE_EVERY;
    /** The samples kept per path, kind and size class; a power of two. */
    static final int WINDOW = 8;
    /**
     * Counts wrap back by half this, a multiple of {@link #WINDOW}, on reaching it, so that a long-lived class keeps
     * its place in the window and never sees a negative count.
     */
    private static final int COUNT_WRAP = 1 << 30;
    static final int MARGIN_PERCENT = 15;
    /**
     * At most this many halvings of how often a settled class is timed, and of how often it explores (one timed call
     * in 64, one read in 4096 while timing one in 64) unless its bursts are dear ({@link #MAX_BACKOFF_DEAR}).
     */
    static final int MAX_BACKOFF = 4;
    /** At most this many halvings of exploring where a burst of the other path is dear: one timed call in 1024. */
    static final int MAX_BACKOFF_DEAR = 8;
    /**
     * What the exploring bursts of a settled class may cost beyond MAX_BACKOFF, as a share of the time its reads take
     * from one burst to the next: 0.5%, as timing does ({@link #TIMING_BUDGET_NANOS}).
     */
    static final double EXPLORE_BUDGET = 0.005;
    private static final int CLASSES = 32;
    private static final int PAD = 64;

    private final AutoThresholds initial;
    private final boolean adaptive;
    private final IntSupplier dice;
    private final LongSupplier clock;
    /**
     * [PAD + kind * CLASSES + size class]: MAP or PREAD; the one array every read looks at. A cache line of padding
     * on each side keeps whatever the heap puts beside it (the samples are allocated next) off its lines.
     */
    private final byte[] prefer = new byte[PAD + 2 * CLASSES + PAD];
    /** The samples, written by timed reads only. */
    private final Samples samples = new Samples();
    /**
     * [stripe * STRIPE_INTS]: calls left until the thread's next timed one (0 at the start: a thread's first call
     * is timed). Written by every untimed call of an adaptive chooser, each stripe by its own threads.
     */
    private final int[] countdown = new int[STRIPES * STRIPE_INTS];

    /** Per kind, size class and path: the last samples in nanoseconds per byte, and how many there were. */
    private static final class Samples {
        /** [(2 * (kind * CLASSES + size class) + path) * WINDOW + count % WINDOW]: a ring per path and class. */
        final double[] window = new double[2 * CLASSES * 2 * WINDOW];
        final int[] count = new int[2 * CLASSES * 2];
        /** [kind * CLASSES + size class]: how many times exploring was halved; read by timed calls only. */
        final byte[] backoff = new byte[2 * CLASSES];
        /** [kind * CLASSES + size class]: how many times the preference changed (for {@link #describe}). */
        final int[] flips = new int[2 * CLASSES];
        /**
         * [kind * CLASSES + size class]: log2 of the mean number of calls from a timed call of the class to the next
         * timed call; {@link #LEARNING_SHIFT} until the preferred path's cost is known, then what
         * {@link #TIMING_BUDGET_NANOS} allows for that cost, but never denser than learning, never sparser while the
         * class is in doubt, nor more than {@link #MAX_BACKOFF} halvings sparser once settled.
         */
        final byte[] gapShift = new byte[2 * CLASSES];

        Samples() {
            java.util.Arrays.fill(gapShift, (byte) LEARNING_SHIFT);
        }
    }

    /**
     * @param adaptive false when the thresholds are pinned: then the preferences never move and nothing is timed
     * @param dice     a fresh non-negative random int per timed call (ThreadLocalRandom in use, a script in tests):
     *                 its low bits give the calls to the next timed one, the rest whether this one explores
     * @param clock    nanoseconds ({@link System#nanoTime} in use)
     */
    AutoChooser(AutoThresholds initial, boolean adaptive, IntSupplier dice, LongSupplier clock) {
        this.initial = initial;
        this.adaptive = adaptive;
        this.dice = dice;
        this.clock = clock;
        for (int c = 0; c < CLASSES; c++) {
            long top = classTop(c);
            prefer[PAD + NATIVE * CLASSES + c] = (byte) (top <= initial.nativeMapMax() ? MAP : PREAD);
            prefer[PAD + HEAP * CLASSES + c] = (byte) (top <= initial.heapMapMax() ? MAP : PREAD);
        }
    }

    /** The size class of a length: lengths in (2^(c-1), 2^c] share class c. */
    static int sizeClass(long length) {
        int c = 64 - Long.numberOfLeadingZeros(Math.max(1, length) - 1);
        return Math.min(c, CLASSES - 1);
    }

    private static long classTop(int c) {
        return 1L << c;
    }

    /** The thresholds this chooser started from. */
    AutoThresholds initial() {
        return initial;
    }

    /** Now, by the chooser's clock. */
    long now() {
        return clock.getAsLong();
    }

    /** The countdown slot of the thread with id {@code threadId}. */
    static int stripe(long threadId) {
        return ((int) threadId & (STRIPES - 1)) * STRIPE_INTS;
    }

    /**
     * MAP or PREAD for a read of {@code length} bytes into memory of {@code kind}, with {@link #TIMED} added when
     * the caller should time it. Untimed calls, all but one in about {@value #SAMPLE_EVERY}, read one preference and
     * count down; the rest is in {@link #timed}, kept out of line so that what the callers inline stays small.
     */
    int route(int kind, long length) {
        int i = kind * CLASSES + sizeClass(length);
        int p = prefer[PAD + i];
        if (!adaptive) {
            return p;
        }
        int[] left = countdown;
        int s = stripe(Thread.currentThread().threadId());
        int n = left[s];
        if (n > 1) {
            left[s] = n - 1;
            return p;
        }
        return timed(i, p, s);
    }

    /**
     * A call of class {@code i}, preferring {@code p}, whose thread's countdown ran out: the next call of a burst, or
     * a timed call, which draws the next gap and whether it explores. The gap's mean follows the class's cost
     * ({@link Samples#gapShift}): a read that takes 100 ns is timed rarely once its class is settled, since a timed
     * read costs several untimed ones. An exploring call starts a burst and is not timed itself.
     */
    private int timed(int i, int p, int s) {
        int[] stripe = countdown;
        int left = stripe[s + BURST_LEFT];
        if (left > 0) {
            return burst(i, p, s, left);
        }
        int r = dice.getAsInt();
        int gap = 1 + (((r & (GAP_SPAN - 1)) << samples.gapShift[i]) >>> LEARNING_SHIFT);
        if ((r >>> GAP_BITS) % (EXPLORE_EVERY << samples.backoff[i]) != 0) {
            stripe[s] = gap;
            return p | TIMED;
        }
        // The countdown stays at 1 through the burst, so that each of its calls comes back here.
        stripe[s] = 1;
        stripe[s + BURST_CLASS] = i;
        stripe[s + BURST_PATH] = 1 - p;
        stripe[s + BURST_GAP] = gap;
        stripe[s + BURST_WAIT] = BURST_REACH;
        stripe[s + BURST_LEFT] = BURST - 1;
        return 1 - p;
    }

    /** A call of class {@code i}, preferring {@code p}, while its thread's stripe has a burst with {@code left} to go. */
    private int burst(int i, int p, int s, int left) {
        int[] stripe = countdown;
        if (stripe[s + BURST_CLASS] != i) {
            // Interleaved sizes or kinds: the burst waits for its class a while, these calls going their own way.
            int wait = stripe[s + BURST_WAIT] - 1;
            stripe[s + BURST_WAIT] = wait;
            if (wait <= 0) {
                stripe[s + BURST_LEFT] = 0;
                stripe[s] = stripe[s + BURST_GAP];
            }
            return p;
        }
        int path = stripe[s + BURST_PATH];
        if (left > 1) {
            stripe[s + BURST_LEFT] = left - 1;
            return path;
        }
        stripe[s + BURST_LEFT] = 0;
        stripe[s] = stripe[s + BURST_GAP];
        return path | TIMED;
    }

    /** A timed read of {@code length} bytes into {@code kind} memory went by {@code path} and took {@code nanos}. */
    void record(int kind, long length, int path, long nanos) {
        if (length <= 0 || nanos < 0) {
            return;
        }
        int i = kind * CLASSES + sizeClass(length);
        double x = (double) nanos / length;
        Samples s = samples;
        // No lock: two threads recording at once may lose one's sample or count, or both flip the class; either
        // costs a few reads of speed until the next samples, where a lock cost an atomic on every timed read and,
        // with two threads, made one wait for the other.
        int mine = 2 * i + path;
        int n = s.count[mine];
        s.window[mine * WINDOW + (n & (WINDOW - 1))] = x;
        s.count[mine] = n + 1 == COUNT_WRAP ? n + 1 - COUNT_WRAP / 2 : n + 1;
        int p = prefer[PAD + i];
        int preferredCount = s.count[2 * i + p];
        int otherCount = s.count[2 * i + 1 - p];
        if (preferredCount >= MIN_SAMPLES && otherCount >= MIN_SAMPLES) {
            // As many samples on each side, so that neither path looks faster for having been timed more often.
            int m = Math.min(WINDOW, Math.min(preferredCount, otherCount));
            double preferred = estimate(s, 2 * i + p, preferredCount, m);
            double other = estimate(s, 2 * i + 1 - p, otherCount, m);
            boolean otherFaster = other * 100 < preferred * (100 - MARGIN_PERCENT);
            if (path != p && otherFaster && x * 100 < preferred * (100 - MARGIN_PERCENT)) {
                p = 1 - p;
                prefer[PAD + i] = (byte) p;
                s.backoff[i] = 0;
                s.flips[i]++;
            } else if (path != p) {
                // Backs off only when this sample says so too: one that found the other path faster brings the
                // next exploring call near, so that a second such sample can move the estimate.
                boolean clearlySlower = Math.min(x, other) * 100 > preferred * (100 + MARGIN_PERCENT);
                int most = backoffMost(preferred, other, s.gapShift[i]);
                s.backoff[i] = (byte) (clearlySlower ? Math.min(most, s.backoff[i] + 1) : 0);
            } else if (otherFaster) {
                // The other path's samples may be old, from before a load that slowed both: it is looked at again
                // soon, and the class moves only when a sample taken now confirms it.
                s.backoff[i] = 0;
            }
        }
        int own = s.count[2 * i + p];
        s.gapShift[i] = (byte) gapShift(own == 0 ? 0 : estimate(s, 2 * i + p, own, Math.min(WINDOW, own)) * length,
                s.backoff[i]);
    }

    /**
     * The cost of a path in nanoseconds per byte: the second lowest of the last {@code m} (1 to {@link #WINDOW}) of
     * the samples in {@code slot}, which has had {@code count}; the lowest when {@code m} is 1.
     */
    private static double estimate(Samples s, int slot, int count, int m) {
        double[] w = s.window;
        double lowest = Double.POSITIVE_INFINITY;
        double second = Double.POSITIVE_INFINITY;
        for (int k = 1; k <= m; k++) {
            double x = w[slot * WINDOW + ((count - k) & (WINDOW - 1))];
            if (x < lowest) {
                second = lowest;
                lowest = x;
            } else if (x < second) {
                second = x;
            }
        }
        return m == 1 ? lowest : second;
    }

    /**
     * How many times a class may halve its exploring when the preferred path costs {@code preferred} and the other
     * {@code other} (nanoseconds per byte) and it is timed once in {@code 1 << gapShift} calls: {@link #MAX_BACKOFF},
     * or more, up to {@link #MAX_BACKOFF_DEAR}, while a burst would cost more than {@link #EXPLORE_BUDGET} of the
     * reads from one burst to the next. A burst of 512-byte preads costs four times 1.6 to 1.8 µs, against 200 to
     * 400 ns a mapped read (before AutoFile's timed pread took the untimed one's call, explored preads were timed at
     * 20 µs or more, and a burst in 16384 reads cost a few percent of the class's time).
     */
    static int backoffMost(double preferred, double other, int gapShift) {
        double reads = BURST * other / (EXPLORE_BUDGET * preferred);
        int b = MAX_BACKOFF;
        while (b < MAX_BACKOFF_DEAR && (double) ((long) EXPLORE_EVERY << (b + gapShift)) < reads) {
            b++;
        }
        return b;
    }

    /**
     * The gap shift for a class whose preferred path takes {@code nanos} a read (0: not known yet) and that has
     * backed off exploring {@code backoff} times: the mean gap is the largest power of two at which timing stays
     * within {@link #TIMING_BUDGET_NANOS} of the class's reads, at most {@link #LEARNING_SHIFT} plus the back-off, and
     * that no more than {@link #MAX_BACKOFF}.
     */
    static int gapShift(double nanos, int backoff) {
        int most = LEARNING_SHIFT + Math.min(MAX_BACKOFF, backoff);
        if (!(nanos > 0)) {
            return LEARNING_SHIFT;
        }
        double gap = TIMING_BUDGET_NANOS / nanos;
        int shift = gap < 2 ? 0 : 63 - Long.numberOfLeadingZeros((long) Math.min(gap, 1L << 40));
        // Never denser than while learning: timing 1 MiB reads on every other call made the class change path 24
        // times in one bench cell (the path not taken keeps old samples while the taken one's follows the load) and
        // did not bring its rate up (docs/benchmarks/2026-11-26-auto-s4.md).
        return Math.max(LEARNING_SHIFT, Math.min(most, shift));
    }

    /** The path now preferred for {@code length} bytes into {@code kind} memory (for tests and {@code sluice info}). */
    int preferred(int kind, long length) {
        return prefer[PAD + kind * CLASSES + sizeClass(length)];
    }

    /**
     * What the chooser has learned, for people: per kind and size class with timed reads, the path preferred now, each
     * path's estimate (the second lowest of its last {@value #WINDOW} samples) as nanoseconds for a read of the
     * class's top size and its number of samples, how many times the preference changed and how often the class
     * explores (a burst of {@value #BURST} reads in so many); or that nothing was timed yet.
     */
    String describe() {
        if (!adaptive) {
            return "pinned, nothing timed";
        }
        StringBuilder b = new StringBuilder();
        Samples s = samples;
        for (int kind = NATIVE; kind <= HEAP; kind++) {
            for (int c = 0; c < CLASSES; c++) {
                int i = kind * CLASSES + c;
                int maps = s.count[2 * i + MAP];
                int preads = s.count[2 * i + PREAD];
                if (maps + preads == 0) {
                    continue;
                }
                if (!b.isEmpty()) {
                    b.append("; ");
                }
                long top = classTop(c);
                b.append(kind == NATIVE ? "native " : "heap ").append(Engine.bytes(top)).append(": ")
                        .append(prefer[PAD + i] == MAP ? "map" : "pread")
                        .append(" (map ").append(estimateText(s, 2 * i + MAP, top)).append(" n=").append(maps)
                        .append(", pread ").append(estimateText(s, 2 * i + PREAD, top)).append(" n=").append(preads)
                        .append(", ").append(s.flips[i]).append(s.flips[i] == 1 ? " change" : " changes")
                        .append(", explores ").append(BURST).append(" reads in ").append((EXPLORE_EVERY << s.backoff[i]) << s.gapShift[i])
                        .append(", times 1 in ").append(1 << s.gapShift[i])
                        .append(')');
            }
        }
        return b.isEmpty() ? "nothing timed yet" : b.toString();
    }

    private static String estimateText(Samples s, int slot, long top) {
        int n = s.count[slot];
        return n == 0 ? "-" : String.format(Locale.ROOT, "%.0f ns", estimate(s, slot, n, Math.min(WINDOW, n)) * top);
    }

    /** The largest read that now goes through the mapping for {@code kind}: the top of the highest size class that prefers it, or 0. */
    long mapMax(int kind) {
        for (int c = CLASSES - 1; c >= 0; c--) {
            if (prefer[PAD + kind * CLASSES + c] == MAP) {
                return classTop(c);
            }
        }
        return 0;
    }
}
