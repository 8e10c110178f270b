package io.sluice.db;

import java.io.IOException;

/**
 * A file that is not a readable store: empty, of another format, damaged, or cut short. Thrown by
 * {@link KvStore#open} for what it finds while opening, and, wrapped in a {@link java.io.UncheckedIOException}, by a
 * read or write that meets a damaged page later.
 */
public final class DamagedStoreException extends IOException {
    private static final long serialVersionUID = 1L;

    /** Whether the file is a store that lacks its newest versions, rather than not a store at all. */
    private final boolean cutShort;

    /** With a message naming the file and what is wrong with it. */
    public DamagedStoreException(String message) {
        this(message, false);
    }

    /** With a message naming the file and what is wrong with it, and whether it is a store cut short. */
    DamagedStoreException(String message, boolean cutShort) {
        super(message);
        this.cutShort = cutShort;
    }

    /** Whether the file is a store that lacks its newest versions (cut short), rather than not a store at all. */
    public boolean isCutShort() {
        return cutShort;
    }

    /** With a message naming the file and what is wrong with it, and the store library's exception. */
    public DamagedStoreException(String message, Throwable cause) {
        super(message, cause);
        this.cutShort = false;
    }
}
