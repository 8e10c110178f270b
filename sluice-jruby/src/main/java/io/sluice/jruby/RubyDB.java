package io.sluice.jruby;

import static org.jruby.api.Convert.asBoolean;
import static org.jruby.api.Convert.asFixnum;
import static org.jruby.api.Convert.toLong;

import io.sluice.db.DamagedStoreException;
import io.sluice.db.KvCursor;
import io.sluice.db.KvStore;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jcodings.Encoding;
import org.jcodings.specific.ASCIIEncoding;
import org.jruby.Ruby;
import org.jruby.RubyArray;
import org.jruby.RubyClass;
import org.jruby.RubyHash;
import org.jruby.RubyModule;
import org.jruby.RubyObject;
import org.jruby.RubyString;
import org.jruby.anno.JRubyClass;
import org.jruby.anno.JRubyMethod;
import org.jruby.api.Create;
import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.Visibility;
import org.jruby.runtime.builtin.IRubyObject;
import org.jruby.util.ByteList;

/**
 * {@code Sluice::DB}: a {@link KvStore} with the Ruby API of Kyoto Cabinet's {@code KyotoCabinet::DB}. Keys and values
 * are binary Strings: a key or value passed in is copied once from the String's own array (the store keeps that copy),
 * and a value returned is a String sharing the store's array (Ruby copies it before any change), so bytes never pass
 * through {@code java.lang.String}. Strings returned are ASCII-8BIT. Objects other than Strings are stored as their
 * {@code to_s}, as Kyoto Cabinet does.
 *
 * <p>Errors follow Kyoto Cabinet: a failed call returns false, nil or -1 and records an error ({@code db.error});
 * with {@code GEXCEPTIONAL} the errors other than "no record", "duplicate record" and "logical inconsistency" raise
 * {@code Sluice::DB::Error::X<NAME>}, except an open the system refuses, which raises the {@code Errno::} class Ruby's
 * {@code File.open} would (see {@code openFailed}). The parts written in Ruby (open's argument parsing, blocks, iteration, the error
 * object) are in {@code lib/sluice/database.rb}.
 */
@SuppressWarnings("serial")
@JRubyClass(name = "Sluice::DB")
public final class RubyDB extends RubyObject {
    // Kyoto Cabinet's error codes (kcdb.h, BasicDB::Error::Code).
    static final int SUCCESS = 0;
    static final int NOIMPL = 1;
    static final int INVALID = 2;
    static final int NOREPOS = 3;
    static final int NOPERM = 4;
    static final int BROKEN = 5;
    static final int DUPREC = 6;
    static final int NOREC = 7;
    static final int LOGIC = 8;
    static final int SYSTEM = 9;
    static final int MISC = 15;
    private static final String[] NAMES = {"SUCCESS", "NOIMPL", "INVALID", "NOREPOS", "NOPERM", "BROKEN", "DUPREC",
        "NOREC", "LOGIC", "SYSTEM", "", "", "", "", "", "MISC"};
    /** The codes that raise in exceptional mode: all but DUPREC, NOREC and LOGIC, as in kyotocabinet-ruby. */
    private static final int RAISING = ~((1 << DUPREC) | (1 << NOREC) | (1 << LOGIC) | (1 << SUCCESS));

    private volatile KvStore store;
    private boolean exceptional;
    /** The Encoding of the Strings returned: binary unless {@code tune_encoding} says otherwise. */
    volatile Encoding encoding = ASCIIEncoding.INSTANCE;
    /** The codes that raise when {@code exceptional}: {@link #RAISING}, or those of {@code tune_exception_rule}. */
    private int raising = RAISING;
    private volatile int errorCode;
    private volatile String errorMessage = "no error";
    /** Whether the open transaction syncs to the disk when it commits; transactions are one at a time. */
    private boolean hardTransaction;

    /** Allocated by JRuby; {@code initialize} (in Ruby) sets the options. */
    public RubyDB(Ruby runtime, RubyClass type) {
        super(runtime, type);
    }

    /** {@code sluice_exceptional=(flag)} (private): whether errors raise. */
    @JRubyMethod(name = "sluice_exceptional=", visibility = Visibility.PRIVATE)
    public IRubyObject setExceptional(ThreadContext context, IRubyObject flag) {
        exceptional = flag.isTrue();
        return flag;
    }

