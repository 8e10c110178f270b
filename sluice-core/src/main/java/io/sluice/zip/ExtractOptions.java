package io.sluice.zip;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * How {@link ConcurrentZipFile#extractTo(Path, ExtractOptions)} extracts: the {@link ExtractLimits limits}, which
 * entries, whether existing files are replaced, a decoder for compression methods Sluice does not read itself, and
 * who hears of each entry written. Immutable; each {@code with} method returns a changed copy.
 *
 * {@snippet :
 * zip.extractTo(dir, ExtractOptions.DEFAULT.withOverwrite(true)
 *         .withSelection(e -> e.getName().startsWith("docs/"))
 *         .withListener((e, path) -> System.out.println(path)));
 * }
 */
public final class ExtractOptions {
    /** The default limits, every entry, nothing overwritten, stored and deflated entries only, no listener. */
    public static final ExtractOptions DEFAULT = new ExtractOptions(ExtractLimits.DEFAULT, false, e -> true, null,
            (e, p) -> { });

    private final ExtractLimits limits;
    private final boolean overwrite;
    private final Predicate<ConcurrentZipFile.Entry> selection;
    private final Decoder decoder;
    private final Listener listener;

    private ExtractOptions(ExtractLimits limits, boolean overwrite, Predicate<ConcurrentZipFile.Entry> selection,
            Decoder decoder, Listener listener) {
        this.limits = Objects.requireNonNull(limits, "limits");
        this.overwrite = overwrite;
        this.selection = Objects.requireNonNull(selection, "selection");
        this.decoder = decoder;
        this.listener = Objects.requireNonNull(listener, "listener");
    }

    /**
     * Reads the compressed bytes of entries whose method Sluice does not decode itself (bzip2, deflate64, LZMA, ...),
     * so that such decoders, which bring their own dependencies, stay out of sluice-core.
     */
    public interface Decoder {
        /** Whether {@link #decode} reads compression method {@code method} (APPNOTE 4.4.5 numbering). */
        boolean supports(int method);

        /**
         * A stream of the uncompressed bytes of {@code entry}, read from {@code compressed}, its compressed bytes.
         * The caller checks the size and CRC-32 of what it delivers, and closes it.
         *
         * @throws IOException if the data cannot be decoded; the message should say what is wrong with it
         */
        InputStream decode(ConcurrentZipFile.Entry entry, InputStream compressed) throws IOException;
    }

    /** Hears of each entry as it is written. */
    @FunctionalInterface
    public interface Listener {
        /**
         * Called once the entry is at {@code path}: files and directories in archive order, symbolic links (created
         * last, as unzip creates them) after them. An exception thrown here ends the extraction as a failure.
         */
        void extracted(ConcurrentZipFile.Entry entry, Path path) throws IOException;
    }

    /** The limits checked before anything is written. */
    public ExtractLimits limits() {
        return limits;
    }

    /** Whether an existing file (or symbolic link) at an entry's path is replaced; if not, it is an error. */
    public boolean overwrite() {
        return overwrite;
    }

    /** Which entries are extracted; the limits count only these. */
    public Predicate<ConcurrentZipFile.Entry> selection() {
        return selection;
    }

    /** The decoder for other compression methods, or null if there is none. */
    public Decoder decoder() {
        return decoder;
    }

    /** Who hears of each entry written. */
    public Listener listener() {
        return listener;
    }

    /** These options with {@code limits}. */
    public ExtractOptions withLimits(ExtractLimits limits) {
        return new ExtractOptions(limits, overwrite, selection, decoder, listener);
    }

    /**
     * These options with {@code overwrite}: when true, an existing file, or symbolic link, at an entry's path is
     * replaced (the new file is written beside it and renamed over it, so a failed write leaves the old one); a
     * directory is never replaced.
     */
    public ExtractOptions withOverwrite(boolean overwrite) {
        return new ExtractOptions(limits, overwrite, selection, decoder, listener);
    }

    /** These options extracting only the entries {@code selection} accepts. */
    public ExtractOptions withSelection(Predicate<ConcurrentZipFile.Entry> selection) {
        return new ExtractOptions(limits, overwrite, selection, decoder, listener);
    }

    /** These options with {@code decoder} (null for none) for the methods it supports. */
    public ExtractOptions withDecoder(Decoder decoder) {
        return new ExtractOptions(limits, overwrite, selection, decoder, listener);
    }

    /** These options with {@code listener}. */
    public ExtractOptions withListener(Listener listener) {
        return new ExtractOptions(limits, overwrite, selection, decoder, listener);
    }
}
