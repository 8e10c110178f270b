package io.sluice;

import static io.sluice.AutoChooser.HEAP;
import static io.sluice.AutoChooser.MAP;
import static io.sluice.AutoChooser.NATIVE;
import static io.sluice.AutoChooser.PREAD;
import static io.sluice.AutoChooser.TIMED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The chooser on scripted rates and a fake clock: every call it times advances the clock by what the script says the
 * path costs, so what it learns, and when, is the same on every run.
 */
class AutoChooserTest {
    private static final long K4 = 4096;
    private static final long M1 = 1 << 20;

    /** A fake machine: nanoseconds per byte for each path, changeable mid-run, and dice that time every call. */
    private static final class Script {
        long now;
        int roll;
        double mapNanosPerByte;
        double preadNanosPerByte;
        /** Every spikeEvery-th timed call costs spikeFactor times as much (a preempted thread); 0: none. */
        int spikeEvery;
        double spikeFactor;
        int timed;
        /** Added to the dice: the low bits set the gap to the next timed call (0: every call is timed). */
        int low;
        /** False: the dice's high bits never explore (they stay at 1). */
        boolean explore = true;
        /** When set, the timed mapped reads cost these nanoseconds per byte in turn instead of mapNanosPerByte. */
        double[] mapCycle;
        /** When set, the timed preads cost these nanoseconds per byte in turn instead of preadNanosPerByte. */
        double[] preadCycle;
        int mapTurn;
        int preadTurn;
        /** A timed call by the path the previous call did not take costs this many times as much (cold); 0: none. */
        double switchFactor;
        int lastPath = -1;
        /** Calls the chooser timed. */
        int timedCalls;
        /** The first timed call by the mapping costs this many times as much (a cold start); 0: no such call. */
        double coldFactor;
        boolean coldSeen;
        final AutoChooser chooser;

        Script(long nativeMapMax, double map, double pread) {
            this.mapNanosPerByte = map;
            this.preadNanosPerByte = pread;
            // Multiples of GAP_SPAN: every call is timed, and every EXPLORE_EVERY-th starts a burst the other way.
            this.chooser = new AutoChooser(new AutoThresholds(nativeMapMax, nativeMapMax, "test"), true,
                    () -> AutoChooser.GAP_SPAN * (explore ? roll++ : 1) + low, () -> now);
        }

        /** One read of {@code len} bytes as AutoFile does it; returns the path it took. */
        int call(long len) {
            int how = chooser.route(NATIVE, len);
            int path = how & MAP;
            if ((how & TIMED) != 0) {
                timedCalls++;
                long t0 = chooser.now();
                double perByte = path == MAP ? mapNanosPerByte : preadNanosPerByte;
                if (path == MAP && mapCycle != null) {
                    perByte = mapCycle[mapTurn++ % mapCycle.length];
                } else if (path == PREAD && preadCycle != null) {
                    perByte = preadCycle[preadTurn++ % preadCycle.length];
                }
                double cost = perByte * len;
                if (spikeEvery > 0 && ++timed % spikeEvery == 0) {
                    cost *= spikeFactor;
                }
                if (switchFactor > 0 && lastPath >= 0 && path != lastPath) {
                    cost *= switchFactor;
                }
                if (path == MAP && coldFactor > 0 && !coldSeen) {
                    coldSeen = true;
                    cost *= coldFactor;
                }
                now += (long) cost;
                chooser.record(NATIVE, len, path, chooser.now() - t0);
            }
            lastPath = path;
            return path;
        }
    }

    @Test
    void sizeClassesArePowersOfTwo() {
        assertEquals(0, AutoChooser.sizeClass(1));
        assertEquals(12, AutoChooser.sizeClass(4096));
        assertEquals(13, AutoChooser.sizeClass(4097));
        assertEquals(20, AutoChooser.sizeClass(M1));
        assertEquals(31, AutoChooser.sizeClass(Long.MAX_VALUE));
    }