    /**
     * {@code sluice_open(path, writable, create, truncate, repair = true)} (private): opens the file at
     * {@code path}, an absolute path String, or a store in memory when {@code path} is nil; true, or false with the
     * error recorded. A file cut short opens at its newest complete version with error BROKEN recorded and a warning
     * naming what was lost, or without {@code repair} (Kyoto Cabinet's ONOREPAIR) fails with BROKEN.
     */
    @JRubyMethod(name = "sluice_open", required = 4, optional = 1, visibility = Visibility.PRIVATE)
    public IRubyObject sluiceOpen(ThreadContext context, IRubyObject[] args) {
        if (store != null) {
            return fail(context, INVALID, "already opened");
        }
        try {
            if (args[0].isNil()) {
                store = KvStore.inMemory();
            } else {
                Path p = Path.of(args[0].convertToString().decodeString());
                boolean repair = args.length < 5 || args[4].isTrue();
                store = KvStore.open(p, args[1].isTrue(), args[2].isTrue(), args[3].isTrue(), repair);
                String dropped = store.droppedAtOpen();
                if (dropped != null) {
                    // Opened, so not raised even in exceptional mode; but recorded, and said where a user sees it.
                    errorCode = BROKEN;
                    errorMessage = dropped;
                    context.runtime.getKernel().callMethod(context, "warn",
                            RubyString.newString(context.runtime, "Sluice::DB#open: " + dropped));
                }
            }
        } catch (NoSuchFileException e) {
            return fail(context, NOREPOS, "open failed: no such file: " + e.getFile());
        } catch (DamagedStoreException e) {
            // Kyoto Cabinet's words: INVALID for a file without its magic data or with another's, BROKEN for one of
            // its own whose size does not match.
            return fail(context, e.isCutShort() ? BROKEN : INVALID, e.getMessage());
        } catch (IOException e) {
            return openFailed(context, e);
        }
        return context.tru;
    }

    /**
     * Records a failed open: NOPERM when the system refused the access (permission, a read-only file system), else
     * SYSTEM. In exceptional mode a failure with an errno raises its {@code Errno::} class, as Ruby's {@code File.open}
     * of the same path would, with the path and the cause in the message.
     */
    private IRubyObject openFailed(ThreadContext context, IOException e) {
        jnr.constants.platform.Errno errno = Errors.errnoOf(e);
        if (errno == null) {
            return fail(context, SYSTEM, e.getMessage());
        }
        int code = switch (errno) {
            case EACCES, EPERM, EROFS -> NOPERM;
            default -> SYSTEM;
        };
        if (!exceptional) {
            return fail(context, code, e.getMessage());
        }
        errorCode = code;
        errorMessage = e.getMessage();
        throw context.runtime.newErrnoFromErrno(errno, e.getMessage());
    }

    /** {@code sluice_fail(code, message)} (private): records an error (raising in exceptional mode); false. */
    @JRubyMethod(name = "sluice_fail", visibility = Visibility.PRIVATE)
    public IRubyObject sluiceFail(ThreadContext context, IRubyObject code, IRubyObject message) {
        return fail(context, (int) toLong(context, code), message.convertToString().decodeString());
    }

    /** {@code sluice_error}: {@code [code, name, message]} of the last error. */
    @JRubyMethod(name = "sluice_error")
    public IRubyObject sluiceError(ThreadContext context) {
        int code = errorCode;
        return Create.newArray(context, asFixnum(context, code), RubyString.newString(context.runtime, NAMES[code]),
                RubyString.newString(context.runtime, errorMessage));
    }

    /**
     * {@code sluice_note(code, message)} (private): records an error without raising, as Kyoto Cabinet leaves one
     * behind a call that succeeded (NOREC after the walk of {@code match_prefix}, SUCCESS after {@code close}). nil.
     */
    @JRubyMethod(name = "sluice_note", visibility = Visibility.PRIVATE)
    public IRubyObject sluiceNote(ThreadContext context, IRubyObject code, IRubyObject message) {
        note((int) toLong(context, code), message.convertToString().decodeString());
        return context.nil;
    }

    /** Records an error without raising (see {@code sluice_note}). */
    void note(int code, String message) {
        errorCode = code;
        errorMessage = message;
    }

    private IRubyObject fail(ThreadContext context, int code, String message) {
        errorCode = code;
        errorMessage = message;
        if (exceptional && (raising & (1 << code)) != 0) {
            RubyModule error = (RubyModule) getMetaClass().getRealClass().getConstant(context, "Error");
            RubyClass type = (RubyClass) error.getConstant(context, "X" + NAMES[code]);
            throw context.runtime.newRaiseException(type, message);
        }
        return context.fals;
    }

