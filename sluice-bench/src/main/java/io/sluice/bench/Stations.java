package io.sluice.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The weather stations of the One Billion Row Challenge's generator, with the mean temperature of each, read from
 * the resource {@code weather-stations.tsv} beside this class.
 */
final class Stations {
    /** One station: its name, as text and as the UTF-8 bytes written to the file, and its mean temperature. */
    record Station(String name, byte[] utf8, double mean) {
    }

    private static final String RESOURCE = "weather-stations.tsv";
    private static volatile List<Station> all;

    private Stations() {
    }

    /** Every station, in the resource's order. */
    static List<Station> all() {
        List<Station> s = all;
        if (s == null) {
            all = s = load();
        }
        return s;
    }

    private static List<Station> load() {
        try (InputStream in = Stations.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the resource " + RESOURCE + " is missing from the jar");
            }
            List<Station> out = new ArrayList<>();
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line; (line = r.readLine()) != null; ) {
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                int tab = line.indexOf('\t');
                String name = line.substring(0, tab);
                out.add(new Station(name, name.getBytes(StandardCharsets.UTF_8),
                        Double.parseDouble(line.substring(tab + 1))));
            }
            return List.copyOf(out);
        } catch (IOException e) {
            throw new UncheckedIOException("reading the resource " + RESOURCE, e);
        }
    }
}
