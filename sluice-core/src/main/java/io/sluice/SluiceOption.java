package io.sluice;

import java.nio.file.OpenOption;

/** Open options of Sluice's own, beside the JDK's {@link java.nio.file.StandardOpenOption}s and {@link Advice}. */
public enum SluiceOption implements OpenOption {
    /**
     * O_DIRECT: transfers bypass the page cache and go straight between the device and your memory. Positions,
     * lengths and memory addresses must then be multiples of the file system's block size
     * ({@link java.nio.file.FileStore#getBlockSize()}); a misaligned call throws {@link IllegalArgumentException}
     * before any I/O. Supported by the IO_URING engine; other engines refuse it with
     * {@link UnsupportedOperationException}.
     */
    DIRECT,

    /**
     * IORING_SETUP_SQPOLL: the file's requests go through a separate io_uring ring whose submission queue a kernel
     * thread polls, so a submission is a memory store and, while that thread is awake, no system call at all; a
     * caller waiting for its completion spins briefly on the completion queue before it parks. The pool of these
     * rings is created on first use and has one ring (one kernel thread) for the whole JVM; files opened without this
     * option never touch it.
     *
     * <p>The cost: the kernel thread keeps one core busy spinning for as long as requests arrive, and for 50 ms
     * (its {@code sq_thread_idle}) after the last one, before it sleeps; the next submission then wakes it with one
     * system call. It pays off for a steady stream of requests, such as deep batches from one thread, and wastes a
     * core on a machine that has none to spare.
     *
     * <p>IO_URING engine only. If the kernel refuses such a ring (EPERM from a seccomp policy or an older kernel's
     * privilege rule, ENOMEM, ...), opening fails with an {@link java.io.IOException} giving the cause; the option is
     * never silently ignored.
     */
    SQPOLL,

    /**
     * IORING_SETUP_IOPOLL: the file's reads and writes go through rings that complete requests by polling the
     * device's completion queues instead of waiting for its interrupts, which cuts latency on fast NVMe devices.
     * Requires {@link #DIRECT} (the page cache cannot be polled) and a device driver with poll queues (for NVMe, the
     * {@code nvme.poll_queues} module parameter); opening checks the device and fails with an
     * {@link java.io.IOException} ("IOPOLL not supported by the device of ...") when it has none. Opening, closing
     * and {@code force} go through the ordinary rings, since the kernel refuses those operations on a polled ring.
     *
     * <p>The cost: completions are found only by polling, so the ring's completion thread spins in the kernel while
     * any request is in flight. IO_URING engine only.
     */
    IOPOLL
}
