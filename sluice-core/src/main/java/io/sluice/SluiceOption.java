package io.sluice;

import java.nio.file.OpenOption;

/** Open options of Sluice's own, beside the JDK's {@link java.nio.file.StandardOpenOption}s and {@link Advice}. */
public enum SluiceOption implements OpenOption {
    /**
     * O_DIRECT: transfers bypass the page cache and go straight between the device and your memory. Positions,
     * lengths and memory addresses must then be multiples of the file system's block size
     * ({@link java.nio.file.FileStore#getBlockSize()}); a misaligned call throws {@link IllegalArgumentException}
     * before any I/O. Supported by the IO_URING engine; other engines refuse it with
     * {@link UnsupportedOperationException}.
     */
    DIRECT
}
