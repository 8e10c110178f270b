package io.sluice.bench;

import io.sluice.ParallelScan;
import io.sluice.Swar;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

/**
 * The One Billion Row Challenge on {@link ParallelScan}: segments of whole lines handed over with padding
 * ({@link ParallelScan#scanPadded}), so the parser loads eight bytes wherever it stands, the last line of a segment
 * included, with no bounds check to make and no second loop for the end; names found with {@link Swar}, temperatures
 * parsed as integer tenths from one word with no branch, each thread adding to its own {@link StationTable}, merged
 * at the end. Its output is the baseline's, character for character.
 *
 * <p>It trusts the file's format (the benchmark wrote it): a line without ';' or a temperature of another shape
 * gives wrong figures or a bounds failure, never a crash.
 */
final class ScanAverages {
    private static final long SEMICOLON = Swar.broadcast((byte) ';');

    private ScanAverages() {
    }

    /** Reads {@code file} on {@code threads} threads and returns the challenge's output for it. */
    static Averages run(Path file, int threads) throws IOException {
        return ParallelScan.lines().withThreads(threads).scanPadded(file, StationTable::new, ScanAverages::parse,
                StationTable::merge).result();
    }

    /** Adds the lines in {@code [0, length)} of {@code records} to {@code table}. */
    static void parse(StationTable table, MemorySegment records, long length, long position) {
        long at = 0;
        while (at < length) {
            // Both words of a name of up to 15 bytes, loaded whatever the name's length: a short name at the end of
            // the segment reaches into the padding, which is what it is for. Choosing between them with masks rather
            // than a branch matters: names of under 8 bytes and of more are about as common, which no branch
            // predictor can guess.
            long w0 = records.get(Swar.WORD, at);
            long w1 = records.get(Swar.WORD, at + 8);
            int n0 = Swar.firstIndexOf(w0, SEMICOLON);
            int n1 = Swar.firstIndexOf(w1, SEMICOLON);
            long inFirst = (n0 - 8) >> 31; // all ones when the ';' is in the first word
            int nameLength = n0 + (n1 & (int) ~inFirst);
            long k0 = Swar.lowBytes(w0, n0);
            long k1 = Swar.lowBytes(w1, n1) & ~inFirst;
            if (nameLength == 16) {
                nameLength += semicolonFrom(records, at + 16, length, position); // 16 bytes or more: rare
            }
            int slot = table.slot(k0, k1, records, at, nameLength);
            long value = at + nameLength + 1;
            long w = records.get(Swar.WORD, value);
            // The temperature is [-]d.d or [-]dd.d then '\n'. Bit 4 tells the characters apart: set in digits
            // (0x30-0x39), clear in '-' (0x2D) and '.' (0x2E).
            long negative = (~w >>> 4) & 1;
            long digits = w >>> (negative << 3);
            long twoDigits = (digits >>> 12) & 1;
            // One digit before the point: move it to the tens' place, a zero byte taking the hundreds'.
            long d = digits << ((twoDigits ^ 1) << 3);
            long tenths = (d & 0xF) * 100 + (d >>> 8 & 0xF) * 10 + (d >>> 24 & 0xF);
            table.add(slot, (tenths ^ -negative) + negative);
            at = value + negative + 4 + twoDigits;
        }
    }

    /** How far from {@code from} the line's ';' is, for names longer than 16 bytes. */
    private static int semicolonFrom(MemorySegment records, long from, long length, long position) {
        for (long at = from; at < length; at += 8) {
            int n = Swar.firstIndexOf(records.get(Swar.WORD, at), SEMICOLON);
            if (n < 8) {
                return (int) (at + n - from);
            }
        }
        throw new IllegalStateException("no ';' in the line at file offset " + (position + from - 16));
    }
}
