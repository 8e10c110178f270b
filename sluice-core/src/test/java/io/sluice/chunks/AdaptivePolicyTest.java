package io.sluice.chunks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The adaptive policy driven by a fake clock through scripted rate curves: the "caller" consumes each chunk at the
 * rate the curve gives for its size (times some noise), and the clock advances by exactly that time.
 */
class AdaptivePolicyTest {
    private static final int KIB = 1024;
    private static final int MIB = 1024 * 1024;
    private static final long WINDOW = 8_000_000;

    /** Bytes per second for a chunk of {@code size}, with read-ahead or not, at fake time {@code nanos}. */
    interface Curve {
        double rate(int size, boolean ahead, long nanos);
    }

    /** A curve peaking at {@code best}, losing {@code loss} per power of two away from it, at {@code top} MB/s. */
    static Curve peak(int best, double loss, double top) {
        return (size, ahead, nanos) -> {
            int steps = Math.abs(Integer.numberOfTrailingZeros(size) - Integer.numberOfTrailingZeros(best));
            return top * 1e6 * Math.pow(1 - loss, steps);
        };
    }

    /** Runs a policy against a curve: the clock, the chunks, and the bytes read at each size. */
    static final class Sim {
        final long[] now = {1_000_000_000L};
        final AdaptivePolicy policy;
        final SplittableRandom random;
        final double noise;
        final boolean aheadAvailable;
        final TreeMap<Integer, Long> bytesAt = new TreeMap<>();
        long chunks;
        /** Changes of the accepted size seen so far. */
        int moves;
        long lastBytes = -1;
        int maxSize;
        int minSize = Integer.MAX_VALUE;
        /** Fake time spent on chunks read at a setting other than the accepted one (trials), and in all. */
        long offNanos;
        long allNanos;

        Sim(int initial, double noise, long seed, boolean aheadAvailable) {
            this(initial, AdaptivePolicy.DEFAULT_MIN_SIZE, AdaptivePolicy.DEFAULT_MAX_SIZE, noise, seed,
                    aheadAvailable);
        }

        Sim(int initial, int min, int max, double noise, long seed, boolean aheadAvailable) {
            this.policy = AdaptivePolicy.of(initial, min, max, WINDOW, () -> now[0]);
            this.random = new SplittableRandom(seed);
            this.noise = noise;
            this.aheadAvailable = aheadAvailable;
        }

        /** Consumes chunks until the fake clock has advanced {@code nanos}. */
        Sim runFor(Curve curve, long nanos) {
            long end = now[0] + nanos;
            while (now[0] < end) {
                int accepted = policy.size();
                int size = lastBytes < 0 ? policy.start(aheadAvailable) : policy.next(lastBytes);
                if (policy.size() != accepted) {
                    moves++;
                }
                maxSize = Math.max(maxSize, size);
                minSize = Math.min(minSize, size);
                boolean ahead = policy.readAhead();
                double rate = curve.rate(size, ahead, now[0]);
                double took = size / rate * 1e9;
                // Jitter per unit of time, as a machine's is: a log-normal factor of spread `noise` per millisecond,
                // so a long chunk varies less than a short one and every window about as much as another. Its mean is
                // 1 (the -s^2/2): otherwise short chunks, which vary more, would be slower on average, and a flat
                // curve would slope up by a few percent per power of two.
                double s = noise * Math.sqrt(1e6 / took);
                double factor = Math.exp(s * random.nextGaussian() - s * s / 2);
                long spent = Math.max(1, (long) (took * factor));
                now[0] += spent;
                allNanos += spent;
                if (size != policy.size() || (ahead != (aheadAvailable && policy.readAheadChosen()))) {
                    offNanos += spent;
                }
                bytesAt.merge(size, (long) size, Long::sum);
                lastBytes = size;
                chunks++;
            }
            return this;
        }

        /** The fraction of the time since the last reset spent in trials. */
        double offShare() {
            return allNanos == 0 ? 0 : (double) offNanos / allNanos;
        }

