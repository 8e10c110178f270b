package io.sluice.nio;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.Engine;
import io.sluice.PositionalFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** What the differential test cannot show in one thread: interrupts, locks across channels, the factory's file. */
class SluiceFileChannelTest {
    @TempDir
    Path dir;

    private Path sample() throws IOException {
        byte[] data = new byte[10_000];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (i * 31);
        }
        return Files.write(dir.resolve("sample"), data);
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void anInterruptClosesTheChannelAsTheJdksDoes(Engine engine) throws Exception {
        Assumptions.assumeTrue(engine.isAvailable());
        Path p = sample();
        for (boolean jdk : new boolean[] {true, false}) {
            FileChannel ch = jdk ? FileChannel.open(p) : SluiceChannels.open(p, engine);
            Thread.currentThread().interrupt();
            try {
                assertThrows(ClosedByInterruptException.class, () -> ch.read(ByteBuffer.allocate(10), 0), "jdk=" + jdk);
                assertTrue(Thread.currentThread().isInterrupted(), "the interrupt status stays set");
            } finally {
                Thread.interrupted();
            }
            assertFalse(ch.isOpen(), "jdk=" + jdk);
            assertThrows(ClosedChannelException.class, () -> ch.read(ByteBuffer.allocate(10), 0));
        }
    }

    /** Reads in a loop on another thread until one fails; the failure and the thread's interrupt status then. */
    private record Ending(Throwable failure, boolean interrupted) {
    }

    private static Ending readUntilFailure(FileChannel ch, java.util.function.Consumer<Thread> whileReading)
            throws InterruptedException {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicBoolean interrupted = new AtomicBoolean();
        CountDownLatch reading = new CountDownLatch(100);
        Thread reader = Thread.ofPlatform().start(() -> {
            ByteBuffer b = ByteBuffer.allocateDirect(512);
            try {
                for (long i = 0; ; i++) {
                    ch.read(b.clear(), i * 512 % 9_000);
                    reading.countDown();
                }
            } catch (Throwable e) {
                failure.set(e);
                interrupted.set(Thread.currentThread().isInterrupted());
            }
        });
        reading.await();
        whileReading.accept(reader);
        reader.join(30_000);
        assertFalse(reader.isAlive(), "the reader still reads");
        return new Ending(failure.get(), interrupted.get());
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void anInterruptDuringReadsClosesTheChannel(Engine engine) throws Exception {
        Assumptions.assumeTrue(engine.isAvailable());
        Path p = sample();
        // The interrupt lands at a random point of a read or between two: each time the reader gets
        // ClosedByInterruptException with its status set, and the channel is closed, whatever the engine.
        for (int trial = 0; trial < 20; trial++) {
            FileChannel ch = SluiceChannels.open(p, engine);
            Ending end = readUntilFailure(ch, Thread::interrupt);
            assertInstanceOf(ClosedByInterruptException.class, end.failure(), "trial " + trial);
            assertTrue(end.interrupted(), "trial " + trial + ": the interrupt status stays set");
            assertFalse(ch.isOpen(), "trial " + trial);
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void closingDuringReadsEndsThemWithAClosedChannel(Engine engine) throws Exception {
        Assumptions.assumeTrue(engine.isAvailable());
        Path p = sample();
        for (int trial = 0; trial < 20; trial++) {
            FileChannel ch = SluiceChannels.open(p, engine);
            Ending end = readUntilFailure(ch, reader -> {
                try {
                    ch.close();
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            // Closed during a read: AsynchronousCloseException; between two: ClosedChannelException. Never the
            // engine's own failure, and never an interrupt the reader did not get.
            assertInstanceOf(ClosedChannelException.class, end.failure(), "trial " + trial);
            assertFalse(end.failure() instanceof ClosedByInterruptException, "trial " + trial);
            assertFalse(end.interrupted(), "trial " + trial);
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void closingFromAnotherThreadEndsTheFile(Engine engine) throws Exception {
        Assumptions.assumeTrue(engine.isAvailable());
        PositionalFile file = PositionalFile.open(sample(), engine);
        FileChannel ch = SluiceChannels.fileChannel(file);
        ByteBuffer b = ByteBuffer.allocate(100);
        assertEquals(100, ch.read(b, 5000));
        assertEquals((byte) (5000 * 31), b.get(0));
        Thread t = Thread.ofPlatform().start(() -> {
            try {
                ch.close();
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });
        t.join();
        assertFalse(file.isOpen(), "closing the channel closes the file");
        assertThrows(ClosedChannelException.class, () -> ch.read(ByteBuffer.allocate(1), 0));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void locksAreRealFileLocks(Engine engine) throws Exception {
        Assumptions.assumeTrue(engine.isAvailable());
        Path p = sample();
        try (FileChannel ch = SluiceChannels.open(p, engine, StandardOpenOption.READ, StandardOpenOption.WRITE);
             FileChannel jdk = FileChannel.open(p, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            FileLock lock = ch.lock(0, 100, false);
            assertSame(ch, lock.channel());
            // The JDK keeps one table of this JVM's locks per file: its own channel sees Sluice's lock.
            assertThrows(OverlappingFileLockException.class, () -> jdk.tryLock(50, 10, false));
            lock.release();
            assertFalse(lock.isValid());
            FileLock other = jdk.tryLock(50, 10, false);
            assertNotNull(other);
            other.release();
            FileLock held = ch.tryLock(200, 10, true);
            ch.close();
            assertFalse(held.isValid(), "closing the channel releases its locks");
            assertNotNull(jdk.tryLock(200, 10, false));
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void mapIsAMappingOfTheFile(Engine engine) throws Exception {
        Assumptions.assumeTrue(engine.isAvailable());
        Path p = sample();
        try (FileChannel ch = SluiceChannels.open(p, engine, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            var m = ch.map(FileChannel.MapMode.READ_WRITE, 0, 10);
            m.put(0, (byte) 7);
            m.force();
            ByteBuffer b = ByteBuffer.allocate(1);
            ch.read(b, 0);
            assertEquals(7, b.get(0), "a write through the mapping is a write to the file");
        }
        byte[] all = Files.readAllBytes(p);
        assertEquals(7, all[0]);
        assertArrayEquals(new byte[] {(byte) 31}, new byte[] {all[1]});
    }
}
