package io.sluice.db;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes the seed stores of {@link StoreFuzzTest} into a directory (MVStore records the time in its headers, so a
 * new run writes other bytes, to the same effect). From the module's directory, after {@code test-compile}:
 *
 * <pre>
 * java -cp target/test-classes:target/classes:$HOME/.m2/repository/com/h2database/h2-mvstore/2.3.232/\
 * h2-mvstore-2.3.232.jar io.sluice.db.StoreFuzzSeeds src/test/resources/io/sluice/db/StoreFuzzTestInputs/fuzzOpen
 * </pre>
 *
 * <p>{@code seed-kyoto-cabinet-tree} is not written here: it is a Kyoto Cabinet TreeDB file (read by
 * {@link KyotoTreeFile}), made small by Kyoto Cabinet 1.2.79's own tool, with four leaf pages and free blocks:
 *
 * <pre>
 * kctreemgr create -ts -tl -apow 0 -fpow 2 -bnum 3 -psiz 64 F
 * for i in 1 2 3 4 5 6 7 8; do kctreemgr set F key$i value$i; done
 * kctreemgr remove F key3; kctreemgr set F key5 longer-value-5-longer
 * </pre>
 */
final class StoreFuzzSeeds {
    private StoreFuzzSeeds() {
    }

    public static void main(String[] args) throws IOException {
        Path out = Path.of(args[0]);
        Files.createDirectories(out);
        // An empty store: the file headers and the first chunk only.
        try (KvStore kv = KvStore.open(out.resolve("seed-empty"), true, true, false)) {
            kv.sync(false);
        }
        // A few records of every length class, one commit.
        try (KvStore kv = KvStore.open(out.resolve("seed-records"), true, true, false)) {
            kv.put(bytes(""), bytes("empty key"));
            kv.put(bytes("a"), bytes(""));
            kv.put(new byte[] {(byte) 0xff, 0}, new byte[300]);
            kv.put(bytes("key"), bytes("value"));
        }
        // Several versions: commits that overwrite and remove, so the file holds more than one chunk.
        try (KvStore kv = KvStore.open(out.resolve("seed-versions"), true, true, false)) {
            for (int round = 0; round < 3; round++) {
                kv.beginTransaction();
                for (int i = 0; i < 20; i++) {
                    kv.put(bytes("k" + i), bytes("round " + round));
                }
                kv.remove(bytes("k" + round));
                kv.commitTransaction(false);
            }
        }
        // Enough records to split the tree into more than one page.
        try (KvStore kv = KvStore.open(out.resolve("seed-pages"), true, true, false)) {
            kv.putAll(java.util.stream.IntStream.range(0, 200)
                    .mapToObj(i -> new byte[][] {bytes(String.format("%05d", i)), bytes("v" + i)}).toList(), true);
        }
        for (String name : List.of("seed-empty", "seed-records", "seed-versions", "seed-pages")) {
            System.out.println(name + ": " + Files.size(out.resolve(name)) + " bytes");
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