        void resetCounts() {
            offNanos = 0;
            allNanos = 0;
            bytesAt.clear();
            maxSize = 0;
            minSize = Integer.MAX_VALUE;
        }

        double share(int size) {
            long all = bytesAt.values().stream().mapToLong(Long::longValue).sum();
            return (double) bytesAt.getOrDefault(size, 0L) / all;
        }
    }

    private static long seconds(double s) {
        return (long) (s * 1e9);
    }

    @Test
    void convergesFromBelow() {
        Sim sim = new Sim(16 * KIB, 0.02, 1, false).runFor(peak(MIB, 0.08, 800), seconds(3));
        assertEquals(MIB, sim.policy.size(), () -> trace(sim));
        assertTrue(sim.policy.isSettled(), () -> trace(sim));
        sim.resetCounts();
        sim.runFor(peak(MIB, 0.08, 800), seconds(5));
        assertTrue(sim.share(MIB) > 0.85, "settled, it reads at 1 MiB nearly all the time: " + sim.bytesAt);
    }

    @Test
    void convergesFromAbove() {
        Sim sim = new Sim(8 * MIB, 0.02, 2, false).runFor(peak(128 * KIB, 0.08, 800), seconds(4));
        assertEquals(128 * KIB, sim.policy.size(), () -> trace(sim));
        assertTrue(sim.policy.isSettled() || sim.policy.toString().contains("trying"), sim.policy::toString);
        sim.resetCounts();
        sim.runFor(peak(128 * KIB, 0.08, 800), seconds(5));
        assertTrue(sim.share(128 * KIB) > 0.85, sim.bytesAt::toString);
    }

    @Test
    void growsInFewerWindowsThanItShrinks() {
        // The same distance, four powers of two, up and down a symmetric curve.
        Sim up = new Sim(64 * KIB, 0.0, 3, false);
        Sim down = new Sim(4 * MIB, 0.0, 3, false);
        Curve toMiB = peak(MIB, 0.1, 800);
        Curve to256 = peak(256 * KIB, 0.1, 800);
        long upWindows = windowsUntil(up, toMiB, MIB);
        long downWindows = windowsUntil(down, to256, 256 * KIB);
        assertTrue(upWindows < downWindows, "up " + upWindows + " windows, down " + downWindows);
    }

    private static long windowsUntil(Sim sim, Curve curve, int target) {
        for (int i = 0; i < 10_000; i++) {
            sim.runFor(curve, WINDOW);
            if (sim.policy.size() == target) {
                return sim.policy.trace().size();
            }
        }
        throw new AssertionError("never reached " + target + ":\n" + trace(sim));
    }

    @Test
    void aFlatCurveUnderNoiseDoesNotMoveIt() {
        // About 5% of jitter per 8 ms window, then about 10% (more than any gain worth having): thirty seconds of
        // probing each. A false move now and then is the price of a test at a fixed level (and costs nothing on a
        // flat curve); a walk away from the start is what must not happen.
        for (double noise : new double[] {0.15, 0.3}) {
            int maxMoves = noise < 0.2 ? 2 : 3;
            for (long seed = 0; seed < 10; seed++) {
                Sim sim = new Sim(256 * KIB, noise, seed, false);
                sim.runFor((size, ahead, t) -> 600e6, seconds(30));
                String where = "noise " + noise + ", seed " + seed + ", " + sim.bytesAt + ":\n" + trace(sim);
                assertTrue(sim.moves <= maxMoves, where);
                int size = sim.policy.size();
                assertTrue(size >= (256 * KIB) >> maxMoves && size <= (256 * KIB) << maxMoves, where);
                if (noise < 0.2) {
                    assertTrue(sim.share(128 * KIB) + sim.share(256 * KIB) + sim.share(512 * KIB) > 0.9, where);
                }
            }
        }
    }