    /** The open store, or null with the error recorded (raised in exceptional mode). */
    private KvStore open(ThreadContext context) {
        KvStore s = store;
        if (s == null || s.isClosed()) {
            fail(context, INVALID, "not opened");
            return null;
        }
        return s;
    }

    private KvStore writable(ThreadContext context) {
        KvStore s = open(context);
        if (s != null && !s.isWritable()) {
            fail(context, NOPERM, "permission denied: opened as a reader: " + s.path());
            return null;
        }
        return s;
    }

    /** The bytes of a String (or of another object's {@code to_s}), copied once out of its array. */
    static byte[] bytes(IRubyObject o) {
        RubyString s = o instanceof RubyString r ? r : o.asString();
        ByteList b = s.getByteList();
        return Arrays.copyOfRange(b.unsafeBytes(), b.begin(), b.begin() + b.realSize());
    }

    /**
     * The bytes of a String for a lookup the store does not keep (a get): the String's own array when the String
     * fills it, else a copy. A get is the hottest call of an index, and most keys (those of {@code pack}, of a read)
     * fill their array.
     */
    static byte[] lookup(IRubyObject o) {
        RubyString s = o instanceof RubyString r ? r : o.asString();
        ByteList b = s.getByteList();
        byte[] a = b.unsafeBytes();
        return b.begin() == 0 && b.realSize() == a.length ? a : Arrays.copyOfRange(a, b.begin(), b.begin() + b.realSize());
    }

    /** A binary String over the store's array, copied by Ruby only if changed. */
    static RubyString string(Ruby runtime, byte[] bytes) {
        return RubyString.newStringShared(runtime, new ByteList(bytes, ASCIIEncoding.INSTANCE, false));
    }

    /** A String of {@code encoding} over the store's array, copied by Ruby only if changed. */
    static RubyString string(Ruby runtime, byte[] bytes, Encoding encoding) {
        return RubyString.newStringShared(runtime, new ByteList(bytes, encoding, false));
    }

    /** {@code sluice_encoding=(enc)} (private): the Encoding of the Strings returned, nil for ASCII-8BIT. */
    @JRubyMethod(name = "sluice_encoding=", visibility = Visibility.PRIVATE)
    public IRubyObject setEncoding(ThreadContext context, IRubyObject enc) {
        encoding = enc.isNil() ? ASCIIEncoding.INSTANCE : ((org.jruby.RubyEncoding) enc).getEncoding();
        return enc;
    }

    /** {@code get(key)}, {@code [](key)}: the value, or nil (error NOREC) when there is none. */
    @JRubyMethod(name = {"get", "[]", "fetch"})
    public IRubyObject get(ThreadContext context, IRubyObject key) {
        try {
            KvStore s = open(context);
            if (s == null) {
                return context.nil;
            }
            byte[] v = s.get(lookup(key));
            if (v == null) {
                fail(context, NOREC, "no record");
                return context.nil;
            }
            return string(context.runtime, v, encoding);
        } catch (RuntimeException e) {
            return storeFailed(context, e, "get", context.nil);
        }
    }

    /** {@code set(key, value)}: stores the value, replacing any; true. */
    @JRubyMethod(name = {"set", "store"})
    public IRubyObject set(ThreadContext context, IRubyObject key, IRubyObject value) {
        try {
            KvStore s = writable(context);
            if (s == null) {
                return context.fals;
            }
            s.put(bytes(key), bytes(value));
            return context.tru;
        } catch (RuntimeException e) {
            return storeFailed(context, e, "set", context.fals);
        }
    }

    /** {@code db[key] = value}: {@code set}; Ruby makes the expression's value {@code value}. */
    @JRubyMethod(name = "[]=")
    public IRubyObject aset(ThreadContext context, IRubyObject key, IRubyObject value) {
        set(context, key, value);
        return value;
    }

    /** {@code add(key, value)}: stores only if the key has no value; false (error DUPREC) if it has. */
    @JRubyMethod(name = "add")
    public IRubyObject add(ThreadContext context, IRubyObject key, IRubyObject value) {
        try {
            KvStore s = writable(context);
            if (s == null) {
                return context.fals;
            }
            return s.putIfAbsent(bytes(key), bytes(value)) ? context.tru : fail(context, DUPREC, "record duplication");
        } catch (RuntimeException e) {
            return storeFailed(context, e, "add", context.fals);
        }
    }

