package io.sluice.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.report.SeedClaims.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The seeds' claims as data, and their verdicts against rows. */
class SeedClaimsTest {
    private static final SeedClaims CLAIMS = SeedClaims.load();

    @Test
    void everySeedIsThereAndEveryReadingNamesAKnownSection() {
        Set<String> known = Set.of("engines", "uring", "write", "jruby", "bigfile", "zip", "chunks", "kv");
        List<String> ids = new ArrayList<>();
        for (SeedClaims.Seed s : CLAIMS.seeds()) {
            ids.add(s.id());
            assertNotNull(s.machine(), s.id());
            assertFalse(s.comparisons().isEmpty(), s.id());
            for (SeedClaims.Comparison c : s.comparisons()) {
                assertNotNull(c.why(), c.caption());
                for (SeedClaims.Reading r : c.ours()) {
                    assertTrue(known.contains(r.section()) && s.sections().contains(r.section()), r.toString());
                    assertTrue(c.kind() != SeedClaims.Kind.RATIO || r.base() != null, r.toString());
                }
                for (SeedClaims.ClaimRow row : c.rows()) {
                    double ratio = c.kind() == SeedClaims.Kind.RATE ? row.seed().get(0) : SeedClaims.seedRatio(c, row);
                    assertTrue(ratio > 0, c.caption() + " " + row.label());
                }
            }
        }
        assertEquals(List.of("000", "001", "002", "003", "004"), ids);
    }

    @Test
    void theSeedsOwnRatiosComeOutAsTheySaidThem() {
        // seed 004: +426% at 4 KiB; seed 003: bigStored_parallel -68% time on x86; seed 001: 19 to 30 MB/s
        assertEquals(5.26, seedRatio("004", 0, "4 KiB"), 0.01);
        assertEquals(3.19, seedRatio("003", 0, "big stored, parallel"), 0.01);
        assertEquals(1.58, seedRatio("001", 0, "JRuby, USB SATA disk"), 0.01);
        assertEquals(2.86, seedRatio("000", 0, "1k chunks"), 0.01);
    }

    private static double seedRatio(String seed, int comparison, String label) {
        for (SeedClaims.Seed s : CLAIMS.seeds()) {
            if (s.id().equals(seed)) {
                SeedClaims.Comparison c = s.comparisons().get(comparison);
                for (SeedClaims.ClaimRow r : c.rows()) {
                    if (r.label().equals(label)) {
                        return SeedClaims.seedRatio(c, r);
                    }
                }
            }
        }
        throw new AssertionError("no " + label + " in seed " + seed);
    }

    @Test
    void verdictsCompareDirectionsWithATenPercentLevel() {
        assertEquals(Verdict.HOLDS, SeedClaims.verdict(5.26, 3.86));
        assertEquals(Verdict.HOLDS, SeedClaims.verdict(1.03, 0.95), "both level");
        assertEquals(Verdict.HOLDS, SeedClaims.verdict(0.5, 0.8));
        assertEquals(Verdict.FALLS_SHORT, SeedClaims.verdict(5.26, 0.92), "ours level where the seed's first won");
        assertEquals(Verdict.EXCEEDED, SeedClaims.verdict(1.0, 1.5), "the seed level, ours faster");
        assertEquals(Verdict.EXCEEDED, SeedClaims.verdict(1.04, 5.22), "zip: the seed level, ours far ahead");
        assertEquals(Verdict.FALLS_SHORT, SeedClaims.verdict(1.0, 0.5), "the seed level, ours slower");
        assertEquals(Verdict.EXCEEDED, SeedClaims.verdict(0.4, 1.0), "the seed's first slower, ours level");
        assertEquals(Verdict.INVERTED, SeedClaims.verdict(3.31, 0.14));
        assertEquals(Verdict.INVERTED, SeedClaims.verdict(0.85, 1.23));
        assertEquals(Verdict.HOLDS, SeedClaims.verdict(1.10, 1.10), "the edge counts as faster");
        assertEquals(Verdict.NOT_MEASURED, SeedClaims.verdict(2, Double.NaN));
        assertEquals(Verdict.NOT_MEASURED, SeedClaims.verdict(2, 0), "a zero base or row says nothing");
    }

    @Test
    void aReadingFindsItsRowsBatchedFewestThreadsAndTheSameThreadsBase() {
        SeedClaims.Comparison reads = comparison("004", 0);
        SeedClaims.Reading warm = reads.ours().get(0);
        List<ReportRow> rows = List.of(
                row("CHANNEL", "randread", 4096, 1, 1, 1000, Map.of()),
                row("CHANNEL", "randread", 4096, 2, 1, 1900, Map.of()),
                row("IO_URING", "randread", 4096, 1, 1, 700, Map.of()),
                row("IO_URING", "randread", 4096, 2, 32, 1950, Map.of()),
                row("IO_URING", "randread", 4096, 1, 32, 950, Map.of()),
                row("fio-io_uring", "randread", 4096, 1, 32, 5000, Map.of()));
        SeedClaims.Outcome o = SeedClaims.evaluate(reads, reads.rows().get(1), warm, rows, null);
        assertEquals(0.95, o.ratio(), 1e-9, "depth 32 at one thread against CHANNEL at one thread");
        assertEquals(Verdict.FALLS_SHORT, o.verdict());
        SeedClaims.Outcome missing = SeedClaims.evaluate(reads, reads.rows().get(0), warm, rows, null);
        assertEquals(Verdict.NOT_MEASURED, missing.verdict(), "no 512 B rows");
    }