    @Test
    void aSlopeShallowerThanTheNoiseStillGivesNearlyTheBestRate() {
        // 3% per power of two against 5% and then 10% of jitter per window: a wrong step now and then, but the rate
        // it gets stays near the best: within 5% at 5%; at 10%, within 5% on average and 10% at worst.
        Curve curve = peak(256 * KIB, 0.03, 600);
        for (double noise : new double[] {0.15, 0.3}) {
            double sum = 0;
            for (long seed = 0; seed < 10; seed++) {
                Sim sim = new Sim(256 * KIB, noise, seed, false).runFor(curve, seconds(30));
                double bytes = 0;
                double nanos = 0;
                for (var e : sim.bytesAt.entrySet()) {
                    bytes += e.getValue();
                    nanos += e.getValue() / curve.rate(e.getKey(), false, 0);
                }
                double efficiency = bytes / nanos / 600e6;
                sum += efficiency;
                assertTrue(efficiency >= (noise < 0.2 ? 0.95 : 0.9), "noise " + noise + ", seed " + seed + ": "
                        + efficiency + " " + sim.bytesAt);
            }
            assertTrue(sum / 10 >= 0.95, "noise " + noise + ": mean " + sum / 10);
        }
    }

    @Test
    void aGainSmallerThanTheNoiseIsNotTakenButALargeOneIs() {
        // A 1% edge is below the 2% floor: it stays.
        Sim small = new Sim(256 * KIB, 0.05, 20, false).runFor(peak(512 * KIB, 0.01, 600), seconds(10));
        assertTrue(small.share(256 * KIB) > 0.7, small.bytesAt::toString);
        // A 10% edge per step under about 10% of jitter per window: the margin is at its 25% cap, so a step is won by
        // chance only, and one run may take long. Over twenty, most get to the best and the rate they get is near it.
        Curve curve = peak(MIB, 0.10, 600);
        int reached = 0;
        double sum = 0;
        StringBuilder runs = new StringBuilder();
        for (long seed = 21; seed < 41; seed++) {
            Sim large = new Sim(256 * KIB, 0.3, seed, false).runFor(curve, seconds(30));
            if (large.policy.size() == MIB) {
                reached++;
            }
            double efficiency = efficiency(large, curve, 600e6);
            sum += efficiency;
            runs.append(String.format(Locale.ROOT, "seed %d: %s, %.3f%n", seed, large.policy, efficiency));
        }
        assertTrue(reached >= 15, reached + " of 20 at 1 MiB:\n" + runs);
        assertTrue(sum / 20 >= 0.92, "mean " + sum / 20 + ":\n" + runs);
    }

    /** The rate a run got, as a fraction of {@code best}: its bytes over the time the curve gives them. */
    private static double efficiency(Sim sim, Curve curve, double best) {
        double bytes = 0;
        double nanos = 0;
        for (var e : sim.bytesAt.entrySet()) {
            bytes += e.getValue();
            nanos += e.getValue() / curve.rate(e.getKey(), false, 0);
        }
        return bytes / nanos / best;
    }

    @Test
    void oneSlowWindowNeitherMovesItNorCountsAsAShift() {
        // A pause (a collection, a descheduled thread) makes one window 5x slower, every 40 windows.
        Curve pauses = (size, ahead, t) -> (t / WINDOW) % 40 == 0 ? 120e6 : 600e6;
        Sim sim = new Sim(256 * KIB, 0.02, 30, false).runFor(pauses, seconds(20));
        assertEquals(256 * KIB, sim.policy.size(), () -> trace(sim));
        assertTrue(sim.share(256 * KIB) > 0.8, sim.bytesAt::toString);
    }

    @Test
    void followsAShiftInTheWorkload() {
        long shiftAt = 1_000_000_000L + seconds(5);
        // Before: best at 128 KiB. After (the caller's work changed, or the file fell out of the cache): 2 MiB, and
        // everything slower, so the settled rate drops.
        Curve before = peak(128 * KIB, 0.08, 900);
        Curve after = peak(2 * MIB, 0.08, 300);
        Curve shifting = (size, ahead, t) -> t < shiftAt ? before.rate(size, ahead, t) : after.rate(size, ahead, t);
        Sim sim = new Sim(128 * KIB, 0.03, 40, false).runFor(shifting, seconds(5));
        assertEquals(128 * KIB, sim.policy.size(), () -> trace(sim));
        sim.runFor(shifting, seconds(5));
        assertEquals(2 * MIB, sim.policy.size(), () -> trace(sim));
        assertTrue(sim.policy.trace().stream().anyMatch(w -> w.note().contains("rate changed")), () -> trace(sim));
    }

