package io.sluice.report;

import java.util.List;

/**
 * Who leads one group of rows measured side by side (a block size and thread count of a chart), and whether by more
 * than the rows' own noise.
 *
 * <p>The rule: the best row leads <em>clearly</em> when its median over the runner-up's, minus one, exceeds the larger
 * of the two rows' spreads and at least {@link #MARGIN}; a row of one round has no spread, so only the margin applies.
 * Otherwise the group is level within noise and no winner is named. A row is <em>noisy</em> when its spread is at
 * least {@link #NOISY}: its rounds disagree by half its median or more.
 *
 * @param best     the row with the highest figure, or null when the group has none
 * @param runnerUp the next, or null when the group has one row
 * @param ratio    best over runner-up, NaN without a runner-up
 * @param clear    whether the lead is beyond the spread and the margin
 */
record Standing(ReportRow best, ReportRow runnerUp, double ratio, boolean clear) {
    /** The spread from which a row is flagged as noisy: 50%. */
    static final double NOISY = 0.5;
    /** The smallest lead that names a winner, whatever the spreads: 10%, the claims' level. */
    static final double MARGIN = SeedClaims.LEVEL - 1;

    /** The standing of {@code rows} (fio's left out) by ops/ms or by MB/s. */
    static Standing of(List<ReportRow> rows, boolean ops) {
        ReportRow best = null;
        ReportRow second = null;
        for (ReportRow r : rows) {
            double v = value(r, ops);
            if (r.isFio() || Double.isNaN(v)) {
                continue;
            }
            if (best == null || v > value(best, ops)) {
                second = best;
                best = r;
            } else if (second == null || v > value(second, ops)) {
                second = r;
            }
        }
        if (best == null || second == null) {
            return new Standing(best, second, Double.NaN, false);
        }
        double ratio = value(best, ops) / value(second, ops);
        double noise = Math.max(MARGIN, Math.max(knownSpread(best), knownSpread(second)));
        return new Standing(best, second, ratio, ratio - 1 > noise);
    }

    static double value(ReportRow r, boolean ops) {
        return ops ? r.opsPerMs() : r.mbPerSec();
    }

    /** The row's spread, 0 where it has none to speak of (one round, or none recorded). */
    private static double knownSpread(ReportRow r) {
        return r.rounds() == 1 || Double.isNaN(r.spread()) ? 0 : r.spread();
    }

    /** Whether the row's rounds disagree by {@link #NOISY} of its median or more. */
    static boolean noisy(ReportRow r) {
        return r.rounds() != 1 && !Double.isNaN(r.spread()) && r.spread() >= NOISY;
    }

    /** The row's spread as the page writes it: "12%", "716% (noisy)", "1 round: no spread", or empty. */
    static String spreadText(ReportRow r) {
        if (r.rounds() == 1) {
            return "1 round: no spread";
        }
        if (Double.isNaN(r.spread())) {
            return "";
        }
        return Format.percent(r.spread()) + (noisy(r) ? " (noisy)" : "");
    }
}