    @Test
    void startsFromTheThresholds() {
        Script s = new Script(64 * 1024, 1, 1);
        assertEquals(MAP, s.chooser.preferred(NATIVE, 100));
        assertEquals(MAP, s.chooser.preferred(NATIVE, 64 * 1024));
        assertEquals(PREAD, s.chooser.preferred(NATIVE, 64 * 1024 + 1));
        assertEquals(64 * 1024, s.chooser.mapMax(NATIVE));
        assertEquals(64 * 1024, s.chooser.mapMax(HEAP));
    }

    @Test
    void picksTheFasterPathPerSize() {
        // Starts with every read by pread; the mapping is three times faster at 4 KiB, twice slower at 1 MiB.
        Script s = new Script(0, 0.1, 0.3);
        for (int i = 0; i < 200; i++) {
            s.call(K4);
        }
        assertEquals(MAP, s.chooser.preferred(NATIVE, K4), "4 KiB moves to the mapping");
        s.mapNanosPerByte = 0.2;
        s.preadNanosPerByte = 0.1;
        for (int i = 0; i < 200; i++) {
            s.call(M1);
        }
        assertEquals(PREAD, s.chooser.preferred(NATIVE, M1), "1 MiB stays with pread");
        assertEquals(MAP, s.chooser.preferred(NATIVE, K4), "4 KiB, not sampled since, keeps its choice");
        assertEquals(K4, s.chooser.mapMax(NATIVE));
        assertEquals(0, s.chooser.mapMax(HEAP), "heap memory is learned apart");
    }

    @Test
    void holdsAgainstNoise() {
        // The mapping is faster by 2x; every 20th timed call of either path is a hundred times slower.
        Script s = new Script(M1, 0.1, 0.2);
        s.spikeEvery = 20;
        s.spikeFactor = 100;
        int byPread = 0;
        for (int i = 0; i < 4000; i++) {
            s.call(K4);
            assertEquals(MAP, s.chooser.preferred(NATIVE, K4), "after call " + i);
        }
        // Settled, one timed call in this many starts a burst: the calls go in runs of that many less one by the
        // mapping and BURST by pread.
        int settled = AutoChooser.EXPLORE_EVERY << AutoChooser.MAX_BACKOFF;
        for (int i = 0; i < 10 * (settled - 1 + AutoChooser.BURST); i++) {
            byPread += s.call(K4) == PREAD ? 1 : 0;
        }
        assertEquals(10 * AutoChooser.BURST, byPread,
                "only the exploring bursts take the other path, and settled, one in " + settled + " timed calls");
    }

    @Test
    void aSettledClassExploresLessAndAClassInDoubtDoesNot() {
        // The mapping clearly faster: exploring backs off to one timed call in EXPLORE_EVERY << MAX_BACKOFF.
        Script s = new Script(M1, 0.1, 0.3);
        int byPread = 0;
        for (int i = 0; i < 400; i++) {
            byPread += s.call(512) == PREAD ? 1 : 0;
        }
        assertTrue(byPread < AutoChooser.BURST * 400 / AutoChooser.EXPLORE_EVERY / 4,
                "explored " + byPread + " times in 400 calls");
        // pread 10% faster, inside the margin: the choice is in doubt, so the other path is looked at as often as at
        // the start: a burst of BURST calls by pread, then EXPLORE_EVERY - 1 by the mapping, over and over.
        Script doubt = new Script(M1, 0.100, 0.090);
        byPread = 0;
        int expected = 0;
        for (int i = 0; i < 400; i++) {
            byPread += doubt.call(512) == PREAD ? 1 : 0;
            expected += i % (AutoChooser.BURST + AutoChooser.EXPLORE_EVERY - 1) < AutoChooser.BURST ? 1 : 0;
        }
        assertEquals(expected, byPread);
    }

