package io.sluice.maf;

import io.sluice.chunks.ChunkedReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An index of a MAF file's blocks by (sequence, start) of each block's reference row (its first {@code s} line,
 * in forward-strand coordinates), as {@code maf_index} builds one for the seed's parser: where each block is in the
 * file, how many rows and columns it has, and which species it holds. Build it by parsing ({@link #build(Path)}, or
 * a {@link Builder} as the {@link MafHandler} of a {@link MafParser}); query it with {@link #find}.
 *
 * <p>Species are the part of a source name before its first dot ({@code hg38} of {@code hg38.chr1}); the first 63
 * species seen get a bit of their own in {@link #speciesMask}, the rest share bit 63. Immutable once built.
 *
 * {@snippet :
 * MafIndex index = MafIndex.build(Path.of("chr22.maf"));
 * for (int block : index.find("hg38.chr22", 16_050_000, 16_060_000)) {
 *     long at = index.offset(block);          // the block's 'a' line, index.length(block) bytes long
 * }
 * }
 */
public final class MafIndex {
    private final Names sequences;
    private final Names species;
    private final int count;
    private final long[] offsets;
    private final long[] lengths;
    private final int[] refSequence;
    private final long[] refStart;
    private final long[] refEnd;
    private final int[] rows;
    private final int[] columns;
    private final long[] speciesMask;
    /** Block numbers ordered by (sequence, start); sequence {@code s} holds {@code order[first[s] .. first[s+1])}. */
    private final int[] order;
    private final int[] first;
    /** The longest reference span of each sequence, so a search for overlaps knows how far back to look. */
    private final long[] longest;

    private MafIndex(Builder b) {
        this.sequences = b.sequences;
        this.species = b.species;
        this.count = b.count;
        this.offsets = Arrays.copyOf(b.offsets, count);
        this.lengths = Arrays.copyOf(b.lengths, count);
        this.refSequence = Arrays.copyOf(b.refSequence, count);
        this.refStart = Arrays.copyOf(b.refStart, count);
        this.refEnd = Arrays.copyOf(b.refEnd, count);
        this.rows = Arrays.copyOf(b.rows, count);
        this.columns = Arrays.copyOf(b.columns, count);
        this.speciesMask = Arrays.copyOf(b.speciesMask, count);
        int seqs = sequences.count();
        this.first = new int[seqs + 1];
        this.longest = new long[seqs];
        for (int i = 0; i < count; i++) {
            first[refSequence[i] + 1]++;
            longest[refSequence[i]] = Math.max(longest[refSequence[i]], refEnd[i] - refStart[i]);
        }
        for (int s = 0; s < seqs; s++) {
            first[s + 1] += first[s];
        }
        int[] fill = Arrays.copyOf(first, seqs);
        this.order = new int[count];
        for (int i = 0; i < count; i++) {
            order[fill[refSequence[i]]++] = i;
        }
        for (int s = 0; s < seqs; s++) {
            sortByStart(first[s], first[s + 1]);
        }
    }

    /** Sorts {@code order[from, to)} by reference start; a MAF file is usually in that order already. */
    private void sortByStart(int from, int to) {
        boolean sorted = true;
        for (int i = from + 1; i < to && sorted; i++) {
            sorted = refStart[order[i - 1]] <= refStart[order[i]];
        }
        if (sorted) {
            return;
        }
        Integer[] boxed = new Integer[to - from];
        for (int i = from; i < to; i++) {
            boxed[i - from] = order[i];
        }
        Arrays.sort(boxed, (x, y) -> Long.compare(refStart[x], refStart[y]));
        for (int i = from; i < to; i++) {
            order[i] = boxed[i - from];
        }
    }

    /** A builder to hand a {@link MafParser} as its handler. */
    public static Builder builder() {
        return new Builder();
    }

    /** Parses {@code file} with a {@link ChunkedReader} of its own (adaptive chunk size) and indexes it. */
    public static MafIndex build(Path file) throws IOException {
        try (ChunkedReader reader = ChunkedReader.open(file)) {
            return build(reader, file.toString());
        }
    }

    /** Parses all of {@code reader}'s input and indexes it; {@code source} names it in error messages. */
    public static MafIndex build(ChunkedReader reader, String source) throws IOException {
        Builder b = builder();
        MafParser.parse(reader, b, source);
        return b.build();
    }

    // ---------------------------------------------------------------- queries

    /** The number of blocks. */
    public int blockCount() {
        return count;
    }

    /** The blocks whose reference row overlaps {@code [from, to)} of {@code sequence}, by start. */
    public int[] find(String sequence, long from, long to) {
        int s = sequences.find(sequence);
        if (s < 0 || to <= from) {
            return new int[0];
        }
        int lo = first[s];
        int hi = first[s + 1];
        long earliest = from - longest[s];
        // The first block starting at or after `earliest`: no earlier one can reach `from`.
        int a = lo;
        int b = hi;
        while (a < b) {
            int mid = (a + b) >>> 1;
            if (refStart[order[mid]] < earliest) {
                a = mid + 1;
            } else {
                b = mid;
            }
        }
        List<Integer> out = new ArrayList<>();
        for (int i = a; i < hi && refStart[order[i]] < to; i++) {
            if (refEnd[order[i]] > from) {
                out.add(order[i]);
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The input offset of block {@code b}'s {@code a} line. */
    public long offset(int b) {
        return offsets[b];
    }

    /** The bytes from block {@code b}'s {@code a} line to its end (its blank line, or the next block). */
    public long length(int b) {
        return lengths[b];
    }

    /** The source name of block {@code b}'s reference row. */
    public String sequence(int b) {
        return sequences.name(refSequence[b]);
    }

    /** The forward-strand start of block {@code b}'s reference row. */
    public long start(int b) {
        return refStart[b];
    }

    /** The forward-strand end (exclusive) of block {@code b}'s reference row. */
    public long end(int b) {
        return refEnd[b];
    }

    /** The {@code s} rows of block {@code b}. */
    public int rows(int b) {
        return rows[b];
    }

    /** The alignment columns of block {@code b}. */
    public int columns(int b) {
        return columns[b];
    }

    /** The species of block {@code b}'s rows: bit {@code i} for species {@code i} of {@link #species()}. */
    public long speciesMask(int b) {
        return speciesMask[b];
    }

    /** The reference sequences, in the order first seen. */
    public List<String> sequences() {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < sequences.count(); i++) {
            out.add(sequences.name(i));
        }
        return out;
    }

    /** Every species seen in any row, in the order first seen (bit {@code i} of a mask; 63 and on share bit 63). */
    public List<String> species() {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < species.count(); i++) {
            out.add(species.name(i));
        }
        return out;
    }

    // ---------------------------------------------------------------- building

    /** Collects the index as a {@link MafParser} reports the lines. Not thread-safe. */
    public static final class Builder implements MafHandler {
        private final Names sequences = new Names();
        private final Names species = new Names();
        private int count;
        private long[] offsets = new long[1024];
        private long[] lengths = new long[1024];
        private int[] refSequence = new int[1024];
        private long[] refStart = new long[1024];
        private long[] refEnd = new long[1024];
        private int[] rows = new int[1024];
        private int[] columns = new int[1024];
        private long[] speciesMask = new long[1024];
        private boolean built;

        private Builder() {
        }

        @Override
        public void blockStart(MafLine a) {
            if (count == offsets.length) {
                int n = count * 2;
                offsets = Arrays.copyOf(offsets, n);
                lengths = Arrays.copyOf(lengths, n);
                refSequence = Arrays.copyOf(refSequence, n);
                refStart = Arrays.copyOf(refStart, n);
                refEnd = Arrays.copyOf(refEnd, n);
                rows = Arrays.copyOf(rows, n);
                columns = Arrays.copyOf(columns, n);
                speciesMask = Arrays.copyOf(speciesMask, n);
            }
            offsets[count] = a.offset();
            rows[count] = 0;
            speciesMask[count] = 0;
        }

        @Override
        public void sequence(MafLine s) {
            int b = count;
            int length = s.srcLength();
            if (rows[b] == 0) {
                refSequence[b] = sequences.intern(s, length);
                refStart[b] = s.forwardStart();
                refEnd[b] = refStart[b] + s.size();
                columns[b] = s.textLength();
            }
            int dot = 0;
            while (dot < length && s.srcByte(dot) != '.') {
                dot++;
            }
            int sp = species.intern(s, dot);
            speciesMask[b] |= 1L << Math.min(sp, 63);
            rows[b]++;
        }

        @Override
        public void blockEnd(long endOffset) {
            lengths[count] = endOffset - offsets[count];
            count++;
        }

        /**
         * The index of what was parsed.
         *
         * @throws IllegalStateException when called twice
         */
        public MafIndex build() {
            if (built) {
                throw new IllegalStateException("already built");
            }
            built = true;
            return new MafIndex(this);
        }
    }
}