    @Test
    void periodicProbesFindABetterSizeEvenWhenTheRateAtTheCurrentOneStaysTheSame() {
        long shiftAt = 1_000_000_000L + seconds(3);
        // Only the other sizes change: no shift to see, so only a probe can find it.
        Curve curve = (size, ahead, t) -> size == 256 * KIB ? 500e6
                : t < shiftAt ? 400e6 : size > 256 * KIB ? 600e6 : 400e6;
        Sim sim = new Sim(256 * KIB, 0.01, 50, false).runFor(curve, seconds(3));
        assertEquals(256 * KIB, sim.policy.size(), () -> trace(sim));
        sim.runFor(curve, seconds(20));
        assertTrue(sim.policy.size() > 256 * KIB, () -> trace(sim));
        assertTrue(sim.policy.trace().stream().anyMatch(w -> w.note().startsWith("probe")), () -> trace(sim));
    }

    @Test
    void onAFlatCurveTrialsBecomeRare() {
        // Every size and read-ahead alike, under about 5% and then 10% of jitter per window: once the first round has
        // found nothing, probing must cost little. A run of the benchmark's length (1 GiB at 4 MiB chunks, about 2 s)
        // spends its first round; then the waits double to the cap.
        Curve flat = (size, ahead, t) -> 600e6;
        for (double noise : new double[] {0.15, 0.3}) {
            double early = 0;
            double first20 = 0;
            for (long seed = 0; seed < 10; seed++) {
                Sim sim = new Sim(4 * MIB, noise, seed, true);
                String where = "noise " + noise + ", seed " + seed;
                sim.runFor(flat, seconds(1.8));
                early += sim.offShare();
                sim.runFor(flat, seconds(18.2));
                first20 += sim.offShare();
                assertTrue(sim.offShare() < 0.08, where + ": " + sim.offShare() + " of the first 20 s in trials\n"
                        + trace(sim));
                sim.resetCounts();
                sim.runFor(flat, seconds(100));
                assertTrue(sim.offShare() < 0.05, where + ": " + sim.offShare() + " of the next 100 s in trials\n"
                        + trace(sim));
                assertTrue(sim.policy.trialShare() < 0.05, where + ": " + sim.policy.trialShare()
                        + " of all windows were trials\n" + trace(sim));
                assertTrue(sim.moves <= 2, where + ": " + sim.moves + " moves\n" + trace(sim));
            }
            assertTrue(early / 10 < 0.2, "noise " + noise + ": " + early / 10 + " of the first 1.8 s in trials");
            assertTrue(first20 / 10 < 0.05, "noise " + noise + ": " + first20 / 10 + " of the first 20 s in trials");
        }
    }

    @Test
    void theTrialShareCountsTheWindowsReadAtACandidate() {
        Sim sim = new Sim(256 * KIB, 0.0, 5, false).runFor(peak(256 * KIB, 0.2, 500), seconds(1));
        long trials = sim.policy.trace().stream().filter(w -> w.size() != 256 * KIB).count();
        assertTrue(trials > 0, () -> trace(sim));
        assertEquals((double) trials / sim.policy.trace().size(), sim.policy.trialShare(), 1e-12);
        assertEquals(0.0, AdaptivePolicy.startingAt(MIB).trialShare());
    }

    /** The window count of the trace's last window, plus one: how many windows the policy has closed. */
    private static long windows(Sim sim) {
        List<ChunkTrace> t = sim.policy.trace();
        return t.isEmpty() ? 0 : t.get(t.size() - 1).window() + 1;
    }