    @Test
    void aDearBurstIsMadeMoreRarely() {
        // 512 bytes, timed once in 1024 calls once settled. pread three times slower: a burst of it every 65536
        // calls costs 0.02% of the class's time, so exploring backs off MAX_BACKOFF times. A hundred times slower
        // (its code cold where it runs this rarely): every 65536 calls that would cost 0.6%, so it backs off once
        // more, to 0.3%.
        Script cheap = new Script(M1, 0.1, 0.3);
        Script dear = new Script(M1, 0.1, 10);
        for (int i = 0; i < 2000; i++) {
            cheap.call(512);
            dear.call(512);
        }
        assertTrue(cheap.chooser.describe().contains("explores 4 reads in 65536, times 1 in 1024"),
                cheap.chooser.describe());
        assertTrue(dear.chooser.describe().contains("explores 4 reads in 131072, times 1 in 1024"),
                dear.chooser.describe());
        // Every call timed: the dear class's bursts come once in twice as many timed calls.
        int settled = AutoChooser.EXPLORE_EVERY << (AutoChooser.MAX_BACKOFF + 1);
        int byPread = 0;
        for (int i = 0; i < 10 * (settled - 1 + AutoChooser.BURST); i++) {
            byPread += dear.call(512) == PREAD ? 1 : 0;
        }
        assertEquals(10 * AutoChooser.BURST, byPread);
    }

    @Test
    void aPathThatGotFasterIsFoundAfterBackingOff() {
        Script s = new Script(M1, 0.1, 0.3);
        for (int i = 0; i < 2000; i++) {
            s.call(K4);
        }
        // pread now much faster (the mapping's pages were dropped and each copy faults): the next exploring burst,
        // at most EXPLORE_EVERY << MAX_BACKOFF timed calls away, brings the one after near, and that one moves it.
        s.preadNanosPerByte = 0.02;
        int calls = 0;
        int most = (AutoChooser.EXPLORE_EVERY << AutoChooser.MAX_BACKOFF) + AutoChooser.EXPLORE_EVERY
                + 2 * (AutoChooser.BURST - 1);
        while (s.chooser.preferred(NATIVE, K4) == MAP) {
            s.call(K4);
            assertTrue(++calls <= most, "still on the mapping after " + calls + " calls");
        }
    }

    @Test
    void aSettledClassOfCheapReadsIsTimedRarely() {
        // 512 bytes at 51 ns by the mapping, pread three times slower: settled, timing once in 1024 calls costs
        // 0.1 ns a call, where once in 64 took several percent of the rate.
        Script s = new Script(M1, 0.1, 0.3);
        for (int i = 0; i < 400; i++) {
            s.call(512);
        }
        s.low = AutoChooser.SAMPLE_EVERY; // the mean gap
        s.explore = false; // an exploring burst would move the timed calls that follow it by BURST - 1
        untilTimed(s, 512);
        for (int i = 0; i < 10 * 1025; i++) {
            s.call(512);
        }
        assertEquals(10, s.timedCalls, "a settled class of 51 ns reads is timed once in 1025 calls");
        assertTrue(s.chooser.describe().contains("times 1 in 1024"), s.chooser.describe());
        // 4 KiB at 409 ns: once in 256 (160 µs over 409 ns is 391); 64 KiB at 6.6 µs: as while learning, never denser.
        Script mid = new Script(M1, 0.1, 0.3);
        for (int i = 0; i < 400; i++) {
            mid.call(K4);
            mid.call(64 * 1024);
        }
        assertTrue(mid.chooser.describe().contains("native 4 KiB: map (map 409 ns n="), mid.chooser.describe());
        assertTrue(mid.chooser.describe().contains("times 1 in 256)"), mid.chooser.describe());
        assertTrue(mid.chooser.describe().contains("times 1 in 64)"), mid.chooser.describe());
        // In doubt (the paths within the margin), a cheap class is timed as often as while it learns.
        Script doubt = new Script(M1, 0.100, 0.090);
        for (int i = 0; i < 400; i++) {
            doubt.call(512);
        }
        doubt.low = AutoChooser.SAMPLE_EVERY;
        doubt.explore = false;
        untilTimed(doubt, 512);
        for (int i = 0; i < 10 * 65; i++) {
            doubt.call(512);
        }
        assertEquals(10, doubt.timedCalls);
    }

