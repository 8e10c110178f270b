package io.sluice.lucene.bench;

import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The generated text of {@code sluice bench lucene}: a vocabulary of made-up words whose frequencies follow Zipf's law
 * (a few words everywhere, most rare, as in natural text), and documents of sentences drawn from it. Everything
 * follows from the seed, so a run with the same seed indexes the same documents.
 */
final class Corpus {
    /** Words in the vocabulary. */
    static final int VOCABULARY = 50_000;
    /** Zipf's exponent: about 1 for English words. */
    static final double EXPONENT = 1.07;
    static final String[] CATEGORIES = {"news", "sports", "science", "arts", "travel", "health", "business",
        "opinion", "technology", "food", "books", "music", "film", "weather", "education", "politics"};

    private final String[] words;
    private final double[] cumulative;

    Corpus(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        words = new String[VOCABULARY];
        Set<String> seen = new HashSet<>();
        for (int rank = 0; rank < VOCABULARY; rank++) {
            // Common words are short, as in natural text; a longer attempt after a collision.
            int base = 2 + (31 - Integer.numberOfLeadingZeros(rank + 2)) / 2;
            String w;
            int attempt = 0;
            do {
                int length = Math.min(14, base + r.nextInt(4) + attempt++ / 4);
                StringBuilder b = new StringBuilder(length);
                for (int i = 0; i < length; i++) {
                    b.append((char) ('a' + r.nextInt(26)));
                }
                w = b.toString();
            } while (!seen.add(w));
            words[rank] = w;
        }
        cumulative = new double[VOCABULARY];
        double sum = 0;
        for (int rank = 0; rank < VOCABULARY; rank++) {
            sum += 1 / Math.pow(rank + 1, EXPONENT);
            cumulative[rank] = sum;
        }
    }

    /** The word of this frequency rank (0: the most common). */
    String word(int rank) {
        return words[rank];
    }

    /** A rank drawn by the words' frequencies in the text. */
    int zipfRank(SplittableRandom r) {
        double u = r.nextDouble() * cumulative[VOCABULARY - 1];
        int lo = 0;
        int hi = VOCABULARY - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (cumulative[mid] < u) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * A rank drawn evenly on a logarithmic scale from {@code from} (inclusive) to {@code to} (exclusive): as many words
     * of ranks 10-100 as of 1,000-10,000, so queries cover common, middling and rare terms alike.
     */
    static int logUniformRank(SplittableRandom r, int from, int to) {
        double lo = Math.log(from + 1);
        double hi = Math.log(to + 1);
        int rank = (int) Math.exp(lo + r.nextDouble() * (hi - lo)) - 1;
        return Math.max(from, Math.min(to - 1, rank));
    }

    /** Appends {@code count} words as sentences (a capital, a full stop every 6 to 20 words) to {@code b}. */
    void sentences(StringBuilder b, SplittableRandom r, int count) {
        int left = 0;
        for (int i = 0; i < count; i++) {
            if (left == 0) {
                if (i > 0) {
                    b.append(". ");
                }
                left = 6 + r.nextInt(15);
                String w = words[zipfRank(r)];
                b.append(Character.toUpperCase(w.charAt(0))).append(w, 1, w.length());
            } else {
                b.append(' ').append(words[zipfRank(r)]);
            }
            left--;
        }
        b.append('.');
    }
}