    /** Runs window by window until the policy has just settled after a probe, waiting its longest: the worst moment. */
    private static void untilJustAfterALongProbe(Sim sim, Curve curve) {
        for (int i = 0; i < 100_000; i++) {
            sim.runFor(curve, WINDOW);
            List<ChunkTrace> t = sim.policy.trace();
            String last = t.get(t.size() - 1).note();
            if (last.contains("settled at") && last.endsWith("next probe in " + AdaptivePolicy.LAST_PROBE + " windows")
                    && sim.policy.isSettled()) {
                return;
            }
        }
        throw new AssertionError("never settled with the longest wait:\n" + trace(sim));
    }

    @Test
    void aBetterNeighbourAppearingLaterIsFoundWithinTheLongestWaits() {
        // The rate at the settled size stays the same: only a probe can see that 512 KiB became faster. Probes take
        // turns (up, down, read-ahead), each after at most LAST_PROBE windows, so up comes within three waits.
        boolean[] changed = {false};
        Curve before = peak(256 * KIB, 0.1, 500);
        Curve curve = (size, ahead, t) -> changed[0] && size == 512 * KIB ? 600e6 : before.rate(size, ahead, t);
        Sim sim = new Sim(256 * KIB, 0.05, 7, true);
        sim.runFor(curve, seconds(20));
        untilJustAfterALongProbe(sim, curve);
        assertEquals(256 * KIB, sim.policy.size(), () -> trace(sim));
        changed[0] = true;
        long at = windows(sim);
        long bound = 3 * (AdaptivePolicy.LAST_PROBE + 2 * (AdaptivePolicy.NEED_DOWN + AdaptivePolicy.EXTRA_PAIRS));
        while (sim.policy.size() != 512 * KIB && windows(sim) - at <= bound) {
            sim.runFor(curve, WINDOW);
        }
        assertEquals(512 * KIB, sim.policy.size(), () -> "not within " + bound + " windows:\n" + trace(sim));
    }

    @Test
    void aSmallMoveOfTheLevelBringsTheProbesBackSoon() {
        // Settled at 256 KiB with the longest wait before the next probe. Then the caller's work changes: 256 KiB
        // gets 10% slower (less than a shift, more than the noise) and 128 KiB becomes the best size by 25%. Probing
        // every LAST_PROBE windows would find it in one to three waits; the level's move brings the probes back.
        boolean[] changed = {false};
        Curve before = peak(256 * KIB, 0.1, 500);
        Curve after = peak(128 * KIB, 0.2, 560);
        Curve curve = (size, ahead, t) -> (changed[0] ? after : before).rate(size, ahead, t);
        Sim sim = new Sim(256 * KIB, 0.05, 8, false);
        sim.runFor(curve, seconds(20));
        untilJustAfterALongProbe(sim, curve);
        assertEquals(256 * KIB, sim.policy.size(), () -> trace(sim));
        changed[0] = true;
        long at = windows(sim);
        long bound = AdaptivePolicy.LAST_PROBE / 2;
        while (sim.policy.size() != 128 * KIB && windows(sim) - at <= bound) {
            sim.runFor(curve, WINDOW);
        }
        assertEquals(128 * KIB, sim.policy.size(), () -> "not within " + bound + " windows:\n" + trace(sim));
        assertTrue(sim.policy.trace().stream().anyMatch(w -> w.note().startsWith("level moved -10%")),
                () -> trace(sim));
    }

    @Test
    void aLoadThatComesAndGoesNeitherWalksItAwayNorKeepsItInTrials() {
        // Another process takes the CPU in bursts: the rate swings by a factor of 1.5 every half second, on a flat
        // curve. Each swing is a shift; exploring at each would keep a third of the windows in trials.
        for (long seed = 0; seed < 10; seed++) {
            Sim sim = new Sim(256 * KIB, 0.15, seed, true);
            sim.runFor((size, ahead, t) -> 600e6 * Math.exp(0.4 * Math.sin(2 * Math.PI * t / 0.5e9)), seconds(30));
            String where = "seed " + seed + ", " + sim.bytesAt + ":\n" + trace(sim);
            assertTrue(sim.offShare() < 0.08, sim.offShare() + " in trials, " + where);
            assertTrue(sim.moves <= 2, where);
            int size = sim.policy.size();
            assertTrue(size >= 64 * KIB && size <= MIB, where);
        }
    }

