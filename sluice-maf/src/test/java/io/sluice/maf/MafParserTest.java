package io.sluice.maf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.chunks.ChunkedReader;
import io.sluice.chunks.FixedPolicy;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The parser on real MAF files cut into chunks every way, and on malformed input. */
class MafParserTest {
    static final String[] REAL = {"mm8_chr7_tiny.maf", "chr22_ieq.maf", "t1.maf", "ext-bin.maf"};

    @TempDir
    Path dir;

    static byte[] resource(String name) throws IOException {
        try (InputStream in = MafParserTest.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IOException("missing test resource " + name);
            }
            return in.readAllBytes();
        }
    }

    /** Every report as a line of text, so two parses can be compared whole. */
    static final class Recorder implements MafHandler {
        final List<String> events = new ArrayList<>();

        @Override
        public void header(MafLine h) {
            events.add("header " + h.pairs() + " @" + h.offset() + " line " + h.lineNumber());
        }

        @Override
        public void blockStart(MafLine a) {
            events.add("a " + a.pairs() + " score=" + a.value("score") + " @" + a.offset() + " line " + a.lineNumber());
        }

        @Override
        public void sequence(MafLine s) {
            events.add("s " + s.src() + " " + s.start() + " " + s.size() + " " + s.strand() + " " + s.srcSize() + " "
                    + s.text() + " fwd " + s.forwardStart() + " @" + s.offset());
        }

        @Override
        public void info(MafLine i) {
            events.add("i " + i.src() + " " + i.leftStatus() + " " + i.leftCount() + " " + i.rightStatus() + " "
                    + i.rightCount());
        }

        @Override
        public void empty(MafLine e) {
            events.add("e " + e.src() + " " + e.start() + " " + e.size() + " " + e.strand() + " " + e.srcSize() + " "
                    + e.status());
        }

        @Override
        public void quality(MafLine q) {
            events.add("q " + q.src() + " " + q.text());
        }

        @Override
        public void blockEnd(long endOffset) {
            events.add("end @" + endOffset);
        }

        long count(String prefix) {
            return events.stream().filter(e -> e.startsWith(prefix)).count();
        }
    }

    static Recorder parse(byte[] input, int chunk) throws IOException {
        Recorder r = new Recorder();
        MafParser p = new MafParser(r, "test.maf");
        for (int at = 0; at < input.length; at += chunk) {
            p.feed(input, at, Math.min(chunk, input.length - at));
        }
        p.finish();
        assertEquals(input.length, p.bytes());
        return r;
    }

    static Recorder parse(String input) throws IOException {
        return parse(input.getBytes(StandardCharsets.ISO_8859_1), Integer.MAX_VALUE);
    }

    @Test
    void realFilesGiveTheSameReportsHoweverTheyAreCut() throws IOException {
        for (String name : REAL) {
            byte[] input = resource(name);
            List<String> whole = parse(input, input.length).events;
            for (int chunk : new int[] {1, 2, 3, 5, 8, 13, 64, 1000}) {
                assertEquals(whole, parse(input, chunk).events, name + " in chunks of " + chunk);
            }
        }
    }

    @Test
    void aCarriageReturnBetweenPairsSeparatesThemForValueAsForTheParser() throws IOException {
        // The parser takes '\r' for a blank between a line's pairs; value() must split where the parser did, or it
        // hands back "1\r\rpass=2" as the score the parser checked as "1".
        Recorder r = parse("##maf version=1\na score=1\r\rpass=2\ns h.c 0 1 + 5 A\n\n");
        assertEquals("a score=1\r\rpass=2 score=1 @16 line 2", r.events.get(1));
    }

    @Test
    void realFilesHaveWhatTheySay() throws IOException {
        Recorder mm8 = parse(resource("mm8_chr7_tiny.maf"), 4096);
        assertEquals(8, mm8.count("a "));
        assertEquals(59, mm8.count("s "));
        assertEquals(8, mm8.count("end "));
        assertTrue(mm8.events.get(0).startsWith("header version=1 @0 line 1"), mm8.events.get(0));
        assertTrue(mm8.events.get(1).startsWith("a score=10542.0 score=10542.0 @16 line 2"), mm8.events.get(1));
        // oryCun1 on the reverse strand: 75077 - 14021 - 43 on the forward one.
        assertTrue(mm8.events.get(4).startsWith("s oryCun1.scaffold_199771 14021 43 - 75077 -----ATGGGC"),
                mm8.events.get(4));
        assertTrue(mm8.events.get(4).contains(" fwd 61013 "), mm8.events.get(4));

        Recorder ieq = parse(resource("chr22_ieq.maf"), 100);
        assertEquals(List.of(
                "header version=1 scoring=autoMZ.v1 @0 line 1",
                "a score=13668.000000 score=13668.000000 @34 line 2",
                "s hg19.chr22 16054189 54 + 51304566 TCTGTGAAACCCACAGTAATGGGGCTGACATCCTCTGCCCTATGCAAGAGAGGT"
                        + " fwd 16054189 @55",
                "s ponAbe2.chrUn 13354616 54 + 72422247 TCTTTCAAACCCACAGTAATGGGGCTGACATCCTCTACCATATGCAAGAGAGGT"
                        + " fwd 13354616 @159",
                "q ponAbe2.chrUn 855489998999999899968899889893997969799999879999999989",
                "i ponAbe2.chrUn C 0 C 0",
                "s panTro2.chrUn 7684562 54 + 58616431 TCTGTGAAACCCACAGTAATGGGGCTGACATCCTCTGCCCTATGCAAGAGAGAT"
                        + " fwd 7684562 @401",
                "q panTro2.chrUn 999999999999999999999999999999999999999999999999999999",
                "i panTro2.chrUn C 0 C 0",
                "e turTru1.scaffold_109008 25049 1601 + 50103 I",
                "end @696"), ieq.events);

        Recorder t1 = parse(resource("t1.maf"), 7);
        assertEquals(2, t1.count("a "));
        assertEquals(6, t1.count("s "), "the comment inside the second block is skipped");
        assertTrue(t1.events.contains("s fugu_unc 4000 4 + 4038 AC----TT fwd 4000 @392"), t1.events::toString);

        Recorder ext = parse(resource("ext-bin.maf"), 333);
        assertEquals(19, ext.count("s "));
    }

    @Test
    void blockOffsetsPointAtTheirALinesAndEndsAtTheBlankLine() throws IOException {
        byte[] input = resource("mm8_chr7_tiny.maf");
        String text = new String(input, StandardCharsets.ISO_8859_1);
        Recorder r = parse(input, 999);
        for (String e : r.events) {
            if (e.startsWith("a ")) {
                int at = Integer.parseInt(e.replaceAll(".*@(\\d+).*", "$1"));
                assertTrue(text.startsWith("a score=", at), e);
            }
            if (e.startsWith("end ")) {
                int at = Integer.parseInt(e.substring(5));
                assertTrue(at == input.length || text.startsWith("\n", at), e);
            }
        }
    }

    @Test
    void throughAChunkedReaderAtAnySize(@TempDir Path tmp) throws IOException {
        for (String name : REAL) {
            byte[] input = resource(name);
            Path file = Files.write(tmp.resolve(name), input);
            List<String> expected = parse(input, input.length).events;
            for (int chunk : new int[] {7, 4096}) {
                Recorder r = new Recorder();
                try (ChunkedReader reader = ChunkedReader.open(file, FixedPolicy.of(chunk))) {
                    MafParser.parse(reader, r, name);
                }
                assertEquals(expected, r.events, name + " " + chunk);
            }
        }
    }

    @Test
    void lenientWhereTheFormatIsUnambiguous() throws IOException {
        String crlf = "##maf version=1\r\na score=1\r\ns x.a 0 2 + 10 A-C\r\n\r\n";
        assertEquals(List.of("header version=1 @0 line 1", "a score=1 score=1 @17 line 2",
                "s x.a 0 2 + 10 A-C fwd 0 @28", "end @48"), parse(crlf).events);
        String tabsNoFinalNewline = "##maf\tversion=1\na\ns\tx.a\t0\t2\t+\t10\tA-C\t ";
        Recorder r = parse(tabsNoFinalNewline);
        assertEquals("s x.a 0 2 + 10 A-C fwd 0 @18", r.events.get(2));
        assertEquals("end @" + tabsNoFinalNewline.length(), r.events.get(3));
        String noBlankBetween = "##maf version=1\na\ns x.a 0 1 + 10 A\na\ns x.a 1 1 + 10 C\n";
        assertEquals(2, parse(noBlankBetween).count("end "));
        String commentsAnywhere = "##maf version=1\n# one\n\n\na\n# two\ns x.a 0 1 + 1 A\n# three\n";
        assertEquals(1, parse(commentsAnywhere).count("s "));
    }

    @Test
    void whatRealFilesHoldAndTheFormatsUsersAccept() throws IOException {
        String tracks = "track name=maf type=maf\nbrowser position chr1:1-10\n##maf version=1\na\ns x.a 0 1 + 2 A\n";
        Recorder r = parse(tracks);
        assertEquals(List.of("header version=1 @51 line 3", "a  score=null @67 line 4", "s x.a 0 1 + 2 A fwd 0 @69",
                "end @85"), r.events);
        assertEquals(1, parse("##maf version=1\na score=-1.5e3 pass=2\ns x.a 0 2 + 9 A.-.c\n").count("s x.a 0 2 "),
                "'.' is a gap, as '-' is");
        assertEquals(1, parse("##maf version=1\na\ns x.a 0 1 + 9 A\ne y.b 4973 2 - 4973 I\n").count("e y.b 4973 2"),
                "an e line's size may run past srcSize");

        for (String cut : new String[] {"i x.a C 0 C", "i x.a C 0 C \n", "s y.b 0 1 + 9 ", "s y.b 0 2 + 9 A-\n",
                "q x.a 99", "e y.b 0\r\n", "s"}) {
            String input = "##maf version=1\na\ns x.a 0 2 + 9 A-C\n" + cut;
            for (int chunk : new int[] {Integer.MAX_VALUE, 3}) {
                Recorder rec = new Recorder();
                MafParser p = new MafParser(rec, "cut.maf");
                byte[] bytes = input.getBytes(StandardCharsets.ISO_8859_1);
                for (int at = 0; at < bytes.length; at += chunk) {
                    p.feed(bytes, at, Math.min(chunk, bytes.length - at));
                }
                p.finish();
                assertEquals(36, p.cutShortAt(), cut);
                assertEquals(List.of("header version=1 @0 line 1", "a  score=null @16 line 2",
                        "s x.a 0 2 + 9 A-C fwd 0 @18", "end @" + bytes.length), rec.events, cut);
            }
        }
        MafParser whole = new MafParser(new Recorder(), "whole.maf");
        byte[] complete = "##maf version=1\na\ns x.a 0 2 + 9 A-C".getBytes(StandardCharsets.ISO_8859_1);
        whole.feed(complete, 0, complete.length);
        whole.finish();
        assertEquals(-1, whole.cutShortAt());
    }

    /** Input, then the line, offset and words the error must give. */
    static final Object[][] MALFORMED = {
        {"", 1, 0, "empty input"},
        {"\n", 1, 0, "not MAF"},
        {"track name=x\n", 2, 13, "no '##maf version=1' header after the track and browser lines"},
        {"track name=x\ntracks\n##maf version=1\n", 2, 13, "not MAF"},
        {"browser position chr1:1-9", 1, 25, "no '##maf version=1' header after the track and browser lines"},
        {"##maf version=1\ntrack name=x\n", 2, 16, "unknown line type 'track name=x'"},
        {"##maf\n", 1, 0, "no version="},
        {"##maf version=2\n", 1, 0, "version 2 is not supported"},
        {"##maf version=1 garbage\n", 1, 16, "expected key=value, not 'garbage'"},
        {"##maf version=1\ns x 0 1 + 1 A\n", 2, 16, "s line outside a block"},
        {"##maf version=1\na\nx y\n", 3, 18, "unknown line type 'x'"},
        {"##maf version=1\na\nsx 0 1 + 1 A\n", 3, 18, "unknown line type 'sx 0 1 + 1 A'"},
        {"##maf version=1\na bad\n", 2, 18, "a line: expected key=value, not 'bad'"},
        {"##maf version=1\na\ns x 0 1 + 1\n\n", 3, 29, "s line: no alignment text"},
        {"##maf version=1\na\ns x 0 1\n\n", 3, 25, "s line: no strand"},
        {"##maf version=1\na\ns x 1O 1 + 20 A\n", 3, 22, "s line: start '1O' is not a number"},
        {"##maf version=1\na\ns x 99999999999999999999 1 + 20 A\n", 3, 22, "is too large"},
        {"##maf version=1\na\ns x 0 1 * 20 A\n", 3, 26, "strand '*' is not + or -"},
        {"##maf version=1\na\ns x 0 3 + 20 A-C\n", 3, 24, "size 3 does not match the 2 bases of the text"},
        {"##maf version=1\na\ns x 19 2 + 20 AC\n", 3, 22, "start 19 + size 2 is past srcSize 20"},
        {"##maf version=1\na\ns x 0 2 + 20 AC extra\n", 3, 33, "byte 0x20 in the alignment text (a field after the text?)"},
        {"##maf version=1\na\ns x 0 2 + 20 A\u0001C\n", 3, 32, "byte 0x01 in the alignment text"},
        {"##maf version=1\na\ns x 0 2 + 20 AC\ns y 0 3 + 20 ACG\n", 4, 47, "a text of 3 columns in a block whose first has 2"},
        {"##maf version=1\na\ni x C 0 C 0\n", 3, 20, "i line: no s line before it"},
        {"##maf version=1\na\ns x 0 1 + 2 A\ni y C 0 C 0\n", 4, 34, "src 'y' is not the src of the s line before it ('x')"},
        {"##maf version=1\na\ns x 0 1 + 2 A\ni x C 0 Z 0\n", 4, 40, "rightStatus 'Z' is not one of CINnMT"},
        {"##maf version=1\na\ns x 0 1 + 2 A\ni x C 0 C 0 9\n", 4, 44, "i line: unexpected field '9'"},
        {"##maf version=1\na\ns x 0 1 + 2 A\ne y 0 1 + 2 N\n", 4, 44, "status 'N' is not one of CIMnT"},
        {"##maf version=1\na\ns x 0 1 + 2 A\ne y 3 1 + 2 C\n", 4, 36, "e line: start 3 is past srcSize 2"},
        {"##maf version=1\na score=abc\n", 2, 24, "a line: score 'abc' is not a decimal number"},
        {"##maf version=1\na score=1.5.0\n", 2, 24, "score '1.5.0' is not a decimal number"},
        {"##maf version=1\na score=\n", 2, 24, "score '' is not a decimal number"},
        {"##maf version=1\na score=-1e\n", 2, 24, "score '-1e' is not a decimal number"},
        {"##maf version=1\na pass=two\n", 2, 23, "a line: pass 'two' is not a whole number"},
        {"##maf version=1\na\ns x 0 2 + 20 A*C\n", 3, 32, "'*' in the alignment text (bases are letters, gaps '-' or '.')"},
        {"##maf version=1\na\ns x 0 3 + 20 A.C\n", 3, 24, "size 3 does not match the 2 bases of the text"},
                {"##maf version=1\na\ns x 0 1 + 2 A\ni x C 0 C\n\n", 4, 41, "i line: no rightCount"},
        {"##maf version=1\na\ns x 0 1 + 2 A\ni x C 0 C\n# more", 4, 41, "i line: no rightCount"},
        {"##maf version=1\na\ns x 0 2 + 2 AC\ns y 0 1 + 2 A\ns z 0 2 + 2 AC\n", 4, 45, "a text of 1 columns"},
        {"##maf version=1\na\ns x 0 1 + 2 A\ni x C 0 C 1x", 4, 42, "rightCount '1x' is not a number"},
        {"##maf version=1\na\ns x 0 1 + 2", 2, 16, "a block without any s line"},
        {"##maf version=1\na\ns x 0 2 + 2 AC\nq x 9\n\n", 4, 37, "1 qualities for a text of 2 columns"},
        {"##maf version=1\na\ns x 0 2 + 2 AC\nq x 9x\n", 4, 38, "'x' in the quality"},
        {"##maf version=1\na score=1\n\n", 2, 16, "a block without any s line"},
        {"##maf version=1\na\ne x 0 1 + 2 C\n", 2, 16, "a block without any s line"},
    };

    @Test
    void malformedInputIsRefusedWithTheLineAndOffset() {
        for (Object[] c : MALFORMED) {
            String input = (String) c[0];
            for (int chunk : new int[] {Integer.MAX_VALUE, 3}) {
                MafFormatException e = assertThrows(MafFormatException.class,
                        () -> parse(input.getBytes(StandardCharsets.ISO_8859_1), chunk), input);
                String where = "'" + input.replace("\n", "\\n") + "' in chunks of " + chunk + ": " + e.getMessage();
                assertEquals(((Integer) c[1]).longValue(), e.line(), where);
                assertEquals(((Integer) c[2]).longValue(), e.offset(), where);
                assertTrue(e.problem().contains((String) c[3]), where);
                assertEquals("test.maf: line " + e.line() + ", offset " + e.offset() + ": " + e.problem(),
                        e.getMessage());
            }
        }
    }

    @Test
    void theEightByteScansAgreeWithABytewiseOne() {
        SplittableRandom rnd = new SplittableRandom(5);
        byte[] alphabet = "ACGTacgtNn.--\n \t\u0001\u00e9\u00c1*@[`{/,09Zz".getBytes(StandardCharsets.ISO_8859_1);
        for (int round = 0; round < 4000; round++) {
            byte[] b = new byte[rnd.nextInt(1, 80)];
            for (int i = 0; i < b.length; i++) {
                b[i] = rnd.nextInt(4) == 0 ? alphabet[rnd.nextInt(alphabet.length)] : (byte) "ACGT-".charAt(rnd.nextInt(5));
            }
            MemorySegment s = MemorySegment.ofArray(b);
            int from = rnd.nextInt(b.length);
            long newline = -1;
            long letters = 0;
            long bad = -1;
            for (int i = from; i < b.length; i++) {
                if (newline < 0 && b[i] == '\n') {
                    newline = i;
                }
                boolean letter = Character.isLetter(b[i]) && b[i] > 0;
                if (bad < 0 && !letter && b[i] != '-' && b[i] != '.') {
                    bad = i;
                }
                if (bad < 0 && letter) {
                    letters++;
                }
            }
            assertEquals(newline, MafParser.indexOfNewline(s, from, b.length));
            assertEquals(bad >= 0 ? -1 - bad : letters, MafParser.bases(b, from, b.length), () -> new String(b,
                    from, b.length - from, StandardCharsets.ISO_8859_1));
        }
    }

    @Test
    void feedingAfterFinishIsAMistake() throws IOException {
        MafParser p = new MafParser(new Recorder(), "x");
        p.feed("##maf version=1\n".getBytes(StandardCharsets.US_ASCII), 0, 16);
        p.finish();
        assertThrows(IllegalStateException.class, () -> p.feed(new byte[1], 0, 1));
    }
}
