package io.sluice.maf;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * What the fuzzer does with arbitrary bytes: parses them as MAF whole, in chunks of random sizes, and (when short)
 * one byte at a time, and indexes what parses. The contract checked:
 * <ul>
 *   <li>the parser accepts the input or throws a {@link MafFormatException} naming the source, with a line from 1
 *       to one past the input's newlines and an offset within the input; no other exception;</li>
 *   <li>however the input is cut, the reports and the error message are the same;</li>
 *   <li>each {@code s} line's numbers agree with its text, recounted plainly here: size is the text's letters,
 *       start + size is at most srcSize, the text has nothing but letters, {@code -} and {@code .}; a {@code q} line
 *       has one quality per column of the {@code s} line before it; an {@code a} line's score is a number;</li>
 *   <li>the {@link MafIndex} of an input that parses has one block per {@code a} line, each starting at an
 *       {@code a} and ending within the input, and {@link MafIndex#find} finds each block over its own span.</li>
 * </ul>
 * A hang or an {@link OutOfMemoryError} is a bug too: the callers' limits catch them. Inputs are cut to
 * {@link #MAX_BYTES}.
 */
final class MafFuzzTarget {
    static final String NAME = "fuzzed.maf";
    /** The longest input used: the largest seed is 10 KiB, and mutations past this add only length. */
    static final int MAX_BYTES = 64 << 10;
    /** Inputs up to this long are also fed one byte at a time. */
    private static final int BYTEWISE = 4 << 10;

    private MafFuzzTarget() {
    }

    /** Returns the number of blocks indexed; throws AssertionError on a misbehaviour. */
    static int exercise(byte[] bytes) {
        byte[] input = bytes.length > MAX_BYTES ? Arrays.copyOf(bytes, MAX_BYTES) : bytes;
        Outcome whole = parse(input, new int[] {Math.max(1, input.length)});
        SplittableRandom random = new SplittableRandom(Arrays.hashCode(input));
        int[] sizes = new int[16];
        for (int i = 0; i < sizes.length; i++) {
            sizes[i] = 1 + random.nextInt(random.nextBoolean() ? 16 : 4096);
        }
        same(whole, parse(input, sizes), "random chunks " + Arrays.toString(sizes));
        if (input.length <= BYTEWISE) {
            same(whole, parse(input, new int[] {1}), "one byte at a time");
        }
        if (whole.error != null) {
            checkError(whole.error, input);
            return 0;
        }
        return checkIndex(whole.index, whole.blockStarts, input);
    }

    private record Outcome(List<String> events, MafFormatException error, MafIndex index, List<Long> blockStarts) {
    }

    /** Parses {@code input} fed in chunks of the given sizes, taken in turn. */
    private static Outcome parse(byte[] input, int[] sizes) {
        Checker checker = new Checker();
        MafParser parser = new MafParser(checker, NAME);
        try {
            int k = 0;
            for (int at = 0; at < input.length; k++) {
                int n = Math.min(sizes[k % sizes.length], input.length - at);
                parser.feed(input, at, n);
                at += n;
            }
            parser.finish();
        } catch (MafFormatException e) {
            return new Outcome(checker.events, e, null, checker.blockStarts);
        }
        if (parser.bytes() != input.length) {
            throw new AssertionError("parser counted " + parser.bytes() + " bytes of " + input.length);
        }
        return new Outcome(checker.events, null, checker.index.build(), checker.blockStarts);
    }

    private static void same(Outcome a, Outcome b, String how) {
        if (!a.events.equals(b.events)) {
            throw new AssertionError("reports differ fed " + how + ":\n" + a.events + "\n" + b.events);
        }
        String ea = a.error == null ? null : a.error.getMessage();
        String eb = b.error == null ? null : b.error.getMessage();
        if (ea == null ? eb != null : !ea.equals(eb)) {
            throw new AssertionError("errors differ fed " + how + ": " + ea + " / " + eb);
        }
    }

    private static void checkError(MafFormatException e, byte[] input) {
        long newlines = 0;
        for (byte b : input) {
            if (b == '\n') {
                newlines++;
            }
        }
        if (!e.source().equals(NAME) || e.line() < 1 || e.line() > newlines + 1 || e.offset() < 0
                || e.offset() > input.length || !e.getMessage().startsWith(NAME + ": line " + e.line() + ", offset ")) {
            throw new AssertionError("error out of range (" + newlines + " newlines, " + input.length + " bytes): "
                    + e.getMessage(), e);
        }
    }

    private static int checkIndex(MafIndex index, List<Long> blockStarts, byte[] input) {
        if (index.blockCount() != blockStarts.size()) {
            throw new AssertionError(index.blockCount() + " blocks indexed, " + blockStarts.size() + " a lines");
        }
        for (int b = 0; b < index.blockCount(); b++) {
            long at = index.offset(b);
            if (at != blockStarts.get(b) || input[(int) at] != 'a' || index.length(b) <= 0
                    || at + index.length(b) > input.length || index.rows(b) < 1) {
                throw new AssertionError("block " + b + " at " + at + ", " + index.length(b) + " bytes, "
                        + index.rows(b) + " rows, in an input of " + input.length);
            }
            int block = b;
            if (index.end(b) > index.start(b) && Arrays.stream(index.find(index.sequence(b), index.start(b),
                    index.end(b))).noneMatch(x -> x == block)) {
                throw new AssertionError("block " + b + " not found over its own span");
            }
        }
        return index.blockCount();
    }

    /** Records every report as text, rechecks the lines' numbers, and feeds an index builder. */
    private static final class Checker implements MafHandler {
        final List<String> events = new ArrayList<>();
        final List<Long> blockStarts = new ArrayList<>();
        final MafIndex.Builder index = MafIndex.builder();
        private int lastColumns = -1;

        @Override
        public void header(MafLine h) {
            events.add("# " + h.pairs() + " @" + h.offset() + " line " + h.lineNumber());
        }

        @Override
        public void blockStart(MafLine a) {
            String score = a.value("score");
            if (score != null) {
                try {
                    Double.parseDouble(score);
                } catch (NumberFormatException e) {
                    throw new AssertionError("a line " + a.lineNumber() + " accepted with score " + score);
                }
            }
            events.add("a " + a.pairs() + " @" + a.offset() + " line " + a.lineNumber());
            blockStarts.add(a.offset());
            index.blockStart(a);
        }

        @Override
        public void sequence(MafLine s) {
            String text = s.text();
            long bases = text.chars().filter(c -> c < 0x80 && Character.isLetter(c)).count();
            if (bases != s.size() || s.start() > s.srcSize() - s.size() || s.start() < 0
                    || bases + text.chars().filter(c -> c == '-' || c == '.').count() != text.length()
                    || text.length() != s.textLength()) {
                throw new AssertionError("s line " + s.lineNumber() + " accepted but wrong: " + s);
            }
            lastColumns = text.length();
            events.add("s " + s.src() + " " + s.start() + " " + s.size() + " " + s.strand() + " " + s.srcSize() + " "
                    + text + " @" + s.offset());
            index.sequence(s);
        }

        @Override
        public void info(MafLine i) {
            events.add("i " + i.src() + " " + i.leftStatus() + i.leftCount() + " " + i.rightStatus() + i.rightCount());
        }

        @Override
        public void empty(MafLine e) {
            events.add("e " + e.src() + " " + e.start() + " " + e.size() + " " + e.strand() + e.srcSize() + e.status());
        }

        @Override
        public void quality(MafLine q) {
            if (q.text().length() != lastColumns) {
                throw new AssertionError("q line " + q.lineNumber() + " of " + q.text().length() + " for "
                        + lastColumns + " columns");
            }
            events.add("q " + q.src() + " " + q.text());
        }

        @Override
        public void blockEnd(long endOffset) {
            events.add("end @" + endOffset);
            index.blockEnd(endOffset);
        }
    }
}