    /** {@code replace(key, value)}: stores only if the key has a value; false (error NOREC) if not. */
    @JRubyMethod(name = "replace")
    public IRubyObject replace(ThreadContext context, IRubyObject key, IRubyObject value) {
        try {
            KvStore s = writable(context);
            if (s == null) {
                return context.fals;
            }
            return s.replace(bytes(key), bytes(value)) ? context.tru : fail(context, NOREC, "no record");
        } catch (RuntimeException e) {
            return storeFailed(context, e, "replace", context.fals);
        }
    }

    /** {@code append(key, value)}: appends to the value (stores it if there is none); true. */
    @JRubyMethod(name = "append")
    public IRubyObject append(ThreadContext context, IRubyObject key, IRubyObject value) {
        try {
            KvStore s = writable(context);
            if (s == null) {
                return context.fals;
            }
            s.append(bytes(key), bytes(value));
            return context.tru;
        } catch (RuntimeException e) {
            return storeFailed(context, e, "append", context.fals);
        }
    }

    /** {@code remove(key)}: true, or false (error NOREC) when there was no value. */
    @JRubyMethod(name = {"remove", "delete"})
    public IRubyObject remove(ThreadContext context, IRubyObject key) {
        try {
            KvStore s = writable(context);
            if (s == null) {
                return context.fals;
            }
            return s.remove(bytes(key)) != null ? context.tru : fail(context, NOREC, "no record");
        } catch (RuntimeException e) {
            return storeFailed(context, e, "remove", context.fals);
        }
    }

    /** {@code seize(key)}: removes the record and returns its value, in one step; nil (error NOREC) if none. */
    @JRubyMethod(name = "seize")
    public IRubyObject seize(ThreadContext context, IRubyObject key) {
        try {
            KvStore s = writable(context);
            if (s == null) {
                return context.nil;
            }
            byte[] old = s.remove(bytes(key));
            if (old == null) {
                fail(context, NOREC, "no record");
                return context.nil;
            }
            return string(context.runtime, old, encoding);
        } catch (RuntimeException e) {
            return storeFailed(context, e, "seize", context.nil);
        }
    }

    /**
     * {@code shift}: removes the first record and returns {@code [key, value]}; nil with error NOREC when there is
     * none, else NOPERM on a reader (whose every write Kyoto Cabinet refuses).
     */
    @JRubyMethod(name = "shift")
    public IRubyObject shift(ThreadContext context) {
        try {
            KvStore s = open(context);
            if (s == null) {
                return context.nil;
            }
            // Kyoto Cabinet's shift looks for the first record before it tries to remove it.
            if (s.ceilingKey(new byte[0]) == null) {
                fail(context, NOREC, "no record");
                return context.nil;
            }
            if (writable(context) == null) {
                return context.nil;
            }
            byte[][] first = s.pollFirst();
            if (first == null) {
                fail(context, NOREC, "no record");
                return context.nil;
            }
            if (s.ceilingKey(first[0]) == null) {
                // Kyoto Cabinet's shift seizes through a cursor, which then steps past the last record.
                note(NOREC, "no record");
            }
            return Create.newArray(context, string(context.runtime, first[0], encoding),
                    string(context.runtime, first[1], encoding));
        } catch (RuntimeException e) {
            return storeFailed(context, e, "shift", context.nil);
        }
    }

    /**
     * {@code increment(key, num = 0, orig = 0)}: adds {@code num} to the integer stored as 8 big-endian bytes (as
     * Kyoto Cabinet stores it) and returns the sum; a missing record starts at {@code orig}. A value that is not 8
     * bytes long is nil with error LOGIC, as in Kyoto Cabinet.
     */
    @JRubyMethod(name = "increment", optional = 3)
    public IRubyObject increment(ThreadContext context, IRubyObject[] args) {
        try {
            if (args.length < 1) {
                throw context.runtime.newArgumentError(args.length, 1, 3);
            }
            KvStore s = writable(context);
            if (s == null) {
                return context.nil;
            }
            long num = args.length > 1 && !args[1].isNil() ? toLong(context, args[1]) : 0;
            long orig = args.length > 2 && !args[2].isNil() ? toLong(context, args[2]) : 0;
            byte[] k = bytes(args[0]);
            // A transaction of our own (or the caller's) makes the read and the write one step for other threads.
            boolean own = !s.inTransaction();
            if (own) {
                try {
                    s.beginTransaction();
                } catch (IOException e) {
                    fail(context, SYSTEM, e.getMessage());
                    return context.nil;
                }
            }
            boolean ok = false;
            try {
                byte[] old = s.get(k);
                if (old != null && old.length != 8) {
                    ok = true;
                    fail(context, LOGIC, "logical inconsistency: the value is not an 8-byte integer");
                    return context.nil;
                }
                long sum = (old == null ? orig : ByteBuffer.wrap(old).getLong()) + num;
                s.put(k, ByteBuffer.allocate(8).putLong(sum).array());
                ok = true;
                return asFixnum(context, sum);
            } finally {
                if (own) {
                    endOwn(context, s, ok);
                }
            }
        } catch (RuntimeException e) {
            return storeFailed(context, e, "increment", context.nil);
        }
    }