    /**
     * Calls until one is timed, then sets the script's count of timed calls to 0: from there the next timed call is
     * a full gap away, or, if that call ended a burst whose gap was drawn before, the very next one.
     */
    private static void untilTimed(Script s, long len) {
        int before = s.timedCalls;
        for (int i = 0; s.timedCalls == before; i++) {
            assertTrue(i < 10 * AutoChooser.GAP_SPAN << AutoChooser.MAX_BACKOFF, "no timed call");
            s.call(len);
        }
        s.timedCalls = 0;
    }

    @Test
    void aColdFirstSampleDoesNotSendSmallReadsToPread() {
        // The first mapped read faults its page in and runs interpreted: fifty times its later cost.
        Script s = new Script(M1, 0.1, 0.3);
        s.coldFactor = 50;
        for (int i = 0; i < 400; i++) {
            s.call(512);
            assertEquals(MAP, s.chooser.preferred(NATIVE, 512), "after call " + i);
        }
    }

    @Test
    void thePathTimedMoreOftenDoesNotWinForIt() {
        // Mapped copies spread wide: one in 16 lucky at 0.06 ns/byte, the rest 0.14 to 0.30 (0.21 on average);
        // pread steady at 0.10 to 0.11. The mapping, preferred, is timed on every call and pread only when
        // explored, so the mapping's lowest sample is a lucky one while pread's few all sit near its average. Its
        // typical cost being twice pread's, the class goes to pread, and stays there.
        Script s = new Script(M1, 0, 0);
        s.mapCycle = new double[] {0.06, 0.20, 0.24, 0.14, 0.30, 0.18, 0.22, 0.16,
                0.26, 0.20, 0.28, 0.15, 0.21, 0.19, 0.25, 0.17};
        s.preadCycle = new double[] {0.10, 0.11, 0.105};
        for (int i = 0; i < 2000; i++) {
            s.call(K4);
        }
        assertEquals(PREAD, s.chooser.preferred(NATIVE, K4), s.chooser.describe());
        int byMap = 0;
        for (int i = 0; i < 2000; i++) {
            byMap += s.call(K4) == MAP ? 1 : 0;
            assertEquals(PREAD, s.chooser.preferred(NATIVE, K4), "after call " + i + ": " + s.chooser.describe());
        }
        assertTrue(byMap < 2000 / 4, "the mapping still took " + byMap + " of 2000 calls");
    }

    @Test
    void aLoadThatSlowsBothPathsMovesNothing() {
        // The mapping faster by 30%, settled; then another load on the machine doubles both paths' costs, then goes.
        // The mapping's samples show the load at once, pread's old ones do not: pread is looked at again, found as
        // slow as ever beside the mapping, and the class stays.
        Script s = new Script(M1, 0.10, 0.13);
        for (int i = 0; i < 2000; i++) {
            s.call(K4);
        }
        for (int round = 0; round < 3; round++) {
            s.mapNanosPerByte = 0.20;
            s.preadNanosPerByte = 0.26;
            for (int i = 0; i < 500; i++) {
                s.call(K4);
                assertEquals(MAP, s.chooser.preferred(NATIVE, K4), "loaded, call " + i + ": " + s.chooser.describe());
            }
            s.mapNanosPerByte = 0.10;
            s.preadNanosPerByte = 0.13;
            for (int i = 0; i < 500; i++) {
                s.call(K4);
                assertEquals(MAP, s.chooser.preferred(NATIVE, K4), "unloaded, call " + i + ": " + s.chooser.describe());
            }
        }
        assertTrue(s.chooser.describe().contains(", 0 changes,"), s.chooser.describe());
    }

