package io.sluice.maf;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Writes MAF test data of a realistic shape: a 20-way multiz-style alignment against {@code hg38}, as UCSC
 * publishes them. Blocks of a few to a few thousand columns (most under 300), rows for the species present (close
 * ones nearly always, distant ones seldom), diverged copies of the reference with gaps, soft-masked stretches in
 * lower case, {@code i} lines in most blocks, {@code q} lines for low-coverage assemblies, {@code e} lines for
 * species bridged across the block, fields padded into columns. Deterministic: the same size and seed give the same
 * bytes.
 */
public final class MafGenerator {
    /** Assembly, presence per block, substitutions per column, and whether it carries qualities. */
    private record Species(String name, double presence, double divergence, boolean quality, boolean scaffolds,
                           int chromosomes) {
    }

    private static final Species[] SPECIES = {
        new Species("hg38", 1.0, 0.0, false, false, 22),
        new Species("panTro4", 0.97, 0.012, false, false, 23),
        new Species("gorGor3", 0.95, 0.016, false, false, 23),
        new Species("ponAbe2", 0.94, 0.03, false, false, 23),
        new Species("rheMac3", 0.92, 0.06, false, false, 21),
        new Species("calJac3", 0.85, 0.1, false, false, 22),
        new Species("otoGar3", 0.6, 0.2, true, true, 0),
        new Species("mm10", 0.55, 0.25, false, false, 19),
        new Species("rn5", 0.5, 0.26, false, false, 20),
        new Species("oryCun2", 0.5, 0.22, true, true, 0),
        new Species("bosTau7", 0.55, 0.2, false, false, 29),
        new Species("canFam3", 0.6, 0.19, false, false, 38),
        new Species("felCat5", 0.55, 0.19, true, false, 18),
        new Species("equCab2", 0.58, 0.18, false, false, 31),
        new Species("loxAfr3", 0.5, 0.21, true, true, 0),
        new Species("monDom5", 0.3, 0.32, false, false, 8),
        new Species("ornAna1", 0.2, 0.36, true, true, 0),
        new Species("galGal4", 0.2, 0.38, false, false, 30),
        new Species("xenTro3", 0.12, 0.42, false, true, 0),
        new Species("danRer7", 0.08, 0.45, false, false, 25),
    };

    /** hg38's autosomes, in bases. */
    private static final long[] HG38 = {
        248_956_422, 242_193_529, 198_295_559, 190_214_555, 181_538_259, 170_805_979, 159_345_973, 145_138_636,
        138_394_717, 133_797_422, 135_086_622, 133_275_309, 114_364_328, 107_043_718, 101_991_189, 90_338_345,
        83_257_441, 80_373_285, 58_617_616, 64_444_167, 46_709_983, 50_818_468,
    };

    private static final byte[] BASES = {'A', 'C', 'G', 'T'};
    private static final byte[] INFO_STATUS = {'C', 'C', 'C', 'C', 'I', 'N', 'n', 'M', 'T'};
    private static final byte[] EMPTY_STATUS = {'C', 'I', 'M', 'n', 'T'};
    private static final int MAX_COLUMNS = 4000;

    private final SplittableRandom random;
    private final OutputStream out;
    private final byte[] buf = new byte[1 << 20];
    private int used;
    private long written;

    /** Per species: current chromosome or scaffold, forward position on it, strand. */
    private final int[] chrom = new int[SPECIES.length];
    private final long[] pos = new long[SPECIES.length];
    private final boolean[] minus = new boolean[SPECIES.length];
    /** Per species: the source name of its current chromosome or scaffold, as bytes. */
    private final byte[][] names = new byte[SPECIES.length][];

    private final byte[][] texts = new byte[SPECIES.length][MAX_COLUMNS];
    private final byte[] qualities = new byte[MAX_COLUMNS];
    private final int[] present = new int[SPECIES.length];
    private final long[] starts = new long[SPECIES.length];
    private final long[] sizes = new long[SPECIES.length];

