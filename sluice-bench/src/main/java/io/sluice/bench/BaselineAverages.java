package io.sluice.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collector;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The One Billion Row Challenge's reference solution, the "baseline", as an algorithm: the file's lines as a stream
 * of Strings ({@link Files#lines}), each split at ';' and its temperature parsed with {@link Double#parseDouble},
 * grouped by station with a collector keeping the minimum, maximum, sum and count in doubles, into a {@link TreeMap}
 * printed with its own {@code toString}. One thread, as the baseline runs. Written here from that description: what it
 * measures is the cost of the plain Java way.
 *
 * <p>The challenge's output format and rounding: {@code {Abha=-23.0/18.0/59.2, Abidjan=...}}, stations sorted, each
 * value rounded to one decimal with {@code Math.round(v * 10.0) / 10.0} (halves up), the mean taken from the sum
 * rounded that way first.
 */
final class BaselineAverages {
    private BaselineAverages() {
    }

    /** One station's running figures, in doubles as the baseline keeps them. */
    private static final class Figures {
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        double sum;
        long count;

        void add(double value) {
            min = Math.min(min, value);
            max = Math.max(max, value);
            sum += value;
            count++;
        }

        Figures combine(Figures other) {
            min = Math.min(min, other.min);
            max = Math.max(max, other.max);
            sum += other.sum;
            count += other.count;
            return this;
        }
    }

    /** What is printed per station: minimum, mean and maximum. */
    private record Summary(double min, double mean, double max, long count) {
        @Override
        public String toString() {
            return tenth(min) + "/" + tenth(mean) + "/" + tenth(max);
        }

        private static double tenth(double v) {
            return Math.round(v * 10.0) / 10.0;
        }
    }

    private record Measurement(String station, double value) {
    }

    /** Reads {@code file} and returns the challenge's output for it. */
    static Averages run(Path file) throws IOException {
        Collector<Measurement, Figures, Summary> figures = Collector.of(Figures::new, (f, m) -> f.add(m.value()),
                Figures::combine, f -> new Summary(f.min, (Math.round(f.sum * 10.0) / 10.0) / f.count, f.max,
                        f.count));
        Map<String, Summary> byStation;
        try (Stream<String> lines = Files.lines(file)) {
            byStation = new TreeMap<>(lines.map(line -> {
                String[] fields = line.split(";");
                return new Measurement(fields[0], Double.parseDouble(fields[1]));
            }).collect(Collectors.groupingBy(Measurement::station, figures)));
        }
        long rows = 0;
        for (Summary s : byStation.values()) {
            rows += s.count();
        }
        return new Averages(byStation.toString(), rows);
    }
}