    @Test
    void anExploredPathIsTimedWarm() {
        // pread 30% faster than the mapping, but a read by the path the previous read did not take costs twice as
        // much (its code, the kernel's state, the caches were the other path's). Timed on the first call that
        // goes there, pread would look 40% slower; timed at the end of a burst, it is seen as it runs.
        Script s = new Script(M1, 0.10, 0.07);
        s.switchFactor = 2;
        s.lastPath = MAP; // the reads before these went by the mapping
        for (int i = 0; i < 400; i++) {
            s.call(K4);
        }
        assertEquals(PREAD, s.chooser.preferred(NATIVE, K4), s.chooser.describe());
    }

    @Test
    void anExploringCallStartsABurstOfItsThreadAndTimesItsLast() throws InterruptedException {
        // First throw: explores (high bits 0), the gap after it SAMPLE_EVERY; every later throw: high bits 1, no
        // exploring, the same gap.
        int[] thrown = {0};
        AutoChooser c = new AutoChooser(new AutoThresholds(M1, M1, "test"), true,
                () -> (thrown[0]++ == 0 ? 0 : AutoChooser.GAP_SPAN) + AutoChooser.SAMPLE_EVERY - 1, () -> 0);
        assertEquals(PREAD, c.route(NATIVE, K4), "the exploring call goes the other way, untimed");
        assertEquals(1, thrown[0]);
        for (int k = 2; k < AutoChooser.BURST; k++) {
            assertEquals(PREAD, c.route(NATIVE, K4), "burst call " + k);
            // A call of another class in the middle goes its own way, untimed, and does not count in the burst.
            assertEquals(MAP, c.route(NATIVE, 64 * 1024), "another class during burst call " + k);
            assertEquals(MAP, c.route(HEAP, K4), "another kind during burst call " + k);
        }
        // Another thread, on a stripe of its own, in the middle of the burst: its calls are its own.
        int mine = AutoChooser.stripe(Thread.currentThread().threadId());
        StringBuilder others = new StringBuilder();
        Thread other;
        do {
            other = new Thread(() -> {
                for (int i = 0; i < 3; i++) {
                    others.append(c.route(NATIVE, K4)).append(' ');
                }
            });
        } while (AutoChooser.stripe(other.threadId()) == mine);
        other.start();
        other.join();
        assertEquals((MAP | TIMED) + " " + MAP + " " + MAP + " ", others.toString(),
                "the other thread: its first call timed by the mapping, the next untimed by the mapping");
        assertEquals(2, thrown[0], "no throw within the burst; one for the other thread");
        assertEquals(PREAD | TIMED, c.route(NATIVE, K4), "the burst's last call is timed");
        assertEquals(2, thrown[0], "the gap after the burst was drawn when it started");
        for (int i = 1; i < AutoChooser.SAMPLE_EVERY; i++) {
            assertEquals(MAP, c.route(NATIVE, K4), "call " + i + " after the burst");
        }
        assertEquals(MAP | TIMED, c.route(NATIVE, K4), "the next timed call, SAMPLE_EVERY after the burst's last");
    }

    @Test
    void aBurstWhoseClassDoesNotComeBackIsDropped() {
        int[] thrown = {0};
        AutoChooser c = new AutoChooser(new AutoThresholds(M1, M1, "test"), true,
                () -> (thrown[0]++ == 0 ? 0 : AutoChooser.GAP_SPAN) + AutoChooser.SAMPLE_EVERY - 1, () -> 0);
        assertEquals(PREAD, c.route(NATIVE, K4), "the exploring call");
        for (int i = 0; i < AutoChooser.BURST_REACH; i++) {
            assertEquals(MAP, c.route(NATIVE, 64 * 1024), "another class, call " + i);
        }
        // Dropped: the countdown drawn at the exploring call runs from there, and 4 KiB goes by the mapping again.
        for (int i = 1; i < AutoChooser.SAMPLE_EVERY; i++) {
            assertEquals(MAP, c.route(NATIVE, K4), "call " + i + " after the burst was dropped");
        }
        assertEquals(MAP | TIMED, c.route(NATIVE, K4));
        assertEquals(2, thrown[0]);
    }

