package io.sluice.cli;

import io.sluice.zip.ConcurrentZipFile;
import io.sluice.zip.ExtractOptions;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorInputStream;
import org.apache.commons.compress.compressors.deflate64.Deflate64CompressorInputStream;
import org.tukaani.xz.LZMAInputStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sluice zip x}: extraction with unzip's {@code -d}, {@code -o}, {@code -q} and member patterns, through
 * {@link ConcurrentZipFile#extractTo(Path, ExtractOptions)}, so with its checks: nothing outside the target, links
 * only when they stay inside it, limits against zip bombs, everything refused before anything is written. Entries
 * compressed with bzip2, deflate64 or LZMA, which sluice-core does not read, are decoded by Apache Commons Compress
 * (LZMA by XZ for Java, the decoder Commons Compress uses for it).
 */
@Command(name = "x", mixinStandardHelpOptions = true,
        description = {"Extract a zip or jar archive, as 'unzip' does: Unix permissions, times and symbolic links "
                + "(only those that stay inside the target). Entries may be stored, deflated, deflate64, bzip2 or "
                + "LZMA.",
            "Exit codes: 0 extracted, 1 an entry was refused or failed (nothing is left of this run's output then), "
                    + "or a pattern matched nothing (the others were extracted), 2 the archive cannot be read."})
final class ZipExtractCommand implements Callable<Integer> {
    /** Compression methods (APPNOTE 4.4.5) read here through Commons Compress. */
    static final int DEFLATE64 = 9;
    static final int BZIP2 = 12;
    static final int LZMA = 14;
    /** General purpose flag bit 1 of an LZMA entry: its data ends with an end-of-stream marker. */
    private static final int LZMA_EOS_FLAG = 1 << 1;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "ARCHIVE", description = "The zip or jar file.")
    Path archive;

    @Parameters(index = "1..*", paramLabel = "MEMBER",
            description = "Extract only the entries matching one of these patterns, as unzip matches them: '*' any "
                    + "characters, '/' too; '?' one character; '[abc]', '[a-z]', '[!a]' one of a set; '\\' quotes "
                    + "the next character.")
    List<String> members = new ArrayList<>();

    @Option(names = "-d", paramLabel = "DIR", description = "Extract into DIR (default: the current directory).")
    Path directory;

    @Option(names = "-o", description = "Overwrite existing files without asking; without it an existing file is "
            + "refused, by name, before anything is written.")
    boolean overwrite;

    @Option(names = "-q", description = "Quiet: print nothing but errors.")
    boolean quiet;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        List<Pattern> patterns = new ArrayList<>();
        for (String m : members) {
            patterns.add(wildcard(m));
        }
        boolean[] matched = new boolean[patterns.size()];
        Path target = directory != null ? directory : Path.of("");
        try (ConcurrentZipFile zip = ZipCommand.open(archive, spec.commandLine())) {
            if (zip == null) {
                return Main.BAD_INPUT;
            }
            if (!quiet) {
                out.println("Archive:  " + ZipCommand.printable(archive.toString()));
                out.flush();
            }
            ExtractOptions options = ExtractOptions.DEFAULT.withOverwrite(overwrite)
                    .withDecoder(new CommonsCompressDecoder())
                    .withSelection(e -> selected(e.getName(), patterns, matched))
                    .withListener((e, path) -> {
                        if (!quiet) {
                            out.println(verb(e) + ZipCommand.printable(target.resolve(e.getName()).toString())
                                    + (e.isSymbolicLink() ? "  -> " + ZipCommand.printable(
                                            Files.readSymbolicLink(path).toString()) : ""));
                        }
                    });
            zip.extractTo(target.toAbsolutePath(), options);
            out.flush();
        }
        int code = Main.OK;
        for (int k = 0; k < matched.length; k++) {
            if (!matched[k]) {
                err.println("caution: filename not matched:  " + ZipCommand.printable(members.get(k)));
                code = Main.FAILED;
            }
        }
        err.flush();
        return code;
    }

    /** Whether {@code name} is extracted: always with no patterns, else if one matches (each one that does is noted). */
    private static boolean selected(String name, List<Pattern> patterns, boolean[] matched) {
        if (patterns.isEmpty()) {
            return true;
        }
        boolean any = false;
        for (int k = 0; k < patterns.size(); k++) {
            if (patterns.get(k).matcher(name).matches()) {
                matched[k] = true;
                any = true;
            }
        }
        return any;
    }

    /** unzip's words for what it does with an entry, padded as it pads them. */
    private static String verb(ConcurrentZipFile.Entry e) {
        if (e.isSymbolicLink()) {
            return "    linking: ";
        }
        if (e.isDirectory()) {
            return "   creating: ";
        }
        return e.getMethod() == 0 ? " extracting: " : "  inflating: ";
    }

    /**
     * unzip's wildcard {@code pattern} as a regular expression over whole names: {@code *} any run of characters
     * (also across {@code /}, as unzip without {@code -W}), {@code ?} one, {@code [...]} a set (ranges, and
     * {@code !} or {@code ^} first to negate), a backslash the next character as itself.
     */
    static Pattern wildcard(String pattern) {
        StringBuilder re = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            switch (c) {
                case '*' -> re.append(".*");
                case '?' -> re.append('.');
                case '\\' -> {
                    if (i + 1 < pattern.length()) {
                        re.append(Pattern.quote(String.valueOf(pattern.charAt(++i))));
                    } else {
                        re.append("\\\\");
                    }
                }
                case '[' -> {
                    int close = pattern.indexOf(']', i + 2);
                    if (close < 0) {
                        re.append("\\[");
                        break;
                    }
                    String set = pattern.substring(i + 1, close);
                    StringBuilder cls = new StringBuilder("[");
                    int from = 0;
                    if (set.startsWith("!") || set.startsWith("^")) {
                        cls.append('^');
                        from = 1;
                    }
                    for (int k = from; k < set.length(); k++) {
                        char s = set.charAt(k);
                        if (s == '-' && k > from && k < set.length() - 1) {
                            cls.append('-');
                        } else if (Character.isLetterOrDigit(s)) {
                            cls.append(s);
                        } else {
                            // A backslash before a letter would be a class such as \d; before anything else, itself.
                            cls.append('\\').append(s);
                        }
                    }
                    re.append(cls).append(']');
                    i = close;
                }
                default -> re.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(re.toString(), Pattern.DOTALL);
    }

    /** bzip2 and deflate64 by Commons Compress, LZMA by XZ for Java, as Commons Compress reads them in zip files. */
    static final class CommonsCompressDecoder implements ExtractOptions.Decoder {
        @Override
        public boolean supports(int method) {
            return method == DEFLATE64 || method == BZIP2 || method == LZMA;
        }

        @Override
        public InputStream decode(ConcurrentZipFile.Entry entry, InputStream compressed) throws IOException {
            return switch (entry.getMethod()) {
                case DEFLATE64 -> new Deflate64CompressorInputStream(compressed);
                case BZIP2 -> new BZip2CompressorInputStream(compressed);
                case LZMA -> lzma(entry, compressed);
                default -> throw new IllegalArgumentException("method " + entry.getMethod() + " is not decoded here");
            };
        }

        /**
         * An LZMA entry (APPNOTE 5.8.8): the LZMA SDK's version (two bytes), the length of the properties (two
         * bytes, little-endian, 5), the properties (a byte of lc, lp and pb, then the dictionary size), then the
         * raw LZMA data, ending with an end marker when flag bit 1 says so, else after the entry's size.
         */
        private static InputStream lzma(ConcurrentZipFile.Entry entry, InputStream in) throws IOException {
            byte[] header = in.readNBytes(4);
            if (header.length < 4) {
                throw new IOException("LZMA header cut short: " + header.length + " of 4 bytes");
            }
            int propsLength = (header[2] & 0xFF) | (header[3] & 0xFF) << 8;
            if (propsLength != 5) {
                throw new IOException("LZMA properties of " + propsLength + " bytes, where there are always 5");
            }
            byte[] props = in.readNBytes(5);
            if (props.length < 5) {
                throw new IOException("LZMA properties cut short: " + props.length + " of 5 bytes");
            }
            int dictSize = (props[1] & 0xFF) | (props[2] & 0xFF) << 8 | (props[3] & 0xFF) << 16
                    | (props[4] & 0xFF) << 24;
            long size = (entry.getFlags() & LZMA_EOS_FLAG) != 0 ? -1 : entry.getSize();
            return new LZMAInputStream(in, size, props[0], dictSize);
        }
    }
}
