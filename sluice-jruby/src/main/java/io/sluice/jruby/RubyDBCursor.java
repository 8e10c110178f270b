package io.sluice.jruby;

import io.sluice.db.KvCursor;
import io.sluice.db.KvStore;
import org.jruby.Ruby;
import org.jruby.RubyClass;
import org.jruby.RubyObject;
import org.jruby.anno.JRubyClass;
import org.jruby.anno.JRubyMethod;
import org.jruby.api.Create;
import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.builtin.IRubyObject;

/**
 * {@code Sluice::DB::Cursor}: Kyoto Cabinet's cursor over a {@link RubyDB}, a {@link KvCursor}. A new cursor is
 * nowhere: {@code jump} first. At either end {@code step} and {@code step_back} return false and leave the cursor
 * nowhere; {@code key}, {@code value} and {@code get} then return nil with error NOREC, as in Kyoto Cabinet. One
 * thread at a time (each thread its own cursor).
 */
@SuppressWarnings("serial")
@JRubyClass(name = "Sluice::DB::Cursor")
public final class RubyDBCursor extends RubyObject {
    private final RubyDB db;
    /** The store the cursor was made on: the database may have been closed and opened on another since. */
    private final KvStore store;
    private KvCursor cursor;

    RubyDBCursor(Ruby runtime, RubyClass type, RubyDB db, KvStore store) {
        super(runtime, type);
        this.db = db;
        this.store = store;
        this.cursor = store.cursor();
    }

    private KvCursor cursor(ThreadContext context) {
        if (cursor == null || store.isClosed()) {
            db.cursorFail(context, RubyDB.INVALID, "not opened (or the cursor was disabled)");
            return null;
        }
        return cursor;
    }

    // The methods with an optional argument are one Java method per arity rather than one taking IRubyObject[]:
    // JRuby then calls them without building an argument array, which a scan would otherwise pay for every record.

    /** {@code jump}: to the first record; whether there is one. */
    @JRubyMethod(name = "jump")
    public IRubyObject jump(ThreadContext context) {
        return jumpTo(context, null);
    }

    /** {@code jump(key)}: to the first record at or after {@code key} (the first record when nil); whether found. */
    @JRubyMethod(name = "jump")
    public IRubyObject jump(ThreadContext context, IRubyObject key) {
        return jumpTo(context, key);
    }

    private IRubyObject jumpTo(ThreadContext context, IRubyObject key) {
        try {
            KvCursor c = cursor(context);
            if (c == null) {
                return context.fals;
            }
            byte[] from = key != null && !key.isNil() ? RubyDB.bytes(key) : null;
            return c.jump(from) ? context.tru : db.cursorFail(context, RubyDB.NOREC, "no record");
        } catch (RuntimeException e) {
            return db.storeFailed(context, e, "jump", context.fals);
        }
    }

    /** {@code jump_back}: to the last record; whether there is one. */
    @JRubyMethod(name = "jump_back")
    public IRubyObject jumpBack(ThreadContext context) {
        return jumpBackTo(context, null);
    }

    /** {@code jump_back(key)}: to the last record at or before {@code key} (the last record when nil); whether found. */
    @JRubyMethod(name = "jump_back")
    public IRubyObject jumpBack(ThreadContext context, IRubyObject key) {
        return jumpBackTo(context, key);
    }

    private IRubyObject jumpBackTo(ThreadContext context, IRubyObject key) {
        try {
            KvCursor c = cursor(context);
            if (c == null) {
                return context.fals;
            }
            byte[] from = key != null && !key.isNil() ? RubyDB.bytes(key) : null;
            if (!c.jumpBack(from)) {
                return db.cursorFail(context, RubyDB.NOREC, "no record");
            }
            if (from != null && store.ceilingKey(from) == null) {
                // Kyoto Cabinet looks for a key at or after the one given first, and notes NOREC when there is none.
                db.note(RubyDB.NOREC, "no record");
            }
            return context.tru;
        } catch (RuntimeException e) {
            return db.storeFailed(context, e, "jump_back", context.fals);
        }
    }

    /** {@code step}: to the next record; false (error NOREC) past the last. */
    @JRubyMethod(name = "step")
    public IRubyObject step(ThreadContext context) {
        try {
            KvCursor c = cursor(context);
            if (c == null) {
                return context.fals;
            }
            return c.step() ? context.tru : db.cursorFail(context, RubyDB.NOREC, "no record");
        } catch (RuntimeException e) {
            return db.storeFailed(context, e, "step", context.fals);
        }
    }

