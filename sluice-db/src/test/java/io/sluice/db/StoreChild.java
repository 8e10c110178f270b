package io.sluice.db;

import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * A child JVM for the tests that need a second process. {@code hold FILE}: opens the store for writing, says "open" and
 * waits to be killed. {@code commit FILE}: commits transactions of ten keys each, forever, printing each transaction's
 * number once its commit has returned.
 */
public final class StoreChild {
    private StoreChild() {
    }

    /** See the class comment. */
    public static void main(String[] args) throws Exception {
        KvStore kv = KvStore.open(Path.of(args[1]), true, true, false);
        if (args[0].equals("hold")) {
            System.out.println("open");
            System.out.flush();
            Thread.sleep(60_000);
            return;
        }
        for (long t = 0; ; t++) {
            kv.beginTransaction();
            for (int i = 0; i < 10; i++) {
                kv.put(key(t, i), ByteBuffer.allocate(64).putLong(t).array());
            }
            kv.commitTransaction(false);
            System.out.println(t);
            System.out.flush();
        }
    }

    static byte[] key(long t, int i) {
        return ByteBuffer.allocate(12).putLong(t).putInt(i).array();
    }
}