    @Test
    void probesBackOffWhileTheyFindNothing() {
        Sim sim = new Sim(256 * KIB, 0.01, 60, false).runFor(peak(256 * KIB, 0.1, 500), seconds(8));
        List<Long> probes = new ArrayList<>();
        for (ChunkTrace w : sim.policy.trace()) {
            if (w.note().startsWith("probe")) {
                probes.add(w.window());
            }
        }
        assertTrue(probes.size() >= 3, () -> trace(sim));
        long firstGap = probes.get(1) - probes.get(0);
        long lastGap = probes.get(probes.size() - 1) - probes.get(probes.size() - 2);
        assertTrue(lastGap > firstGap, "gaps " + probes);
        assertTrue(lastGap <= AdaptivePolicy.LAST_PROBE + 20, "gaps " + probes);
    }

    @Test
    void readAheadIsOnFromTheFirstChunkWhereTheReaderOffersIt() {
        AdaptivePolicy offered = AdaptivePolicy.of(256 * KIB, 4 * KIB, MIB, WINDOW, () -> 0);
        offered.start(true);
        assertTrue(offered.readAhead());
        assertTrue(offered.readAheadChosen());
        AdaptivePolicy notOffered = AdaptivePolicy.of(256 * KIB, 4 * KIB, MIB, WINDOW, () -> 0);
        notOffered.start(false);
        assertFalse(notOffered.readAhead());
        assertFalse(notOffered.readAheadChosen());
    }

    @Test
    void readAheadIsKeptOnlyWhereItHelps() {
        Curve helps = (size, ahead, t) -> (ahead ? 1.2 : 1.0) * 500e6;
        Sim on = new Sim(256 * KIB, 0.02, 70, true).runFor(helps, seconds(5));
        assertTrue(on.policy.readAheadChosen(), () -> trace(on));
        assertTrue(on.policy.readAhead());

        Curve hurts = (size, ahead, t) -> (ahead ? 0.9 : 1.0) * 500e6;
        Sim off = new Sim(256 * KIB, 0.02, 71, true).runFor(hurts, seconds(5));
        assertFalse(off.policy.readAheadChosen(), () -> trace(off));

        Sim unavailable = new Sim(256 * KIB, 0.02, 72, false).runFor(helps, seconds(5));
        assertFalse(unavailable.policy.readAhead(), "the reader cannot: never asked for");
        assertTrue(unavailable.policy.trace().stream().noneMatch(w -> w.readAhead()), () -> trace(unavailable));
    }

    @Test
    void staysWithinItsRange() {
        Sim sim = new Sim(64 * KIB, 32 * KIB, 128 * KIB, 0.02, 80, false);
        sim.runFor(peak(8 * MIB, 0.1, 500), seconds(3));
        assertEquals(128 * KIB, sim.maxSize);
        assertEquals(128 * KIB, sim.policy.size());
        Sim one = new Sim(64 * KIB, 64 * KIB, 64 * KIB, 0.02, 81, false);
        one.runFor(peak(8 * MIB, 0.1, 500), seconds(2));
        assertEquals(64 * KIB, one.maxSize);
        assertEquals(64 * KIB, one.minSize);
    }

    @Test
    void theSameReportsGiveTheSameDecisions() {
        Sim a = new Sim(16 * KIB, 0.2, 90, true).runFor(peak(512 * KIB, 0.05, 700), seconds(5));
        Sim b = new Sim(16 * KIB, 0.2, 90, true).runFor(peak(512 * KIB, 0.05, 700), seconds(5));
        assertEquals(a.policy.trace(), b.policy.trace());
        assertEquals(a.chunks, b.chunks);
    }