    private MafGenerator(OutputStream out, long seed) {
        this.out = out;
        this.random = new SplittableRandom(seed);
        for (int s = 1; s < SPECIES.length; s++) {
            chrom[s] = pickChrom(s);
            pos[s] = random.nextLong(chromSize(s, chrom[s]) / 2);
            minus[s] = random.nextInt(4) == 0;
        }
        pos[0] = 10_000;
        chrom[0] = 1;
        for (int s = 0; s < SPECIES.length; s++) {
            names[s] = chromName(s);
        }
    }

    /**
     * Writes at least {@code size} bytes of MAF to {@code file} (created or replaced), ending with a whole block.
     *
     * @return the number of blocks written
     */
    public static long write(Path file, long size, long seed) throws IOException {
        try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
            return write(o, size, seed);
        }
    }

    /** Writes at least {@code size} bytes of MAF to {@code out}, ending with a whole block; returns the blocks. */
    public static long write(OutputStream out, long size, long seed) throws IOException {
        MafGenerator g = new MafGenerator(out, seed);
        g.put("##maf version=1 scoring=roast.v3.3\n");
        g.put("# generated by sluice-maf MafGenerator, seed " + seed + ": a 20-way alignment against hg38\n\n");
        long blocks = 0;
        while (g.written + g.used < size) {
            g.block();
            blocks++;
        }
        g.flush();
        return blocks;
    }

    // ---------------------------------------------------------------- one block

    private void block() throws IOException {
        int cols = columns();
        byte[] ref = texts[0];
        // The reference row: bases, a soft-masked stretch now and then, gaps where other species have insertions.
        for (int i = 0; i < cols; i += 32) {
            long bits = random.nextLong();
            for (int k = 0; k < 32 && i + k < cols; k++) {
                ref[i + k] = BASES[(int) (bits >>> (2 * k)) & 3];
            }
        }
        if (random.nextInt(10) < 3) {
            int a = random.nextInt(cols);
            int b = Math.min(cols, a + 1 + random.nextInt(Math.max(1, cols / 2)));
            for (int i = a; i < b; i++) {
                ref[i] |= 0x20;
            }
        }
        gaps(ref, cols, 0.006, 8);
        int rows = 0;
        present[rows++] = 0;
        for (int s = 1; s < SPECIES.length; s++) {
            if (random.nextDouble() < SPECIES[s].presence()) {
                derive(s, cols);
                present[rows++] = s;
            }
        }
        if (count(ref, cols) == 0) {
            ref[0] = 'A';
        }
        // Coordinates: each row's bases follow on from its previous block, on its strand.
        for (int r = 0; r < rows; r++) {
            int s = present[r];
            long bases = count(texts[s], cols);
            long srcSize = chromSize(s, chrom[s]);
            if (pos[s] + bases > srcSize) {
                nextChrom(s);
                srcSize = chromSize(s, chrom[s]);
            }
            sizes[s] = bases;
            starts[s] = minus[s] ? srcSize - pos[s] - bases : pos[s];
            pos[s] += bases;
        }
        int srcWidth = 0;
        int startWidth = 0;
        int sizeWidth = 0;
        int srcSizeWidth = 0;
        for (int r = 0; r < rows; r++) {
            int s = present[r];
            srcWidth = Math.max(srcWidth, srcLength(s));
            startWidth = Math.max(startWidth, digits(starts[s]));
            sizeWidth = Math.max(sizeWidth, digits(sizes[s]));
            srcSizeWidth = Math.max(srcSizeWidth, digits(chromSize(s, chrom[s])));
        }
        ensure(64);
        put("a score=");
        putNumber(random.nextLong(-20_000, 400_000), 0);
        put(".000000\n");
        boolean infoLines = random.nextInt(10) < 7;
        int lineMax = srcWidth + startWidth + sizeWidth + srcSizeWidth + 16 + cols;
        for (int r = 0; r < rows; r++) {
            int s = present[r];
            ensure(lineMax);
            int lineAt = used;
            put("s ");
            putSrc(s, srcWidth);
            putNumber(starts[s], startWidth + 1);
            putNumber(sizes[s], sizeWidth + 1);
            buf[used++] = ' ';
            buf[used++] = (byte) (minus[s] ? '-' : '+');
            putNumber(chromSize(s, chrom[s]), srcSizeWidth + 1);
            buf[used++] = ' ';
            int textColumn = used - lineAt;
            System.arraycopy(texts[s], 0, buf, used, cols);
            used += cols;
            buf[used++] = '\n';
            if (SPECIES[s].quality()) {
                quality(s, cols, srcWidth, textColumn);
            }
            if (r > 0 && infoLines) {
                ensure(srcWidth + 40);
                put("i ");
                putSrc(s, srcWidth);
                info();
                buf[used++] = ' ';
                info();
                buf[used++] = '\n';
            }
        }
        if (random.nextInt(10) < 3) {
            for (int s = 1, e = 0; s < SPECIES.length && e < 2; s++) {
                if (!isPresent(s, rows) && random.nextInt(4) == 0) {
                    emptyLine(s);
                    e++;
                }
            }
        }
        ensure(1);
        buf[used++] = '\n';
        pos[0] += random.nextLong(0, 300);
    }

    private int columns() {
        int k = random.nextInt(100);
        int cols = k < 45 ? random.nextInt(10, 80) : k < 85 ? random.nextInt(80, 250)
                : k < 97 ? random.nextInt(250, 800) : random.nextInt(800, 3000);
        return Math.min(cols, MAX_COLUMNS);
    }

    /** A row of species {@code s}: the reference diverged, with gaps of its own and bases in the reference's gaps. */
    private void derive(int s, int cols) {
        byte[] ref = texts[0];
        byte[] t = texts[s];
        System.arraycopy(ref, 0, t, 0, cols);
        double d = SPECIES[s].divergence();
        for (int i = skip(d); i < cols; i += 1 + skip(d)) {
            byte b = BASES[random.nextInt(4)];
            t[i] = t[i] == '-' ? b : (byte) (b | (t[i] & 0x20));
        }
        for (int i = 0; i < cols; i++) {
            if (ref[i] == '-' && t[i] == '-' && random.nextBoolean()) {
                t[i] = BASES[random.nextInt(4)];
            }
        }
        gaps(t, cols, 0.004 + d * 0.03, 20);
        if (count(t, cols) == 0) {
            t[cols - 1] = 'G';
        }
    }

    /** Gap runs of 1 to {@code longest} columns starting at about {@code rate} per column. */
    private void gaps(byte[] t, int cols, double rate, int longest) {
        for (int i = skip(rate); i < cols; i += 1 + skip(rate)) {
            int end = Math.min(cols, i + 1 + random.nextInt(longest));
            Arrays.fill(t, i, end, (byte) '-');
            i = end;
        }
    }

    /** Columns to the next event of probability {@code p} per column (geometric), without a draw per column. */
    private int skip(double p) {
        if (p <= 0) {
            return Integer.MAX_VALUE / 2;
        }
        double u = 1 - random.nextDouble();
        return (int) Math.min(Integer.MAX_VALUE / 2, Math.floor(Math.log(u) / Math.log1p(-p)));
    }

    private void quality(int s, int cols, int srcWidth, int textColumn) throws IOException {
        byte[] t = texts[s];
        Arrays.fill(qualities, 0, cols, (byte) '9');
        for (int i = skip(0.15); i < cols; i += 1 + skip(0.15)) {
            int v = random.nextInt(11);
            qualities[i] = (byte) (v == 10 ? 'F' : '0' + v);
        }
        for (int i = 0; i < cols; i++) {
            if (t[i] == '-') {
                qualities[i] = '-';
            }
        }
        ensure(textColumn + cols + 1);
        int lineAt = used;
        put("q ");
        putSrc(s, srcWidth);
        while (used - lineAt < textColumn) {
            buf[used++] = ' ';
        }
        System.arraycopy(qualities, 0, buf, used, cols);
        used += cols;
        buf[used++] = '\n';
    }

    private void info() {
        byte status = INFO_STATUS[random.nextInt(INFO_STATUS.length)];
        buf[used++] = status;
        buf[used++] = ' ';
        long count = status == 'I' || status == 'M' ? random.nextLong(1, 20_000) : 0;
        putNumber(count, 0);
    }

    private void emptyLine(int s) throws IOException {
        long srcSize = chromSize(s, chrom[s]);
        long size = Math.min(srcSize - pos[s], random.nextLong(1, 5000));
        long start = minus[s] ? srcSize - pos[s] - size : pos[s];
        ensure(srcLength(s) + 80);
        put("e ");
        putSrc(s, 0);
        putNumber(start, 0);
        buf[used++] = ' ';
        putNumber(size, 0);
        buf[used++] = ' ';
        buf[used++] = (byte) (minus[s] ? '-' : '+');
        buf[used++] = ' ';
        putNumber(srcSize, 0);
        buf[used++] = ' ';
        buf[used++] = EMPTY_STATUS[random.nextInt(EMPTY_STATUS.length)];
        buf[used++] = '\n';
    }

    private boolean isPresent(int s, int rows) {
        for (int r = 0; r < rows; r++) {
            if (present[r] == s) {
                return true;
            }
        }
        return false;
    }

    private static int count(byte[] t, int cols) {
        int n = 0;
        for (int i = 0; i < cols; i++) {
            if (t[i] != '-') {
                n++;
            }
        }
        return n;
    }

    // ---------------------------------------------------------------- chromosomes and scaffolds

    private int pickChrom(int s) {
        Species sp = SPECIES[s];
        return sp.scaffolds() ? random.nextInt(1, 200_000) : random.nextInt(1, sp.chromosomes() + 1);
    }

    private void nextChrom(int s) {
        if (s == 0) {
            chrom[0] = chrom[0] % HG38.length + 1;
            pos[0] = 10_000;
        } else {
            chrom[s] = pickChrom(s);
            pos[s] = random.nextLong(Math.max(1, chromSize(s, chrom[s]) / 4));
            minus[s] = random.nextInt(4) == 0;
        }
        names[s] = chromName(s);
    }

    /** The size of chromosome or scaffold {@code c} of species {@code s}: fixed by the names, not the seed. */
    private static long chromSize(int s, int c) {
        if (s == 0) {
            return HG38[Math.max(0, c - 1) % HG38.length];
        }
        long h = (s * 0x9E3779B97F4A7C15L) ^ (c * 0xC2B2AE3D27D4EB4FL);
        h ^= h >>> 31;
        h *= 0xBF58476D1CE4E5B9L;
        h ^= h >>> 29;
        long r = h & Long.MAX_VALUE;
        return SPECIES[s].scaffolds() ? 20_000 + r % 3_000_000 : 20_000_000 + r % 230_000_000;
    }

    private byte[] chromName(int s) {
        int c = chrom[s] == 0 ? 1 : chrom[s];
        String name = SPECIES[s].name() + (SPECIES[s].scaffolds() ? ".scaffold_" : ".chr") + c;
        return name.getBytes(StandardCharsets.US_ASCII);
    }

    private int srcLength(int s) {
        return names[s].length;
    }

    // ---------------------------------------------------------------- output

    private void putSrc(int s, int width) {
        byte[] n = names[s];
        System.arraycopy(n, 0, buf, used, n.length);
        used += n.length;
        for (int i = n.length; i < width; i++) {
            buf[used++] = ' ';
        }
        buf[used++] = ' ';
    }

    private static int digits(long v) {
        int n = v < 0 ? 2 : 1;
        for (long a = Math.abs(v); a >= 10; a /= 10) {
            n++;
        }
        return n;
    }

    /** {@code v}, right-aligned in {@code width} characters (at least its own digits). */
    private void putNumber(long v, int width) {
        int n = digits(v);
        for (int i = n; i < width; i++) {
            buf[used++] = ' ';
        }
        int end = used + n;
        long a = Math.abs(v);
        for (int i = end - 1; i >= end - (v < 0 ? n - 1 : n); i--) {
            buf[i] = (byte) ('0' + a % 10);
            a /= 10;
        }
        if (v < 0) {
            buf[used] = '-';
        }
        used = end;
    }

    private void put(String ascii) throws IOException {
        ensure(ascii.length());
        for (int i = 0; i < ascii.length(); i++) {
            buf[used++] = (byte) ascii.charAt(i);
        }
    }

    private void ensure(int n) throws IOException {
        if (used + n > buf.length) {
            flush();
        }
    }

    private void flush() throws IOException {
        out.write(buf, 0, used);
        written += used;
        used = 0;
    }
}
