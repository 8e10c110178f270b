package io.sluice;

import java.nio.file.OpenOption;

/**
 * How a file will be accessed, passed to {@link PositionalFile#open} as an open option. The MMAP engine turns it
 * into {@code madvise} on every mapping; other engines accept and ignore it.
 *
 * <p>Hints need native access for this module ({@code --enable-native-access=io.sluice.core}); without it they are
 * skipped silently, since a hint changes speed, never results.
 */
public enum Advice implements OpenOption {
    /** No particular pattern (the default): the kernel reads ahead moderately. */
    NORMAL,
    /** Reads go front to back: read ahead aggressively and drop pages behind. */
    SEQUENTIAL,
    /** Reads jump around: do not read ahead. */
    RANDOM,
    /** The whole file will be needed soon: start reading it in now. */
    WILLNEED
}
