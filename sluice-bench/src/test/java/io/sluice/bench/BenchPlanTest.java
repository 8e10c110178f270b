package io.sluice.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@code sluice bench all}'s plan: which sections run with which arguments within a budget. */
class BenchPlanTest {
    @Test
    void aBudgetRaisesTheSeedsSectionsFirstAndNeverPassesIt() {
        Map<String, Set<String>> sections = new LinkedHashMap<>();
        for (BenchPlan.Sizes s : BenchPlan.KNOWN) {
            sections.put(s.name(), Set.of("--dir", "--json", "--size", "--rounds"));
        }
        double quick = BenchPlan.total(BenchPlan.plan(sections, Map.of(), 1, true));
        assertTrue(quick > 60 && quick < 180, "quick is about two minutes: " + quick);
        assertEquals(quick, BenchPlan.total(BenchPlan.plan(sections, Map.of(), 1, false)), 1e-9,
                "below the quick estimate everything stays quick");
        for (double budget : new double[] {200, 600, 1200, 3600}) {
            List<BenchPlan.Step> steps = BenchPlan.plan(sections, Map.of(), budget, false);
            assertTrue(BenchPlan.total(steps) <= budget, budget + ": " + BenchPlan.total(steps));
        }
        List<BenchPlan.Step> some = BenchPlan.plan(sections, Map.of(), quick + 60, false);
        assertEquals(BenchPlan.Level.MEDIUM, level(some, "uring"), "uring (seed 004) is raised first");
        assertEquals(BenchPlan.Level.QUICK, level(some, "kv"), "kv last");
        List<BenchPlan.Step> all = BenchPlan.plan(sections, Map.of(), 24 * 3600, false);
        for (BenchPlan.Step s : all) {
            assertEquals(BenchPlan.Level.FULL, s.level(), s.name());
        }
    }

    private static BenchPlan.Level level(List<BenchPlan.Step> steps, String name) {
        return steps.stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow().level();
    }

    @Test
    void aSkippedSectionCostsNothingAndKeepsItsReason() {
        Map<String, Set<String>> sections = new LinkedHashMap<>();
        sections.put("uring", Set.of("--json"));
        sections.put("zip", Set.of("--json", "--dir"));
        List<BenchPlan.Step> steps = BenchPlan.plan(sections, Map.of("uring", "io_uring is unavailable here: EPERM"),
                600, false);
        assertEquals("io_uring is unavailable here: EPERM", steps.get(0).skip());
        assertEquals(0, steps.get(0).seconds());
        assertEquals(BenchPlan.Level.FULL, steps.get(1).level());
    }

    @Test
    void aSectionAddedLaterJoinsWithItsSizeAndRoundsScaled() {
        Map<String, Set<String>> sections = new LinkedHashMap<>();
        sections.put("lines", Set.of("--size", "--rounds", "--dir", "--json", "--threads"));
        sections.put("odd", Set.of("--json"));
        List<BenchPlan.Step> steps = BenchPlan.plan(sections, Map.of(), 1, true);
        assertEquals(List.of("bench", "lines", "--size", "64m", "--rounds", "3", "--dir", "/d", "--json", "/j"),
                steps.get(0).commandLine(Path.of("/d"), true, Path.of("/j")));
        assertEquals(List.of("bench", "odd", "--json", "/j"), steps.get(1).commandLine(Path.of("/d"), false,
                Path.of("/j")), "no --dir for a section without one");
    }

    @Test
    void optionsOfBenchItselfGoBeforeTheSubcommand() {
        Map<String, Set<String>> sections = new LinkedHashMap<>();
        sections.put("engines", Set.of("--dir", "--json", "--size"));
        sections.put("uring", Set.of("--json"));
        List<BenchPlan.Step> steps = BenchPlan.plan(sections, Map.of(), 1, true);
        List<String> engines = steps.get(0).commandLine(Path.of("/d"), true, Path.of("/j"));
        assertEquals(List.of("bench", "--size", "256m", "--block-sizes", "4k", "--rounds", "3", "--duration", "100",
                "--dir", "/d", "--no-fio", "--json", "/j"), engines);
        List<String> uring = steps.get(1).commandLine(null, false, Path.of("/j"));
        assertEquals(List.of("bench", "--size", "256m", "uring"), uring.subList(0, 4));
        assertEquals(List.of("--json", "/j"), uring.subList(uring.size() - 2, uring.size()));
    }
}
