package io.sluice.nio.lucene;

import com.carrotsearch.randomizedtesting.ThreadFilter;

/**
 * The JVM's io_uring reapers start with the first io_uring call and live as long as the JVM, as the JDK's own
 * service threads do: not a leak of the test that happened to make the first call.
 */
public final class SluiceThreads implements ThreadFilter {
    @Override
    public boolean reject(Thread t) {
        return t.getName().startsWith("sluice-");
    }
}