    /** Ends a transaction this class began for one call: commits it, or aborts it when the call failed. */
    private void endOwn(ThreadContext context, KvStore s, boolean ok) {
        if (ok) {
            try {
                s.commitTransaction(false);
                return;
            } catch (IOException e) {
                if (s.inTransaction()) {
                    s.abortTransaction();
                }
                fail(context, SYSTEM, e.getMessage());
                return;
            }
        }
        s.abortTransaction();
    }

    /** {@code set_bulk(hash, atomic = true)}: stores every pair; the number stored, or -1. */
    @JRubyMethod(name = "set_bulk", required = 1, optional = 1)
    public IRubyObject setBulk(ThreadContext context, IRubyObject[] args) {
        try {
            if (args[0].convertToHash().isEmpty() && args.length > 1 && !args[1].isTrue()) {
                // Kyoto Cabinet's non-atomic form checks each record, so nothing to set is no error, even on a
                // reader (its atomic form checks the database first).
                return open(context) == null ? asFixnum(context, -1) : asFixnum(context, 0);
            }
            KvStore s = writable(context);
            if (s == null) {
                return asFixnum(context, -1);
            }
            RubyHash hash = args[0].convertToHash();
            boolean atomic = args.length < 2 || args[1].isTrue();
            List<byte[][]> entries = new ArrayList<>(hash.size());
            hash.visitAll(context, new RubyHash.VisitorWithState<List<byte[][]>>() {
                @Override
                public void visit(ThreadContext c, RubyHash h, IRubyObject k, IRubyObject v, int index,
                        List<byte[][]> list) {
                    list.add(new byte[][] {bytes(k), bytes(v)});
                }
            }, entries);
            try {
                s.putAll(entries, atomic);
            } catch (IOException e) {
                fail(context, SYSTEM, e.getMessage());
                return asFixnum(context, -1);
            }
            return asFixnum(context, entries.size());
        } catch (RuntimeException e) {
            return storeFailed(context, e, "set_bulk", asFixnum(context, -1));
        }
    }

    /** {@code get_bulk(keys, atomic = true)}: a Hash of the keys that have values to their values. */
    @JRubyMethod(name = "get_bulk", required = 1, optional = 1)
    public IRubyObject getBulk(ThreadContext context, IRubyObject[] args) {
        try {
            KvStore s = open(context);
            if (s == null) {
                return context.nil;
            }
            RubyArray<?> keys = args[0].convertToArray();
            RubyHash out = RubyHash.newHash(context.runtime);
            for (int i = 0; i < keys.size(); i++) {
                IRubyObject k = keys.eltInternal(i);
                byte[] v = s.get(bytes(k));
                if (v != null) {
                    out.fastASet(k instanceof RubyString ? k : k.asString(), string(context.runtime, v, encoding));
                }
            }
            return out;
        } catch (RuntimeException e) {
            return storeFailed(context, e, "get_bulk", context.nil);
        }
    }

