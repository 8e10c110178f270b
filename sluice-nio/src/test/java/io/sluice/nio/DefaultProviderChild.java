package io.sluice.nio;

import java.nio.channels.FileChannel;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;

/** A program that knows nothing of Sluice, run with Sluice's provider as the JVM's default. */
public final class DefaultProviderChild {
    private DefaultProviderChild() {
    }

    public static void main(String[] args) throws Exception {
        Path p = Path.of(args[0], "child.txt");
        Files.writeString(p, "written by an unchanged program");
        System.out.println("provider=" + FileSystems.getDefault().provider().getClass().getName());
        try (FileChannel ch = FileChannel.open(p)) {
            String engine = ch instanceof SluiceFileChannel s ? " engine=" + s.file().engine() : "";
            System.out.println("channel=" + ch.getClass().getName() + engine);
        }
        System.out.println("content=" + Files.readString(new java.io.File(args[0], "child.txt").toPath()));
    }
}