    @Test
    void anAtBaselineBaseIsTheBaselineTheSectionChoseForTheRow() {
        SeedClaims.Comparison chunks = comparison("001", 1);
        List<ReportRow> rows = List.of(
                row("adaptive", "maf-parse", 0, 1, 1, 0, Map.of("cache", "warm", "baseline", "256 KiB", "mbPerSec", 500.0)),
                row("128 KiB", "maf-parse", 131072, 1, 1, 0, Map.of("cache", "warm", "baseline", "256 KiB",
                        "mbPerSec", 540.0)),
                row("256 KiB", "maf-parse", 262144, 1, 1, 0, Map.of("cache", "warm", "baseline", "256 KiB",
                        "mbPerSec", 520.0)));
        SeedClaims.Outcome o = SeedClaims.evaluate(chunks, chunks.rows().get(0), chunks.ours().get(0), rows, null);
        assertEquals(500.0 / 520, o.ratio(), 1e-9, "@baseline is the row's own baseline");
        assertEquals(Verdict.HOLDS, o.verdict());
    }

    @Test
    void aMemoryClaimNeedsTheMachinesCopyRate() {
        SeedClaims.Comparison sum = comparison("002", 1);
        List<ReportRow> rows = List.of(row("BigFiles.sum", "sum", 1 << 20, 2, 1, 20, Map.of()));
        assertEquals(Verdict.NOT_MEASURED,
                SeedClaims.evaluate(sum, sum.rows().get(0), sum.ours().get(0), rows, null).verdict());
        SeedClaims.Outcome o = SeedClaims.evaluate(sum, sum.rows().get(0), sum.ours().get(0), rows,
                Map.of("memoryCopyMBps", 10000));
        assertEquals(Verdict.EXCEEDED, o.verdict(), "about twice the copy rate");
        assertEquals(Verdict.HOLDS, SeedClaims.evaluate(sum, sum.rows().get(0), sum.ours().get(0), rows,
                Map.of("memoryCopyMBps", 20000)).verdict(), "within 10% of it");
        assertEquals(Verdict.FALLS_SHORT, SeedClaims.evaluate(sum, sum.rows().get(0), sum.ours().get(0), rows,
                Map.of("memoryCopyMBps", 40000)).verdict(), "half of it");
    }

    @Test
    void aClaimHasOneVerdictTheMostOfItsMeasuredCellsHaveTheLessFavourableOnATie() {
        assertEquals(Verdict.HOLDS, SeedClaims.overall(List.of(Verdict.HOLDS, Verdict.HOLDS, Verdict.FALLS_SHORT,
                Verdict.NOT_MEASURED, Verdict.NOT_MEASURED, Verdict.NOT_MEASURED)), "unmeasured cells do not vote");
        assertEquals(Verdict.FALLS_SHORT, SeedClaims.overall(List.of(Verdict.HOLDS, Verdict.FALLS_SHORT)));
        assertEquals(Verdict.INVERTED, SeedClaims.overall(List.of(Verdict.EXCEEDED, Verdict.INVERTED)));
        assertEquals(Verdict.EXCEEDED, SeedClaims.overall(List.of(Verdict.EXCEEDED, Verdict.EXCEEDED, Verdict.HOLDS)));
        assertEquals(Verdict.NOT_MEASURED, SeedClaims.overall(List.of(Verdict.NOT_MEASURED)));
        assertEquals(Verdict.NOT_MEASURED, SeedClaims.overall(List.of()));
    }

    @Test
    void everySeedSaysWhatItClaimedWhereItWasPublishedAndOnWhatMachine() {
        for (SeedClaims.Seed s : CLAIMS.seeds()) {
            assertNotNull(s.claim(), s.id());
            assertNotNull(s.published(), s.id());
            String sentence = ReportPage.seedSentence(s);
            assertTrue(sentence.contains("It claimed: " + s.claim()) && sentence.contains("Published: ")
                    && sentence.contains("Its machine: "), sentence);
        }
    }

    private static SeedClaims.Comparison comparison(String seed, int i) {
        return CLAIMS.seeds().stream().filter(s -> s.id().equals(seed)).findFirst().orElseThrow().comparisons().get(i);
    }

    /** A row whose MB/s is ops/ms times the block size (or {@code ops} MB/s without one). */
    private static ReportRow row(String engine, String workload, long block, int threads, int depth, double ops,
                                 Map<String, Object> more) {
        Map<String, Object> m = new java.util.LinkedHashMap<>(more);
        m.put("engine", engine);
        m.put("workload", workload);
        m.put("blockSize", (double) block);
        m.put("threads", (double) threads);
        m.put("depth", (double) depth);
        m.put("direct", false);
        m.put("opsPerMs", ops);
        m.put("mbPerSec", block > 0 ? ops * block / 1000 : ops * 1000);
        m.putAll(more);
        return new ReportRow(m);
    }
}