    /** {@code remove_bulk(keys, atomic = true)}: removes the keys; the number that had values, or -1. */
    @JRubyMethod(name = "remove_bulk", required = 1, optional = 1)
    public IRubyObject removeBulk(ThreadContext context, IRubyObject[] args) {
        try {
            boolean atomic = args.length < 2 || args[1].isTrue();
            if (args[0].convertToArray().isEmpty() && !atomic) {
                return open(context) == null ? asFixnum(context, -1) : asFixnum(context, 0);
            }
            KvStore s = writable(context);
            if (s == null) {
                return asFixnum(context, -1);
            }
            RubyArray<?> keys = args[0].convertToArray();
            List<byte[]> list = new ArrayList<>(keys.size());
            for (int i = 0; i < keys.size(); i++) {
                list.add(bytes(keys.eltInternal(i)));
            }
            try {
                long removed = s.removeAll(list, atomic);
                if (!atomic && removed < list.size()) {
                    // Kyoto Cabinet's non-atomic form removes one by one, and a key without a record leaves NOREC.
                    note(NOREC, "no record");
                }
                return asFixnum(context, removed);
            } catch (IOException e) {
                fail(context, SYSTEM, e.getMessage());
                return asFixnum(context, -1);
            }
        } catch (RuntimeException e) {
            return storeFailed(context, e, "remove_bulk", asFixnum(context, -1));
        }
    }

    /** {@code match_prefix(prefix, max = -1)}: the keys that start with {@code prefix}, in order, at most max. */
    @JRubyMethod(name = "match_prefix", required = 1, optional = 1)
    public IRubyObject matchPrefix(ThreadContext context, IRubyObject[] args) {
        try {
            KvStore s = open(context);
            if (s == null) {
                return context.nil;
            }
            byte[] prefix = bytes(args[0]);
            long max = args.length > 1 && !args[1].isNil() ? toLong(context, args[1]) : -1;
            RubyArray<?> out = Create.newArray(context);
            KvCursor c = s.cursor();
            boolean more = c.jump(prefix);
            for (; more && (max < 0 || out.size() < max); more = c.step()) {
                byte[] k = c.key();
                if (k.length < prefix.length || !Arrays.equals(k, 0, prefix.length, prefix, 0, prefix.length)) {
                    // Kyoto Cabinet reads each key with a step, this one too.
                    more = c.step();
                    break;
                }
                out.append(context, string(context.runtime, k, encoding));
            }
            if (!more) {
                // Kyoto Cabinet's walk leaves NOREC behind when its cursor stepped past the last record.
                note(NOREC, "no record");
            }
            return out;
        } catch (RuntimeException e) {
            return storeFailed(context, e, "match_prefix", context.nil);
        }
    }

    /** {@code count}: the number of records, or -1. */
    @JRubyMethod(name = {"count", "length"})
    public IRubyObject count(ThreadContext context) {
        try {
            KvStore s = open(context);
            return asFixnum(context, s == null ? -1 : s.count());
        } catch (RuntimeException e) {
            return storeFailed(context, e, "count", asFixnum(context, -1));
        }
    }

    /** {@code size}: the size of the file in bytes (an estimate for a store in memory), or -1. */
    @JRubyMethod(name = "size")
    public IRubyObject size(ThreadContext context) {
        try {
            KvStore s = open(context);
            return asFixnum(context, s == null ? -1 : s.size());
        } catch (RuntimeException e) {
            return storeFailed(context, e, "size", asFixnum(context, -1));
        }
    }

    /** {@code clear}: removes every record; true. */
    @JRubyMethod(name = "clear")
    public IRubyObject clear(ThreadContext context) {
        try {
            KvStore s = writable(context);
            if (s == null) {
                return context.fals;
            }
            s.clear();
            return context.tru;
        } catch (RuntimeException e) {
            return storeFailed(context, e, "clear", context.fals);
        }
    }

    /**
     * {@code begin_transaction(hard = false)}: starts a transaction, waiting for another thread's to end; false
     * (error LOGIC) if this thread is in one already. With {@code hard} its commit also syncs the file to the disk.
     */
    @JRubyMethod(name = "begin_transaction", optional = 1)
    public IRubyObject beginTransaction(ThreadContext context, IRubyObject[] args) {
        try {
            KvStore s = writable(context);
            if (s == null) {
                return context.fals;
            }
            if (s.inTransaction()) {
                return fail(context, LOGIC, "logical inconsistency: a transaction is open already");
            }
            try {
                s.beginTransaction();
            } catch (IOException e) {
                return fail(context, SYSTEM, e.getMessage());
            }
            hardTransaction = args.length > 0 && args[0].isTrue();
            return context.tru;
        } catch (RuntimeException e) {
            return storeFailed(context, e, "begin_transaction", context.fals);
        }
    }