    /** {@code step_back}: to the previous record; false (error NOREC) before the first. */
    @JRubyMethod(name = "step_back")
    public IRubyObject stepBack(ThreadContext context) {
        try {
            KvCursor c = cursor(context);
            if (c == null) {
                return context.fals;
            }
            return c.stepBack() ? context.tru : db.cursorFail(context, RubyDB.NOREC, "no record");
        } catch (RuntimeException e) {
            return db.storeFailed(context, e, "step_back", context.fals);
        }
    }

    /** {@code key}, {@code get_key} (Kyoto Cabinet's name): the current key; nil (error NOREC) when nowhere. */
    @JRubyMethod(name = {"key", "get_key"})
    public IRubyObject key(ThreadContext context) {
        return current(context, false, 0);
    }

    /** {@code key(step)}, {@code get_key(step)}: the current key, then a step on if {@code step} is true. */
    @JRubyMethod(name = {"key", "get_key"})
    public IRubyObject key(ThreadContext context, IRubyObject step) {
        return current(context, step.isTrue(), 0);
    }

    /** {@code value}, {@code get_value}: the current value; nil (error NOREC) when nowhere. */
    @JRubyMethod(name = {"value", "get_value"})
    public IRubyObject value(ThreadContext context) {
        return current(context, false, 1);
    }

    /** {@code value(step)}, {@code get_value(step)}: the current value, then a step on if {@code step} is true. */
    @JRubyMethod(name = {"value", "get_value"})
    public IRubyObject value(ThreadContext context, IRubyObject step) {
        return current(context, step.isTrue(), 1);
    }

    /** {@code get}: {@code [key, value]}; nil (error NOREC) when nowhere. */
    @JRubyMethod(name = "get")
    public IRubyObject get(ThreadContext context) {
        return current(context, false, 2);
    }

    /** {@code get(step)}: {@code [key, value]}, then a step on if {@code step} is true. */
    @JRubyMethod(name = "get")
    public IRubyObject get(ThreadContext context, IRubyObject step) {
        return current(context, step.isTrue(), 2);
    }

    private IRubyObject current(ThreadContext context, boolean step, int what) {
        try {
            KvCursor c = cursor(context);
            if (c == null) {
                return context.nil;
            }
            byte[] k = c.key();
            if (k == null) {
                db.cursorFail(context, RubyDB.NOREC, "no record");
                return context.nil;
            }
            Ruby runtime = context.runtime;
            IRubyObject out = switch (what) {
                case 0 -> RubyDB.string(runtime, k, db.encoding);
                case 1 -> RubyDB.string(runtime, c.value(), db.encoding);
                default -> Create.newArray(context, RubyDB.string(runtime, k, db.encoding),
                        RubyDB.string(runtime, c.value(), db.encoding));
            };
            if (step) {
                // Kyoto Cabinet's cursor steps on in the direction it last moved, and off the end leaves NOREC.
                if (!c.stepOn()) {
                    db.note(RubyDB.NOREC, "no record");
                }
            }
            return out;
        } catch (RuntimeException e) {
            return db.storeFailed(context, e, "cursor", context.nil);
        }
    }

    /**
     * {@code sluice_reposition(key)} (private): after a write through the cursor, reads the tree again at the current
     * key ({@link KvCursor#refresh}); true when on a record.
     */
    @JRubyMethod(name = "sluice_reposition", visibility = org.jruby.runtime.Visibility.PRIVATE)
    public IRubyObject sluiceReposition(ThreadContext context, IRubyObject key) {
        try {
            KvCursor c = cursor(context);
            return c != null && c.refresh() ? context.tru : context.fals;
        } catch (RuntimeException e) {
            return db.storeFailed(context, e, "cursor", context.fals);
        }
    }

    /** {@code sluice_step_on} (private): a step in the direction the cursor last moved; whether on a record. */
    @JRubyMethod(name = "sluice_step_on", visibility = org.jruby.runtime.Visibility.PRIVATE)
    public IRubyObject sluiceStepOn(ThreadContext context) {
        try {
            KvCursor c = cursor(context);
            return c != null && c.stepOn() ? context.tru : context.fals;
        } catch (RuntimeException e) {
            return db.storeFailed(context, e, "cursor", context.fals);
        }
    }

    /** {@code disable}: forgets the position; later calls fail with error INVALID. nil. */
    @JRubyMethod(name = "disable")
    public IRubyObject disable(ThreadContext context) {
        cursor = null;
        return context.nil;
    }

    /** {@code db}: the database. */
    @JRubyMethod(name = "db")
    public IRubyObject db(ThreadContext context) {
        return db;
    }

    /** {@code error}: the database's last error. */
    @JRubyMethod(name = "error")
    public IRubyObject error(ThreadContext context) {
        return db.callMethod(context, "error");
    }
}
