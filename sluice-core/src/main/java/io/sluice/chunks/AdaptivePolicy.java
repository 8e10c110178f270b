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
 *   <li><b>First guess</b> from the machine ({@link DeviceHints#firstGuess}), or the size given, with read-ahead
 *       on when the reader offers it: reading the next chunk while the caller works on this one made a MAF parse about
 *       6% faster on a warm file and 10-12% on a cold one here, and a run that had to find that out first spent its
 *       start without it. The first window is read at it and only measured, so the start of a run (a cold file's
 *       first reads, a new buffer's first page faults) weighs on no comparison.</li>
 *   <li><b>Windows.</b> Chunks are grouped into windows of at least {@value #WINDOW_CHUNKS} chunks and the window
 *       time (8 ms by default); a window's rate is the bytes the caller consumed over the time it took, the caller's
 *       own work included.</li>
 *   <li><b>Trials in powers of two.</b> To try a neighbour size it alternates windows of the candidate and of the
 *       current size. Each candidate window is compared with the current size's windows on either side of it (the
 *       mean of their logarithms), so a steady drift in the machine's speed (load arriving or leaving) cancels out
 *       instead of favouring whichever comes first. The noise is the median window-to-window change at the current
 *       size (or of the candidate's windows, if larger); the margin a candidate must beat is twice that, at least 2%
 *       and at most 25%. Growing is accepted when {@value #NEED_UP} pairs beat the margin and so does the lower
 *       median of all pairs; shrinking needs {@value #NEED_DOWN} (grow fast, shrink slowly). Lower and upper medians
 *       keep one wild pair (a pause in one window) from deciding. A trial ends as soon as its outcome is known:
 *       after one or two pairs for a candidate clearly worse; as soon as no outcome of the pairs left (up to
 *       {@value #EXTRA_PAIRS} more than needed) could get it accepted, which on a flat curve is after
 *       {@value #NEED_UP} pairs up and {@value #NEED_DOWN} down or for read-ahead; at once for one that wins.</li>
 *   <li><b>Exploring.</b> A round tries larger first and keeps going that way while it wins; if the first step up
 *       loses it tries smaller instead. Then, when the reader can read ahead, it tries read-ahead flipped (off,
 *       at first) the same way ({@value #NEED_AHEAD} pairs), and settles. A round runs at the start, and after a shift.</li>
 *   <li><b>Settled.</b> It keeps measuring. When each of the last three windows differs from the median of the ones
 *       before by more than 15% (or four times the noise), the same way, the workload or the cache changed: it
 *       explores again at once. A smaller move of the level that holds (the medians of two blocks of
 *       {@value #LEVEL_BLOCK} windows in a row beyond the margin, the same way, against the level it settled at)
 *       brings the probes back to the fast schedule. Either reaction comes at most once in {@value #LAST_PROBE}
 *       windows, counted from the last one or from the start: a load that comes and goes on a shared machine moves
 *       the rate every few dozen windows, and must not keep the policy in trials.</li>
 *   <li><b>Probes</b> are cheap once the curve is known: each tries one thing, in turn a size up, a size down and
 *       read-ahead flipped. Every trial that loses doubles the wait before the next probe, from
 *       {@value #FIRST_PROBE} windows to {@value #LAST_PROBE}; one that wins sets it back to {@value #FIRST_PROBE}
 *       and goes on as a round. A candidate that lost but looked better by over a quarter of the margin is tried
 *       again at the next probe, which comes four times sooner: a gain the noise hid gets another chance. On a flat
 *       curve a run thus spends a few windows in trials at the start and one or two in a hundred after (see
 *       {@link #trialShare()}).</li>
 *   <li><b>Transitions.</b> The first chunk after a change is not measured when it had to allocate a larger buffer
 *       or when read-ahead is on (a chunk read ahead was of the old setting).</li>
 * </ul>
 *
 * <p>Per chunk it reads the clock once; decisions and the trace cost something per window only.
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
    static final int LAST_PROBE = 256;
    static final int LEVEL_BLOCK = 8;
    private static final double DEFAULT_NOISE = 0.05;

    private enum Move { UP, DOWN, AHEAD }

    private static final Move[] PROBE_ORDER = {Move.UP, Move.DOWN, Move.AHEAD};

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
    /** The accepted setting's window just before the candidate's, or NaN: the first side of the bracket. */
    private double candBefore = Double.NaN;
    private final double[] ratios = new double[NEED_DOWN + EXTRA_PAIRS];
    private int pairs;
    /** Window-to-window changes of the candidate in this trial: its noise may differ from the accepted size's. */
    private final double[] candDiffs = new double[NEED_DOWN + EXTRA_PAIRS];
    private int candDiffCount;
    private double previousCandRate = Double.NaN;
    private boolean movedThisRound;
    private boolean aheadTriedThisRound;
    /** Whether this trial is a probe's single one: when it loses, the policy settles again at once. */
    private boolean probing;
    /** The next probe's move, an index in {@link #PROBE_ORDER}. */
    private int nextProbe;
    /**
     * The window at which it last explored on its own account or brought the fast schedule back: the start, a shift,
     * a move of the level. It does so at most once in {@value #LAST_PROBE} windows.
     */
    private long reactedAt = -LAST_PROBE;

    /** The last window closed at the accepted setting, or NaN when the last one was not, or did not count. */
    private double lastAccepted = Double.NaN;

    /** Settled windows at the accepted setting, oldest first. */
    private final double[] settled = new double[11];
    private int settledCount;
    private long sinceProbe;
    private long probeEvery = FIRST_PROBE;

    /** The settled level: the median of the first block of settled windows at the accepted setting, or NaN. */
    private double level = Double.NaN;
    private final double[] block = new double[LEVEL_BLOCK];
    private int blockCount;
    /** Which way the last block differed from the level by more than the margin: 1, -1, or 0 when it did not. */
    private int levelSide;

    /** Window-to-window changes at the accepted setting, |ln(r / previous r)|, the last few. */
    private final double[] diffs = new double[17];
    private int diffCount;
    private double previousRate = Double.NaN;

    private long trialWindows;

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
        if (!started) {
            // Read-ahead is the better bet where the reader can do it; a trial still turns it off where it loses.
            ahead = readAheadAvailable;
        }
        windows.restart();
        started = true;
        // A new reader allocates its buffer with its first chunk.
        biggestShift = activeShift();
        skip = true;
        // The gap between readers separates the next window from the last one: no bracket across it.
        lastAccepted = Double.NaN;
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
        if (move != null && onCandidate) {
            trialWindows++;
        }
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

    /**
     * The fraction of the windows measured so far that were read at a candidate setting (a neighbouring size, or
     * read-ahead flipped) rather than the accepted one: what exploring cost in time, when the candidates are slower.
     * 0 before the first window.
     */
    public double trialShare() {
        long n = windows.count();
        return n == 0 ? 0 : (double) trialWindows / n;
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
        lastAccepted = Double.NaN;
        reactedAt = windows.count();
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
            candBefore = lastAccepted;
            lastAccepted = Double.NaN;
            onCandidate = false;
            return "";
        }
        noteAccepted(rate);
        lastAccepted = rate;
        if (Double.isNaN(candRate)) {
            onCandidate = true;
            return "";
        }
        // Against the accepted windows on both sides of the candidate's when there are two: a linear drift then
        // weighs on both sides alike.
        double against = candBefore > 0 ? Math.sqrt(candBefore * rate) : rate;
        ratios[pairs++] = candRate > 0 && against > 0 ? Math.log(candRate / against) : 0;
        candRate = Double.NaN;
        int need = move == Move.UP ? NEED_UP : move == Move.DOWN ? NEED_DOWN : NEED_AHEAD;
        int most = need + EXTRA_PAIRS;
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
            probing = false;
            // The accepted setting is new: its noise and its level are learned again.
            previousRate = Double.NaN;
            lastAccepted = Double.NaN;
            level = Double.NaN;
            blockCount = 0;
            if (m == Move.AHEAD) {
                return note + "; " + settle();
            }
            return note + "; " + (canMove(m) ? startMove(m) : afterSizes());
        }
        boolean worse = (pairs == 1 && ratios[0] < -2 * margin) || (pairs >= 2 && high < -margin);
        // Accepting needs `need` winning pairs by the last pair, and the lower median of all of them above the margin:
        // with more losing pairs than half of the most, or too few pairs left, no outcome of the rest can accept.
        int losing = pairs - beats;
        boolean cannotWin = losing > (most - 1) / 2 || beats + (most - pairs) < need;
        if (worse || cannotWin || pairs >= most) {
            String note = "reject " + candidate() + summary;
            Move m = move;
            // A candidate that looked better, only not by the margin, may be a gain the noise hid: it is tried again
            // at the next probe, which comes sooner. Anything else is what a flat or known curve gives: wait longer.
            if (median(ratios, pairs) > margin / 4) {
                note += ", again at the next probe";
                nextProbe = Arrays.asList(PROBE_ORDER).indexOf(m);
                probeEvery = Math.max(FIRST_PROBE, probeEvery / 4);
            } else {
                probeEvery = Math.min(probeEvery * 2, LAST_PROBE);
            }
            if (probing) {
                return note + "; " + settle();
            }
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
        candBefore = Double.NaN;
        previousCandRate = Double.NaN;
        candDiffCount = 0;
        return "trial " + m.name().toLowerCase(Locale.ROOT) + " " + candidate();
    }

    /** Starts a round of trials from the accepted setting: up first, then down, then read-ahead. */
    private String explore() {
        movedThisRound = false;
        aheadTriedThisRound = false;
        probing = false;
        settledCount = 0;
        if (canMove(Move.UP)) {
            return startMove(Move.UP);
        }
        if (canMove(Move.DOWN)) {
            return startMove(Move.DOWN);
        }
        return afterSizes();
    }

    /** A probe: one trial, the next in turn of up, down and read-ahead that can be made here. */
    private String probe() {
        for (int i = 0; i < PROBE_ORDER.length; i++) {
            Move m = PROBE_ORDER[nextProbe];
            nextProbe = (nextProbe + 1) % PROBE_ORDER.length;
            if (canMove(m)) {
                movedThisRound = false;
                aheadTriedThisRound = false;
                probing = true;
                settledCount = 0;
                return "probe; " + startMove(m);
            }
        }
        // Nothing can be tried here (one size, no read-ahead): wait as long as after a probe that lost.
        sinceProbe = 0;
        probeEvery = Math.min(probeEvery * 2, LAST_PROBE);
        return "";
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
        probing = false;
        settledCount = 0;
        sinceProbe = 0;
        if (movedThisRound) {
            probeEvery = FIRST_PROBE;
        }
        return "settled at " + ChunkTrace.formatSize(size()) + (ahead ? " with read-ahead" : "")
                + ", next probe in " + probeEvery + " windows";
    }

    private String settledWindow(double rate) {
        noteAccepted(rate);
        lastAccepted = rate;
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
                level = Double.NaN;
                blockCount = 0;
                String note = String.format(Locale.ROOT, "rate changed %+.0f%%: ", (Math.exp(change) - 1) * 100);
                long since = windows.count() - reactedAt;
                if (since < LAST_PROBE) {
                    // A load that comes and goes on a shared machine shifts the rate every few dozen windows; a round
                    // each time would keep the policy in trials. The new rate is the level from now on; probes go on.
                    settledCount = 0;
                    return note + "explored " + since + " windows ago, not again yet";
                }
                reactedAt = windows.count();
                probeEvery = FIRST_PROBE;
                return note + "exploring; " + explore();
            }
        }
        String note = levelWindow(rate);
        if (sinceProbe >= probeEvery) {
            note = note.isEmpty() ? probe() : note + "; " + probe();
        }
        return note.endsWith("; ") ? note.substring(0, note.length() - 2) : note;
    }

    /**
     * Watches the settled level for a move smaller than a shift but larger than the noise: blocks of
     * {@value #LEVEL_BLOCK} windows, their median against the first block's, two blocks in a row beyond the margin the
     * same way (one block's median can be off by chance; two in a row, rarely). Probing every {@value #LAST_PROBE}
     * windows suits a curve that holds still; one that moved may have moved its best size too, so the probes come
     * back to every {@value #FIRST_PROBE} windows (up first), and the next block is the new level. Not within
     * {@value #LAST_PROBE} windows of the last round or reset: on a shared machine the level follows the load, and a
     * load that comes and goes must not keep the policy in trials. Returns what it decided, or an empty note.
     */
    private String levelWindow(double rate) {
        block[blockCount++] = rate;
        if (blockCount < LEVEL_BLOCK) {
            return "";
        }
        blockCount = 0;
        double m = median(block, LEVEL_BLOCK);
        if (Double.isNaN(level)) {
            level = m;
            levelSide = 0;
            return "";
        }
        double change = Math.log(m / level);
        int side = change > settledMargin() ? 1 : change < -settledMargin() ? -1 : 0;
        if (side == 0 || side != levelSide) {
            levelSide = side;
            return "";
        }
        level = Double.NaN;
        if (windows.count() - reactedAt < LAST_PROBE || probeEvery == FIRST_PROBE) {
            return "";
        }
        reactedAt = windows.count();
        probeEvery = FIRST_PROBE;
        nextProbe = 0;
        return String.format(Locale.ROOT, "level moved %+.0f%%: next probe in %d windows",
                (Math.exp(change) - 1) * 100, FIRST_PROBE);
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

    /** The margin at the accepted setting alone: a level move beyond it is more than the noise. */
    private double settledMargin() {
        return Math.clamp(2 * noise(), MIN_GAIN, MAX_MARGIN);
    }

    private static double median(double[] v, int n) {
        double[] s = Arrays.copyOf(v, n);
        Arrays.sort(s);
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }
}
