package io.sluice.db;

import java.io.IOException;

/**
 * A file that is not a readable store: empty, of another format, damaged, or cut short. Thrown by
 * {@link KvStore#open} for what it finds while opening, and, wrapped in a {@link java.io.UncheckedIOException}, by a
 * read or write that meets a damaged page later.
 */
public final class DamagedStoreException extends IOException {
    private static final long serialVersionUID = 1L;

    /** With a message naming the file and what is wrong with it. */
    public DamagedStoreException(String message) {
        super(message);
    }

    /** With a message naming the file and what is wrong with it, and the store library's exception. */
    public DamagedStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
