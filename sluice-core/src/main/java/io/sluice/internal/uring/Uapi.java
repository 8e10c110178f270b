package io.sluice.internal.uring;

/**
 * The io_uring ABI: constants under their C names and the byte offsets of the structures, all from the kernel's
 * {@code include/uapi/linux/io_uring.h}. Flags and offsets are kept in {@code int}/{@code long} as the header types
 * them, so no flag is ever truncated on its way to the kernel.
 */
public final class Uapi {
    private Uapi() {
    }

    // ---------------------------------------------------------------- system call numbers
    // io_uring arrived after the syscall tables were unified, so these are the same on x86-64 and arm64.
    public static final long SYS_IO_URING_SETUP = 425;
    public static final long SYS_IO_URING_ENTER = 426;
    public static final long SYS_IO_URING_REGISTER = 427;

    // ---------------------------------------------------------------- io_uring_setup() flags
    public static final int IORING_SETUP_IOPOLL = 1 << 0;
    public static final int IORING_SETUP_SQPOLL = 1 << 1;
    public static final int IORING_SETUP_CQSIZE = 1 << 3;
    public static final int IORING_SETUP_CLAMP = 1 << 4;
    public static final int IORING_SETUP_SUBMIT_ALL = 1 << 7;
    public static final int IORING_SETUP_COOP_TASKRUN = 1 << 8;
    public static final int IORING_SETUP_SINGLE_ISSUER = 1 << 12;
    public static final int IORING_SETUP_DEFER_TASKRUN = 1 << 13;
    public static final int IORING_SETUP_NO_SQARRAY = 1 << 16;

    // ---------------------------------------------------------------- io_uring_params.features
    public static final int IORING_FEAT_SINGLE_MMAP = 1 << 0;
    public static final int IORING_FEAT_NODROP = 1 << 1;
    public static final int IORING_FEAT_SUBMIT_STABLE = 1 << 2;
    public static final int IORING_FEAT_RW_CUR_POS = 1 << 3;

    // ---------------------------------------------------------------- opcodes (enum io_uring_op)
    public static final byte IORING_OP_NOP = 0;
    public static final byte IORING_OP_READV = 1;
    public static final byte IORING_OP_WRITEV = 2;
    public static final byte IORING_OP_FSYNC = 3;
    public static final byte IORING_OP_READ_FIXED = 4;
    public static final byte IORING_OP_WRITE_FIXED = 5;
    /**
     * Cancels the request whose user_data is the entry's {@code addr} (cancel_flags 0: the default key, the first
     * match; Linux 5.5+). Its own result is 0, -ENOENT (nothing in flight has that user_data) or -EALREADY (running:
     * the kernel signalled the worker, and the request ends on its own); the cancelled request completes with
     * -ECANCELED, or with -EINTR or a partial count when it was interrupted while running.
     */
    public static final byte IORING_OP_ASYNC_CANCEL = 14;
    public static final byte IORING_OP_OPENAT = 18;
    public static final byte IORING_OP_CLOSE = 19;
    public static final byte IORING_OP_READ = 22;
    public static final byte IORING_OP_WRITE = 23;

    /** sqe->fsync_flags */
    public static final int IORING_FSYNC_DATASYNC = 1;

    // ---------------------------------------------------------------- sqe->flags
    public static final byte IOSQE_FIXED_FILE = 1 << 0;
    /** The next entry starts only after this one succeeded; a failure (or a short read) cancels the rest. */
    public static final byte IOSQE_IO_LINK = 1 << 2;
    /** Like IOSQE_IO_LINK, but the chain goes on even if this entry fails. */
    public static final byte IOSQE_IO_HARDLINK = 1 << 3;

    // ---------------------------------------------------------------- sqe->file_index
    /** OPENAT into a direct-descriptor slot the kernel picks; the slot comes back as the result (5.19+). */
    public static final int IORING_FILE_INDEX_ALLOC = ~0;

    // ---------------------------------------------------------------- io_uring_enter() flags
    public static final int IORING_ENTER_GETEVENTS = 1 << 0;
    public static final int IORING_ENTER_SQ_WAKEUP = 1 << 1;
    public static final int IORING_ENTER_REGISTERED_RING = 1 << 4;

    /** sq_ring->flags */
    public static final int IORING_SQ_NEED_WAKEUP = 1 << 0;
    public static final int IORING_SQ_CQ_OVERFLOW = 1 << 1;