    /** {@code end_transaction(commit = true)}: commits or aborts; false (error INVALID) with none open. */
    @JRubyMethod(name = "end_transaction", optional = 1)
    public IRubyObject endTransaction(ThreadContext context, IRubyObject[] args) {
        try {
            KvStore s = open(context);
            if (s == null) {
                return context.fals;
            }
            if (!s.inTransaction()) {
                return fail(context, INVALID, "not in transaction");
            }
            if (args.length == 0 || args[0].isTrue()) {
                try {
                    s.commitTransaction(hardTransaction);
                } catch (IOException e) {
                    // Kyoto Cabinet ends the transaction either way; a commit that could not be written is taken back.
                    if (s.inTransaction()) {
                        s.abortTransaction();
                    }
                    return fail(context, SYSTEM, e.getMessage());
                }
            } else {
                s.abortTransaction();
            }
            return context.tru;
        } catch (RuntimeException e) {
            return storeFailed(context, e, "end_transaction", context.fals);
        }
    }

    /** {@code sluice_sync(hard)} (private): commits, and with {@code hard} syncs the file; true. */
    @JRubyMethod(name = "sluice_sync", visibility = Visibility.PRIVATE)
    public IRubyObject sync(ThreadContext context, IRubyObject hard) {
        try {
            KvStore s = open(context);
            if (s == null) {
                return context.fals;
            }
            try {
                s.sync(hard.isTrue());
            } catch (IOException e) {
                return fail(context, SYSTEM, e.getMessage());
            }
            return context.tru;
        } catch (RuntimeException e) {
            return storeFailed(context, e, "synchronize", context.fals);
        }
    }

    /** {@code sluice_path} (private): the file's absolute path, "" in memory, nil when not open. */
    @JRubyMethod(name = "sluice_path", visibility = Visibility.PRIVATE)
    public IRubyObject sluicePath(ThreadContext context) {
        KvStore s = store;
        if (s == null) {
            return context.nil;
        }
        return RubyString.newString(context.runtime, s.path() == null ? "" : s.path().toString());
    }

    /** {@code sluice_cursor} (private): a new {@code Sluice::DB::Cursor}, or nil when not open. */
    @JRubyMethod(name = "sluice_cursor", visibility = Visibility.PRIVATE)
    public IRubyObject sluiceCursor(ThreadContext context) {
        KvStore s = open(context);
        if (s == null) {
            return context.nil;
        }
        RubyClass type = (RubyClass) getMetaClass().getRealClass().getConstant(context, "Cursor");
        return new RubyDBCursor(context.runtime, type, this, s);
    }

    /** {@code close}: commits, syncs and closes; true, or false (error INVALID) when not open. */
    @JRubyMethod(name = "close")
    public IRubyObject close(ThreadContext context) {
        try {
            KvStore s = open(context);
            if (s == null) {
                return context.fals;
            }
            try {
                s.close();
            } catch (IOException e) {
                return fail(context, SYSTEM, e.getMessage());
            } finally {
                store = null;
            }
            errorCode = SUCCESS;
            errorMessage = "no error";
            return context.tru;
        } catch (RuntimeException e) {
            return storeFailed(context, e, "close", context.fals);
        }
    }

    /**
     * What a call does when the store threw {@code e}: a failure of the store (a damaged page, a failed read or
     * write, a store closed by an earlier failure) is recorded with Kyoto Cabinet's code for it (see
     * {@link Errors#dbCode}), raised in exceptional mode, and the call returns {@code result}; anything else is
     * rethrown.
     */
    IRubyObject storeFailed(ThreadContext context, RuntimeException e, String op, IRubyObject result) {
        int code = Errors.dbCode(e);
        if (code < 0) {
            throw e;
        }
        KvStore s = store;
        String where = s == null ? "" : s.path() == null ? "(memory)" : s.path().toString();
        fail(context, code, op + "(" + where + "): " + Errors.dbMessage(e));
        return result;
    }

    /**
     * {@code sluice_exception_rule(codes)} (private): Kyoto Cabinet's {@code tune_exception_rule}: from now on
     * exactly the error codes listed raise (and errors raise even without GEXCEPTIONAL). True.
     */
    @JRubyMethod(name = "sluice_exception_rule", visibility = Visibility.PRIVATE)
    public IRubyObject sluiceExceptionRule(ThreadContext context, IRubyObject codes) {
        RubyArray<?> list = codes.convertToArray();
        int mask = 0;
        for (int i = 0; i < list.size(); i++) {
            long code = toLong(context, list.eltInternal(i));
            if (code >= 0 && code < NAMES.length && !NAMES[(int) code].isEmpty()) {
                mask |= 1 << code;
            }
        }
        raising = mask & ~(1 << SUCCESS);
        exceptional = true;
        return context.tru;
    }