    @Test
    void aMarginSmallerThanTheHysteresisDoesNotFlip() {
        Script s = new Script(M1, 0.100, 0.090); // pread 10% faster: inside the 15% margin
        for (int i = 0; i < 2000; i++) {
            s.call(K4);
        }
        assertEquals(MAP, s.chooser.preferred(NATIVE, K4));
    }

    @Test
    void followsAChangeAndBack() {
        Script s = new Script(M1, 0.1, 0.3);
        for (int i = 0; i < 500; i++) {
            s.call(K4);
        }
        assertEquals(MAP, s.chooser.preferred(NATIVE, K4));
        // The data falls out of the page cache: a copy from the mapping now faults every page in, one at a time.
        s.mapNanosPerByte = 2.0;
        int calls = 0;
        while (s.chooser.preferred(NATIVE, K4) == MAP) {
            s.call(K4);
            assertTrue(++calls < 500, "still on the mapping after " + calls + " calls");
        }
        assertEquals(PREAD, s.chooser.preferred(NATIVE, K4));
        // Cached again.
        s.mapNanosPerByte = 0.1;
        calls = 0;
        while (s.chooser.preferred(NATIVE, K4) == PREAD) {
            s.call(K4);
            assertTrue(++calls < 500, "still on pread after " + calls + " calls");
        }
    }

    @Test
    void pinnedThresholdsNeverTimeNorMove() {
        AutoChooser c = new AutoChooser(new AutoThresholds(K4, K4, "pinned"), false, () -> 0, () -> {
            throw new AssertionError("a pinned chooser reads no clock");
        });
        for (int i = 0; i < 1000; i++) {
            assertEquals(MAP, c.route(NATIVE, K4));
            assertEquals(PREAD, c.route(NATIVE, 2 * K4));
        }
    }

    @Test
    void onlyOneCallInSampleEveryIsTimed() {
        // Low bits SAMPLE_EVERY - 1: the next timed call is SAMPLE_EVERY calls away, every time.
        AutoChooser c = new AutoChooser(new AutoThresholds(K4, K4, "test"), true,
                () -> AutoChooser.GAP_SPAN + AutoChooser.SAMPLE_EVERY - 1, () -> 0);
        int timed = 0;
        for (int i = 0; i < 32 * AutoChooser.SAMPLE_EVERY; i++) {
            timed += (c.route(NATIVE, K4) & TIMED) != 0 ? 1 : 0;
        }
        assertEquals(32, timed);
    }

    @Test
    void theDiceAreThrownOnTimedCallsOnlyAndSetTheGapToTheNext() {
        // Gaps of 1, 5, 64 and 128 calls, then 1 again; the high bits (1) never explore.
        int[] lows = {0, 4, 63, 127};
        int[] thrown = {0};
        AutoChooser c = new AutoChooser(new AutoThresholds(K4, K4, "test"), true,
                () -> AutoChooser.GAP_SPAN + lows[thrown[0]++ % lows.length], () -> 0);
        StringBuilder timedAt = new StringBuilder();
        for (int call = 1; call <= 200; call++) {
            int how = c.route(NATIVE, K4);
            if ((how & TIMED) != 0) {
                timedAt.append(call).append(' ');
                assertEquals(MAP, how & MAP, "the dice's high bits say this call does not explore");
            }
        }
        assertEquals("1 2 7 71 199 200 ", timedAt.toString());
        assertEquals(6, thrown[0], "one throw per timed call, none on the others");
    }

