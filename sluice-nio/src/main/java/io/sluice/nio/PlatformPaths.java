package io.sluice.nio;

import java.nio.file.Path;

/** The path the engines and the second descriptor open: never one that would lead back into Sluice's provider. */
final class PlatformPaths {
    private PlatformPaths() {
    }

    static Path of(Path path) {
        return path instanceof SluicePath s ? s.delegate() : path;
    }
}