    /**
     * {@code sluice_usable(writable)} (private): true when the database is open (and writable, if asked); else
     * false with INVALID or NOPERM recorded, raised in exceptional mode.
     */
    @JRubyMethod(name = "sluice_usable", visibility = Visibility.PRIVATE)
    public IRubyObject sluiceUsable(ThreadContext context, IRubyObject writable) {
        return (writable.isTrue() ? writable(context) : open(context)) != null ? context.tru : context.fals;
    }

    /** {@code sluice_writable?} (private): whether the database is open for writing, recording nothing. */
    @JRubyMethod(name = "sluice_writable?", visibility = Visibility.PRIVATE)
    public IRubyObject sluiceWritable(ThreadContext context) {
        KvStore s = store;
        return s != null && !s.isClosed() && s.isWritable() ? context.tru : context.fals;
    }

    /** {@code sluice_value(key)} (private): the value, or nil, recording no error (the visitors' read). */
    @JRubyMethod(name = "sluice_value", visibility = Visibility.PRIVATE)
    public IRubyObject sluiceValue(ThreadContext context, IRubyObject key) {
        try {
            KvStore s = open(context);
            byte[] v = s == null ? null : s.get(bytes(key));
            return v == null ? context.nil : string(context.runtime, v, encoding);
        } catch (RuntimeException e) {
            return storeFailed(context, e, "accept", context.nil);
        }
    }

    /**
     * {@code sluice_exclusive { ... }} (private): yields holding the store's write lock (see
     * {@link KvStore#exclusively}), so that the visitors' read-then-write is one step for other threads; the block's
     * value, or false (NOPERM, INVALID) when the database is not open for writing.
     */
    @JRubyMethod(name = "sluice_exclusive", visibility = Visibility.PRIVATE)
    public IRubyObject sluiceExclusive(ThreadContext context, org.jruby.runtime.Block block) {
        KvStore s = writable(context);
        if (s == null) {
            return context.fals;
        }
        try {
            return s.exclusively(() -> block.yieldSpecific(context));
        } catch (RuntimeException e) {
            return storeFailed(context, e, "accept", context.fals);
        }
    }

    /**
     * {@code sluice_each { |pair| ... }} (private): yields {@code [key, value]} for every record in key order, over
     * the tree as it was when the walk began, recording no error at the end (as Kyoto Cabinet's {@code each} and
     * {@code iterate} record none); true, or false when not open.
     */
    @JRubyMethod(name = "sluice_each", visibility = Visibility.PRIVATE)
    public IRubyObject sluiceEach(ThreadContext context, org.jruby.runtime.Block block) {
        KvStore s = open(context);
        if (s == null) {
            return context.fals;
        }
        try {
            KvCursor c = s.snapshotCursor();
            for (boolean more = c.jump(null); more; more = c.step()) {
                block.yield(context, Create.newArray(context, string(context.runtime, c.key(), encoding),
                        string(context.runtime, c.value(), encoding)));
            }
            return context.tru;
        } catch (RuntimeException e) {
            return storeFailed(context, e, "each", context.fals);
        }
    }

    /** {@code sluice_copy(dest)} (private): copies the file to {@code dest} ({@link KvStore#copyTo}); true or false. */
    @JRubyMethod(name = "sluice_copy", visibility = Visibility.PRIVATE)
    public IRubyObject sluiceCopy(ThreadContext context, IRubyObject dest) {
        KvStore s = open(context);
        if (s == null) {
            return context.fals;
        }
        if (s.path() == null) {
            // Kyoto Cabinet's in-memory databases fail the same way, with LOGIC.
            return fail(context, LOGIC, "copy: a database in memory has no file to copy");
        }
        try {
            s.copyTo(Path.of(dest.convertToString().decodeString()).toAbsolutePath());
        } catch (NoSuchFileException e) {
            return fail(context, NOREPOS, "copy: no such directory: " + e.getMessage());
        } catch (IOException e) {
            return fail(context, SYSTEM, e.getMessage());
        } catch (RuntimeException e) {
            return storeFailed(context, e, "copy", context.fals);
        }
        return context.tru;
    }

    /** Records an error for {@link RubyDBCursor} (raising in exceptional mode). */
    IRubyObject cursorFail(ThreadContext context, int code, String message) {
        return fail(context, code, message);
    }
}