    @Test
    void eachThreadCountsDownOnItsOwn() throws InterruptedException {
        // High bits 1: never explores.
        AutoChooser c = new AutoChooser(new AutoThresholds(K4, K4, "test"), true,
                () -> AutoChooser.GAP_SPAN + AutoChooser.SAMPLE_EVERY - 1, () -> 0);
        assertTrue((c.route(NATIVE, K4) & TIMED) != 0, "a thread's first call is timed");
        for (int i = 1; i < AutoChooser.SAMPLE_EVERY / 2; i++) {
            assertEquals(MAP, c.route(NATIVE, K4), "call " + i);
        }
        // Another thread, on a stripe of its own, half-way through this one's countdown: its first call is timed
        // too, and its calls do not move this thread's next timed call.
        int mine = AutoChooser.stripe(Thread.currentThread().threadId());
        int[] otherTimed = {0};
        Thread other;
        do {
            other = new Thread(() -> {
                for (int i = 0; i < AutoChooser.SAMPLE_EVERY; i++) {
                    otherTimed[0] += (c.route(NATIVE, K4) & TIMED) != 0 ? 1 : 0;
                }
            });
        } while (AutoChooser.stripe(other.threadId()) == mine);
        other.start();
        other.join();
        assertEquals(1, otherTimed[0], "the other thread timed its first call and no other");
        for (int i = AutoChooser.SAMPLE_EVERY / 2; i < AutoChooser.SAMPLE_EVERY; i++) {
            assertEquals(MAP, c.route(NATIVE, K4), "call " + i);
        }
        assertTrue((c.route(NATIVE, K4) & TIMED) != 0, "this thread's next timed call is where its own countdown says");
    }

    @Test
    void describeSaysWhatEachClassPrefersAndHowOftenItChanged() {
        Script s = new Script(0, 0.1, 0.3);
        assertEquals("nothing timed yet", s.chooser.describe());
        for (int i = 0; i < 200; i++) {
            s.call(K4);
        }
        String d = s.chooser.describe();
        assertTrue(d.startsWith("native 4 KiB: map (map 409 ns n="), d);
        assertTrue(d.contains(", pread 1228 ns n="), d);
        assertTrue(d.contains(", 1 change, explores " + AutoChooser.BURST + " reads in "), d);
        assertEquals("pinned, nothing timed",
                new AutoChooser(new AutoThresholds(K4, K4, "pinned"), false, () -> 0, () -> 0).describe());
    }

    @Test
    void twoThreadsRecordingAtOnceStillFollowAChange() throws InterruptedException {
        // Starts on pread; both threads report the mapping three times faster, at the same time, into one class.
        AutoChooser c = new AutoChooser(new AutoThresholds(0, 0, "test"), true, () -> 0, () -> 0);
        Thread[] ts = new Thread[2];
        for (int t = 0; t < ts.length; t++) {
            ts[t] = new Thread(() -> {
                for (int i = 0; i < 100_000; i++) {
                    c.record(NATIVE, K4, i % 2 == 0 ? MAP : PREAD, i % 2 == 0 ? 400 : 1200);
                }
            });
            ts[t].start();
        }
        for (Thread t : ts) {
            t.join();
        }
        assertEquals(MAP, c.preferred(NATIVE, K4));
        assertTrue(c.describe().contains("1 change") || c.describe().contains("2 changes"), c.describe());
    }

    @Test
    void thePropertyPinsOneOrTwoSizes() {
        String old = System.getProperty(AutoThresholds.PROPERTY);
        try {
            System.setProperty(AutoThresholds.PROPERTY, "64k");
            AutoThresholds t = AutoThresholds.pinned();
            assertEquals(65536, t.nativeMapMax());
            assertEquals(65536, t.heapMapMax());
            assertTrue(t.source().startsWith("pinned by -Dsluice.auto.map-max=64k"), t.source());
            System.setProperty(AutoThresholds.PROPERTY, "16k,1m");
            assertEquals(new AutoThresholds(16384, M1, t.source().replace("64k", "16k,1m")), AutoThresholds.pinned());
            System.setProperty(AutoThresholds.PROPERTY, "lots");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, AutoThresholds::pinned);
            assertTrue(e.getMessage().contains("'lots' is not a size"), e.getMessage());
        } finally {
            if (old == null) {
                System.clearProperty(AutoThresholds.PROPERTY);
            } else {
                System.setProperty(AutoThresholds.PROPERTY, old);
            }
        }
    }
}
