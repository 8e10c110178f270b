package io.sluice.bench;

import java.io.IOException;

/**
 * One zip library reading one kind of entry: an operation reads one whole entry, and each thread walks its own
 * share of the entries in order (the workload's sequential positions, one per entry), wrapping at the end.
 */
final class ZipContender extends JavaContender {
    private final ZipReader reader;
    private final String[] names;

    ZipContender(ZipReader reader, ZipBenchArchive archive, ZipBenchArchive.Kind kind) {
        super((long) archive.count(kind) * kind.size());
        this.reader = reader;
        this.names = new String[archive.count(kind)];
        for (int i = 0; i < names.length; i++) {
            names[i] = archive.name(kind, i);
        }
    }

    @Override
    public String name() {
        return reader.name();
    }

    @Override
    public String fioReference() {
        return null;
    }

    @Override
    Reader reader(int entrySize) {
        // Positions are entry number times entry size, so the read benchmark's offsets pick entries.
        return pos -> reader.read(names[(int) (pos / entrySize)]);
    }

    @Override
    public void close() {
        // The reader is shared by the contenders of every kind and closed by ZipBench.
    }
}