    @Test
    void theTraceSaysWhatItTriedAndWhy() {
        Sim sim = new Sim(128 * KIB, 0.0, 100, false).runFor(peak(512 * KIB, 0.1, 500), seconds(3));
        List<ChunkTrace> t = sim.policy.trace();
        assertTrue(t.get(0).note().startsWith("first window; trial up 256 KiB"), t.get(0)::toString);
        assertEquals(128 * KIB, t.get(0).size(), "the first window is read at the first guess");
        String all = trace(sim);
        assertTrue(all.contains("accept 256 KiB (+"), all);
        assertTrue(all.contains("accept 512 KiB"), all);
        assertTrue(all.contains("reject 1 MiB ("), all);
        assertTrue(all.contains("settled at 512 KiB"), all);
        for (ChunkTrace w : t) {
            assertTrue(w.mbPerSec() > 0 && w.bytes() > 0 && w.nanos() >= WINDOW, w::toString);
        }
        assertTrue(sim.policy.toString().startsWith("adaptive 512 KiB (settled), first guess 128 KiB given"),
                sim.policy::toString);
    }

    @Test
    void aPolicyHandedToTheNextReaderKeepsWhatItLearned() {
        Sim sim = new Sim(16 * KIB, 0.0, 110, false).runFor(peak(MIB, 0.1, 500), seconds(3));
        assertEquals(MIB, sim.policy.size());
        // A new reader: start() again, after a gap that must not count as slow reading.
        sim.now[0] += seconds(10);
        assertEquals(MIB, sim.policy.start(false));
        sim.lastBytes = MIB;
        sim.runFor(peak(MIB, 0.1, 500), seconds(1));
        assertEquals(MIB, sim.policy.size(), () -> trace(sim));
        assertTrue(sim.policy.trace().stream().noneMatch(w -> w.note().contains("rate changed")), () -> trace(sim));
    }

    @Test
    void badSettingsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> AdaptivePolicy.of(64 * KIB, 3000, MIB, WINDOW, () -> 0));
        assertThrows(IllegalArgumentException.class, () -> AdaptivePolicy.of(64 * KIB, MIB, 64 * KIB, WINDOW, () -> 0));
        assertThrows(IllegalArgumentException.class, () -> AdaptivePolicy.of(0, 4 * KIB, MIB, WINDOW, () -> 0));
        assertThrows(IllegalArgumentException.class, () -> AdaptivePolicy.of(64 * KIB, 4 * KIB, MIB, 0, () -> 0));
        // An initial size that is not a power of two is rounded down, and kept in range.
        assertEquals(64 * KIB, AdaptivePolicy.of(100 * KIB, 4 * KIB, MIB, WINDOW, () -> 0).size());
        assertEquals(MIB, AdaptivePolicy.of(64 * MIB, 4 * KIB, MIB, WINDOW, () -> 0).size());
    }

    @Test
    void fixedPolicyAnswersTheSameAndTracesItsRate() {
        long[] now = {0};
        FixedPolicy p = FixedPolicy.of(100_000, true, () -> now[0]);
        assertEquals(100_000, p.start(true));
        for (int i = 0; i < 100; i++) {
            now[0] += 1_000_000;
            assertEquals(100_000, p.next(100_000));
        }
        assertTrue(p.readAhead());
        assertEquals(10, p.trace().size(), p.trace()::toString);
        assertEquals(100.0, p.trace().get(0).mbPerSec(), 1e-9);
        assertThrows(IllegalArgumentException.class, () -> FixedPolicy.of(0));
        assertThrows(IllegalArgumentException.class, () -> FixedPolicy.of((1 << 30) + 1));
    }

    static String trace(Sim sim) {
        StringBuilder b = new StringBuilder(sim.policy.toString()).append('\n');
        for (ChunkTrace w : sim.policy.trace()) {
            b.append(w).append('\n');
        }
        return b.toString();
    }
}
