package io.sluice.chunks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
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
                // so a long chunk varies less than a short one and every window about as much as another.
                double factor = Math.exp(noise * Math.sqrt(1e6 / took) * random.nextGaussian());
                now[0] += Math.max(1, (long) (took * factor));
                bytesAt.merge(size, (long) size, Long::sum);
                lastBytes = size;
                chunks++;
            }
            return this;
        }

        void resetCounts() {
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
        // A 1% edge is below the 2% floor: it stays. A 10% edge per step wins even under noise.
        Sim small = new Sim(256 * KIB, 0.05, 20, false).runFor(peak(512 * KIB, 0.01, 600), seconds(10));
        assertTrue(small.share(256 * KIB) > 0.7, small.bytesAt::toString);
        Sim large = new Sim(256 * KIB, 0.3, 21, false).runFor(peak(MIB, 0.10, 600), seconds(10));
        assertEquals(MIB, large.policy.size(), () -> trace(large));
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
