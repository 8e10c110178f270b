package io.sluice.internal.jfr;

import java.io.IOException;

/** A read or write to time: its count of bytes, or -1 for the end of the file. */
@FunctionalInterface
public interface IoCall {
    /** Does the transfer. */
    long run() throws IOException;
}
