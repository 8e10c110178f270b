package io.sluice.db;

/** A write to a {@link KvStore} opened read-only. */
public final class ReadOnlyStoreException extends UnsupportedOperationException {
    private static final long serialVersionUID = 1L;

    /** With a message naming the store. */
    public ReadOnlyStoreException(String message) {
        super(message);
    }
}
