package io.sluice.chunks;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Finds the chunk size at which the caller consumes a file fastest, end to end, while it reads: the seed's wish
 * ("start at 128 KiB, vary it both ways, track the rates") as a policy.
 *
 * <p>How it moves:
 * <ul>
 *   <li><b>First guess</b> from the machine ({@link DeviceHints#firstGuess}), or the size given. The first window
 *       is read at it and only measured, so the start of a run (a cold file's first reads, a new buffer's first page
 *       faults) weighs on no comparison.</li>
 *   <li><b>Windows.</b> Chunks are grouped into windows of at least {@value #WINDOW_CHUNKS} chunks and the window
 *       time (8 ms by default); a window's rate is the bytes the caller consumed over the time it took, the caller's
 *       own work included.</li>
 *   <li><b>Trials in powers of two.</b> To try a neighbour size it alternates windows of the candidate and of the
 *       current size, so a drift in the machine's speed hits both alike, and compares each pair. The noise is the
 *       median window-to-window change at the current size (or of the candidate's windows, if larger); the margin a
 *       candidate must beat is twice that, at least 2% and at most 25%. Growing is accepted when {@value #NEED_UP}
 *       pairs beat the margin and so does the lower median of all pairs; shrinking needs {@value #NEED_DOWN} (grow
 *       fast, shrink slowly). Lower and upper medians keep one wild pair (a pause in one window) from deciding. A
 *       candidate clearly worse is dropped after one or two pairs, one not clearly better after
 *       {@value #EXTRA_PAIRS} more than needed.</li>
 *   <li><b>Exploring.</b> It tries larger first and keeps going that way while it wins; if the first step up loses it
 *       tries smaller instead. Then, when the reader can read ahead, it tries read-ahead on against off the same
 *       way ({@value #NEED_AHEAD} pairs), and settles.</li>
 *   <li><b>Settled.</b> It keeps measuring. When each of the last three windows differs from the median of the ones
 *       before by more than 15% (or four times the noise), the same way, the workload or the cache changed: it
 *       explores again at once.
 *       Otherwise it probes every {@value #FIRST_PROBE} windows, twice as long after each probe that found nothing
 *       (up to {@value #LAST_PROBE}), and from {@value #FIRST_PROBE} again after one that moved.</li>
 *   <li><b>Transitions.</b> The first chunk after a change is not measured when it had to allocate a larger buffer
 *       or when read-ahead is on (a chunk read ahead was of the old setting).</li>
 * </ul>
 *
 * <p>Deterministic for a given clock and sequence of reports: tests drive it with a fake clock. {@link #trace()}
 * holds the last 1024 windows with each decision and its reason. Not thread-safe; one reader at a time.
 *
 * {@snippet :
 * AdaptivePolicy policy = AdaptivePolicy.forFile(path);
 * try (ChunkedReader r = ChunkedReader.open(path, policy)) {
 *     for (MemorySegment chunk; (chunk = r.next()) != null; ) {
 *         parser.feed(chunk);
 *     }
 * }
 * System.err.println(policy);                     // adaptive 256 KiB (settled), first guess 4 MiB: device ...
 * policy.trace().forEach(System.err::println);    // #12   256 KiB        812.4 MB/s  accept 256 KiB ...
 * }
 */
public final class AdaptivePolicy implements ChunkPolicy {
    /** The smallest size tried by default. */
    public static final int DEFAULT_MIN_SIZE = 16 << 10;
    /** The largest size tried by default (the seed's original chunk). */
    public static final int DEFAULT_MAX_SIZE = 8 << 20;
    /** The shortest window by default: long enough that timer and scheduling jitter are small against it. */
    public static final long DEFAULT_WINDOW_NANOS = 8_000_000;

    static final int WINDOW_CHUNKS = 2;
    static final double MIN_GAIN = 0.02;
    static final double MAX_MARGIN = 0.25;
    static final double SHIFT = 0.15;
    static final int NEED_UP = 2;
    static final int NEED_DOWN = 3;
    static final int NEED_AHEAD = 3;
    static final int EXTRA_PAIRS = 2;
    static final int FIRST_PROBE = 16;
    static final int LAST_PROBE = 1024;
    private static final double DEFAULT_NOISE = 0.05;

    private enum Move { UP, DOWN, AHEAD }

    private final int minShift;
    private final int maxShift;
    private final Windows windows;
    private final String origin;

    /** The accepted setting. */
    private int shift;
    private boolean ahead;
    private boolean aheadAvailable;
    private boolean started;
    /** The largest size handed to the current reader: a larger one makes it allocate first. */
    private int biggestShift;
    /** Whether the next reported chunk goes unmeasured. */
    private boolean skip;

    /** The trial under way, or null when settled. */
    private Move move;
    private int candShift;
    private boolean candAhead;
    private boolean onCandidate;
    private double candRate = Double.NaN;
    private final double[] ratios = new double[NEED_DOWN + EXTRA_PAIRS];
    private int pairs;
    /** Window-to-window changes of the candidate in this trial: its noise may differ from the accepted size's. */
    private final double[] candDiffs = new double[NEED_DOWN + EXTRA_PAIRS];
    private int candDiffCount;
    private double previousCandRate = Double.NaN;
    private boolean movedThisRound;
    private boolean aheadTriedThisRound;

    /** Settled windows at the accepted setting, oldest first. */
    private final double[] settled = new double[11];
    private int settledCount;
    private long sinceProbe;
    private long probeEvery = FIRST_PROBE;

    /** Window-to-window changes at the accepted setting, |ln(r / previous r)|, the last few. */
    private final double[] diffs = new double[17];
    private int diffCount;
    private double previousRate = Double.NaN;

    private AdaptivePolicy(int initial, int minSize, int maxSize, long windowNanos, LongSupplier nanoTime,
                           String origin) {
        if (!isPowerOfTwo(minSize) || !isPowerOfTwo(maxSize) || minSize > maxSize || maxSize > (1 << 30)) {
            throw new IllegalArgumentException("min and max size must be powers of two, min <= max <= 1 GiB: "
                    + minSize + ", " + maxSize);
        }
        if (initial < 1) {
            throw new IllegalArgumentException("initial size must be positive: " + initial);
        }
        this.minShift = Integer.numberOfTrailingZeros(minSize);
        this.maxShift = Integer.numberOfTrailingZeros(maxSize);
        this.shift = Math.clamp(31 - Integer.numberOfLeadingZeros(initial), minShift, maxShift);
        this.windows = new Windows(nanoTime, windowNanos, WINDOW_CHUNKS);
        this.origin = origin;
    }

    /**
     * A policy starting from what the machine says about {@code file}'s device ({@link DeviceHints}), between
     * {@value #DEFAULT_MIN_SIZE} bytes and {@value #DEFAULT_MAX_SIZE} bytes, on the system clock.
     */
    public static AdaptivePolicy forFile(Path file) {
        DeviceHints hints = DeviceHints.of(file);
        int guess = hints.firstGuess(DEFAULT_MIN_SIZE, DEFAULT_MAX_SIZE);
        return new AdaptivePolicy(guess, DEFAULT_MIN_SIZE, DEFAULT_MAX_SIZE, DEFAULT_WINDOW_NANOS, System::nanoTime,
                "first guess " + ChunkTrace.formatSize(guess) + " from " + hints.describe());
    }

    /** A policy starting from {@code initial} bytes (rounded down to a power of two), with the default range. */
    public static AdaptivePolicy startingAt(int initial) {
        return of(initial, DEFAULT_MIN_SIZE, DEFAULT_MAX_SIZE, DEFAULT_WINDOW_NANOS, System::nanoTime);
    }

    /**
     * A policy with every setting given.
     *
     * @param initial     the first size, rounded down to a power of two and kept within {@code [minSize, maxSize]}
     * @param minSize     the smallest size it may choose, a power of two
     * @param maxSize     the largest, a power of two up to 1 GiB
     * @param windowNanos the shortest measurement window
     * @param nanoTime    the clock, as {@link System#nanoTime}; tests pass a fake one
     * @throws IllegalArgumentException for sizes that are not powers of two or out of order, or a window under 1 ns
     */
    public static AdaptivePolicy of(int initial, int minSize, int maxSize, long windowNanos, LongSupplier nanoTime) {
        return new AdaptivePolicy(initial, minSize, maxSize, windowNanos, nanoTime,
                "first guess " + ChunkTrace.formatSize(initial) + " given");
    }

    private static boolean isPowerOfTwo(int v) {
        return v > 0 && (v & (v - 1)) == 0;
    }

    // ---------------------------------------------------------------- ChunkPolicy

    @Override
    public int start(boolean readAheadAvailable) {
        this.aheadAvailable = readAheadAvailable;
        windows.restart();
        started = true;
        // A new reader allocates its buffer with its first chunk.
        biggestShift = activeShift();
        skip = true;
        return activeSize();
    }

    @Override
    public int next(long bytes) {
        if (skip) {
            skip = false;
            windows.skip();
            return activeSize();
        }
        if (!windows.add(bytes)) {
            return activeSize();
        }
        int size = activeSize();
        boolean ra = activeAhead();
        double rate = windows.rate();
        String note = windows.count() == 0 ? opening(rate) : onWindow(rate);
        windows.close(size, ra, note);
        int nextShift = activeShift();
        boolean nextAhead = activeAhead();
        if (nextShift != Integer.numberOfTrailingZeros(size) || nextAhead != ra) {
            if (nextShift > biggestShift || nextAhead || ra) {
                skip = true;
            }
            biggestShift = Math.max(biggestShift, nextShift);
        }
        return activeSize();
    }

    @Override
    public boolean readAhead() {
        return aheadAvailable && activeAhead();
    }

    /** The size it settled on, or holds while it tries another. */
    @Override
    public int size() {
        return 1 << shift;
    }

    @Override
    public List<ChunkTrace> trace() {
        return windows.trace();
    }

    /** Whether read-ahead is part of the accepted setting. */
    public boolean readAheadChosen() {
        return ahead;
    }

    /** Whether it is settled now, rather than trying a candidate. */
    public boolean isSettled() {
        return started && move == null;
    }

    /** Where the first guess came from: {@code "first guess 4 MiB from device 254:0 vda, ..."}. */
    public String origin() {
        return origin;
    }

    /** {@code "adaptive 256 KiB (settled), first guess ..."}. */
    @Override
    public String toString() {
        String state = !started ? "not started" : move == null ? "settled"
                : "trying " + (move == Move.AHEAD ? "read-ahead " + (candAhead ? "on" : "off")
                        : ChunkTrace.formatSize(1L << candShift));
        return "adaptive " + ChunkTrace.formatSize(size()) + (ahead ? " with read-ahead" : "") + " (" + state + "), "
                + origin;
    }

    // ---------------------------------------------------------------- the search

    private int activeShift() {
        return move != null && onCandidate ? candShift : shift;
    }

    private boolean activeAhead() {
        return move != null && onCandidate ? candAhead : ahead;
    }

    private int activeSize() {
        return 1 << activeShift();
    }

    /**
     * The first window, at the first guess, only measures: it gives the noise estimate its first level, and keeps the
     * start of a run (the first device reads of a cold file, the first page faults of a new buffer) out of every
     * comparison.
     */
    private String opening(double rate) {
        noteAccepted(rate);
        return "first window; " + explore();
    }

    /** A window closed at {@code rate}: moves the search on and says what it decided. */
    private String onWindow(double rate) {
        if (move == null) {
            return settledWindow(rate);
        }
        if (onCandidate) {
            if (!Double.isNaN(previousCandRate) && previousCandRate > 0 && rate > 0 && candDiffCount < candDiffs.length) {
                candDiffs[candDiffCount++] = Math.abs(Math.log(rate / previousCandRate));
            }
            previousCandRate = rate;
            candRate = rate;
            onCandidate = false;
            return "";
        }
        noteAccepted(rate);
        if (Double.isNaN(candRate)) {
            onCandidate = true;
            return "";
        }
        ratios[pairs++] = Math.log(candRate / rate);
        candRate = Double.NaN;
        int need = move == Move.UP ? NEED_UP : move == Move.DOWN ? NEED_DOWN : NEED_AHEAD;
        double[] sorted = Arrays.copyOf(ratios, pairs);
        Arrays.sort(sorted);
        // The lower middle for accepting and the upper middle for rejecting: with an even number of pairs, one wild
        // pair (a pause in one window) can then move neither decision.
        double low = sorted[(pairs - 1) / 2];
        double high = sorted[pairs / 2];
        double margin = margin();
        int beats = 0;
        for (int i = 0; i < pairs; i++) {
            if (ratios[i] > margin) {
                beats++;
            }
        }
        String summary = String.format(Locale.ROOT, " (%+.1f%% over %d pair%s, margin %.1f%%)",
                (Math.exp(median(ratios, pairs)) - 1) * 100, pairs, pairs == 1 ? "" : "s", margin * 100);
        if (beats >= need && low > margin) {
            String note = "accept " + candidate() + summary;
            Move m = move;
            shift = candShift;
            ahead = candAhead;
            movedThisRound = true;
            // The accepted setting is new: its noise and its level are learned again.
            previousRate = Double.NaN;
            if (m == Move.AHEAD) {
                return note + "; " + settle();
            }
            return note + "; " + (canMove(m) ? startMove(m) : afterSizes());
        }
        boolean worse = (pairs == 1 && ratios[0] < -2 * margin) || (pairs >= 2 && high < -margin);
        if (worse || pairs >= need + EXTRA_PAIRS) {
            String note = "reject " + candidate() + summary;
            Move m = move;
            if (m == Move.UP && !movedThisRound && canMove(Move.DOWN)) {
                return note + "; " + startMove(Move.DOWN);
            }
            return note + "; " + (m == Move.AHEAD ? settle() : afterSizes());
        }
        onCandidate = true;
        return "";
    }

    private String candidate() {
        return move == Move.AHEAD ? "read-ahead " + (candAhead ? "on" : "off") : ChunkTrace.formatSize(1L << candShift);
    }

    private boolean canMove(Move m) {
        return switch (m) {
            case UP -> shift < maxShift;
            case DOWN -> shift > minShift;
            case AHEAD -> aheadAvailable;
        };
    }

    private String startMove(Move m) {
        move = m;
        candShift = m == Move.UP ? shift + 1 : m == Move.DOWN ? shift - 1 : shift;
        candAhead = m == Move.AHEAD ? !ahead : ahead;
        if (m == Move.AHEAD) {
            aheadTriedThisRound = true;
        }
        onCandidate = true;
        pairs = 0;
        candRate = Double.NaN;
        previousCandRate = Double.NaN;
        candDiffCount = 0;
        return "trial " + m.name().toLowerCase(Locale.ROOT) + " " + candidate();
    }

    /** Starts a round of trials from the accepted setting: up first, then down, then read-ahead. */
    private String explore() {
        movedThisRound = false;
        aheadTriedThisRound = false;
        settledCount = 0;
        if (canMove(Move.UP)) {
            return startMove(Move.UP);
        }
        if (canMove(Move.DOWN)) {
            return startMove(Move.DOWN);
        }
        return afterSizes();
    }

    /** The size search of this round is over: read-ahead next, if the reader can, else settle. */
    private String afterSizes() {
        if (canMove(Move.AHEAD) && !aheadTriedThisRound) {
            return startMove(Move.AHEAD);
        }
        return settle();
    }

    private String settle() {
        move = null;
        onCandidate = false;
        settledCount = 0;
        sinceProbe = 0;
        probeEvery = movedThisRound ? FIRST_PROBE : Math.min(probeEvery * 2, LAST_PROBE);
        return "settled at " + ChunkTrace.formatSize(size()) + (ahead ? " with read-ahead" : "")
                + ", next probe in " + probeEvery + " windows";
    }

    private String settledWindow(double rate) {
        noteAccepted(rate);
        if (settledCount == settled.length) {
            System.arraycopy(settled, 1, settled, 0, settled.length - 1);
            settledCount--;
        }
        settled[settledCount++] = rate;
        sinceProbe++;
        if (settledCount >= 6) {
            // A shift is a level change that holds: each of the last three windows beyond the threshold, the same
            // way, against the median of the ones before (a single slow window is a pause, not a shift).
            double before = median(settled, settledCount - 3);
            double threshold = Math.max(SHIFT, 4 * noise());
            double lo = Double.MAX_VALUE;
            double hi = 0;
            for (int i = settledCount - 3; i < settledCount; i++) {
                lo = Math.min(lo, settled[i]);
                hi = Math.max(hi, settled[i]);
            }
            double change = Math.log(lo / before) > threshold ? Math.log(lo / before)
                    : Math.log(hi / before) < -threshold ? Math.log(hi / before) : 0;
            if (change != 0) {
                probeEvery = FIRST_PROBE;
                return String.format(Locale.ROOT, "rate changed %+.0f%%: exploring; ", (Math.exp(change) - 1) * 100)
                        + explore();
            }
        }
        if (sinceProbe >= probeEvery) {
            return "probe; " + explore();
        }
        return "";
    }

    /** A window at the accepted setting: feeds the noise estimate. */
    private void noteAccepted(double rate) {
        if (!Double.isNaN(previousRate) && previousRate > 0 && rate > 0) {
            if (diffCount == diffs.length) {
                System.arraycopy(diffs, 1, diffs, 0, diffs.length - 1);
                diffCount--;
            }
            diffs[diffCount++] = Math.abs(Math.log(rate / previousRate));
        }
        previousRate = rate;
    }

    /** The typical window-to-window change at one setting, as a fraction. */
    double noise() {
        return diffCount == 0 ? DEFAULT_NOISE : median(diffs, diffCount);
    }

    /** The gain a candidate must show to be accepted: twice the noise of the noisier of the two settings. */
    private double margin() {
        double n = noise();
        if (candDiffCount > 0) {
            n = Math.max(n, median(candDiffs, candDiffCount));
        }
        return Math.clamp(2 * n, MIN_GAIN, MAX_MARGIN);
    }

    private static double median(double[] v, int n) {
        double[] s = Arrays.copyOf(v, n);
        Arrays.sort(s);
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }
}