    // ---------------------------------------------------------------- io_uring_register() opcodes
    public static final int IORING_REGISTER_BUFFERS = 0;
    public static final int IORING_UNREGISTER_BUFFERS = 1;
    public static final int IORING_UNREGISTER_FILES = 3;
    public static final int IORING_REGISTER_FILES2 = 13;
    public static final int IORING_REGISTER_FILES_UPDATE2 = 14;
    public static final int IORING_REGISTER_RING_FDS = 20;
    public static final int IORING_RSRC_REGISTER_SPARSE = 1;

    // ---------------------------------------------------------------- mmap offsets
    public static final long IORING_OFF_SQ_RING = 0L;
    public static final long IORING_OFF_CQ_RING = 0x8000000L;
    public static final long IORING_OFF_SQES = 0x10000000L;

    // ---------------------------------------------------------------- struct io_uring_sqe (64 bytes)
    public static final long SQE_SIZE = 64;
    public static final long SQE_OPCODE = 0;      // __u8
    public static final long SQE_FLAGS = 1;       // __u8
    public static final long SQE_IOPRIO = 2;      // __u16
    public static final long SQE_FD = 4;          // __s32
    public static final long SQE_OFF = 8;         // __u64 (also addr2)
    public static final long SQE_ADDR = 16;       // __u64
    public static final long SQE_LEN = 24;        // __u32
    public static final long SQE_OP_FLAGS = 28;   // __u32 union: rw_flags, fsync_flags, open_flags, ...
    public static final long SQE_USER_DATA = 32;  // __u64
    public static final long SQE_BUF_INDEX = 40;  // __u16
    public static final long SQE_PERSONALITY = 42; // __u16
    public static final long SQE_FILE_INDEX = 44; // __u32 union: splice_fd_in, file_index
    public static final long SQE_ADDR3 = 48;      // __u64
    public static final long SQE_PAD2 = 56;       // __u64

    // ---------------------------------------------------------------- struct io_uring_cqe (16 bytes)
    public static final long CQE_SIZE = 16;
    public static final long CQE_USER_DATA = 0;   // __u64
    public static final long CQE_RES = 8;         // __s32
    public static final long CQE_FLAGS = 12;      // __u32

    // ---------------------------------------------------------------- struct io_uring_params (120 bytes)
    public static final long PARAMS_SIZE = 120;
    public static final long P_SQ_ENTRIES = 0;
    public static final long P_CQ_ENTRIES = 4;
    public static final long P_FLAGS = 8;
    public static final long P_SQ_THREAD_CPU = 12;
    public static final long P_SQ_THREAD_IDLE = 16;
    public static final long P_FEATURES = 20;
    public static final long P_WQ_FD = 24;
    /** struct io_sqring_offsets sq_off, 40 bytes: head, tail, ring_mask, ring_entries, flags, dropped, array. */
    public static final long P_SQ_OFF = 40;
    /** struct io_cqring_offsets cq_off, 40 bytes: head, tail, ring_mask, ring_entries, overflow, cqes, flags. */
    public static final long P_CQ_OFF = 80;
    public static final long OFF_HEAD = 0;
    public static final long OFF_TAIL = 4;
    public static final long OFF_RING_MASK = 8;
    public static final long OFF_RING_ENTRIES = 12;
    public static final long SQ_OFF_FLAGS = 16;
    public static final long SQ_OFF_DROPPED = 20;
    public static final long SQ_OFF_ARRAY = 24;
    public static final long CQ_OFF_OVERFLOW = 16;
    public static final long CQ_OFF_CQES = 20;

    // ---------------------------------------------------------------- struct io_uring_rsrc_register (32 bytes)
    public static final long RSRC_REGISTER_SIZE = 32;
    public static final long RR_NR = 0;           // __u32
    public static final long RR_FLAGS = 4;        // __u32
    public static final long RR_DATA = 16;        // __u64
    public static final long RR_TAGS = 24;        // __u64

    // ---------------------------------------------------------------- struct io_uring_rsrc_update2 (32 bytes)
    public static final long RSRC_UPDATE2_SIZE = 32;
    public static final long RU_OFFSET = 0;       // __u32
    public static final long RU_DATA = 8;         // __u64
    public static final long RU_TAGS = 16;        // __u64
    public static final long RU_NR = 24;          // __u32

    // ---------------------------------------------------------------- struct io_uring_rsrc_update (16 bytes)
    public static final long RSRC_UPDATE_SIZE = 16;

    // ---------------------------------------------------------------- struct iovec (16 bytes)
    public static final long IOVEC_SIZE = 16;
}
