package io.sluice.jruby;

import io.sluice.chunks.ChunkedReader;
import io.sluice.maf.MafFormatException;
import io.sluice.maf.MafHandler;
import io.sluice.maf.MafLine;
import io.sluice.maf.MafParser;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jcodings.specific.ASCIIEncoding;
import org.jruby.Ruby;
import org.jruby.RubyArray;
import org.jruby.RubyClass;
import org.jruby.RubyHash;
import org.jruby.RubyModule;
import org.jruby.RubyString;
import org.jruby.RubySymbol;
import org.jruby.anno.JRubyMethod;
import org.jruby.anno.JRubyModule;
import org.jruby.runtime.Block;
import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.builtin.IRubyObject;
import org.jruby.util.ByteList;

/**
 * {@code Sluice::MAF}: {@link MafParser} for Ruby, fed by a {@link ChunkedReader} with the adaptive chunk size. Each
 * block comes to the caller's Ruby block as a {@code Sluice::MAF::Block} ({@link RubyMafBlock}) of
 * {@code Sluice::MAF::Sequence}s ({@link RubyMafSequence}), made as the parser reports the block's last line; the
 * text of a row is one ASCII-8BIT String, copied once from the parser's line buffer. The Ruby wrapper
 * ({@code lib/sluice/maf.rb}) adds the enumerator form.
 */
@JRubyModule(name = "Sluice::MAF")
public final class RubyMaf {
    /** Past this many distinct source names (a draft assembly's scaffolds), new ones are not remembered. */
    private static final int MAX_SOURCES = 1 << 16;

    private RubyMaf() {
    }

    /**
     * {@code Sluice::MAF.sluice_each_block(path)} (called by {@code each_block}): parses the file at {@code path}, an
     * absolute path String, yielding each block; returns the input offset of a last line cut short and dropped, or
     * nil. A {@link MafFormatException} becomes {@code Sluice::MAF::FormatError} with its line and offset.
     */
    @JRubyMethod(name = "sluice_each_block", module = true)
    public static IRubyObject eachBlock(ThreadContext context, IRubyObject self, IRubyObject path, Block block) {
        Path p = Path.of(path.convertToString().decodeString());
        RubyModule maf = (RubyModule) self;
        Builder builder = new Builder(context, maf, block);
        try (ChunkedReader reader = ChunkedReader.open(p)) {
            MafParser parser = MafParser.parse(reader, builder, p.toString());
            return parser.cutShortAt() < 0 ? context.nil : context.runtime.newFixnum(parser.cutShortAt());
        } catch (MafFormatException e) {
            RubyClass formatError = maf.getClass("FormatError");
            throw context.runtime.newRaiseException(formatError, e.getMessage());
        } catch (Exception e) {
            throw Errors.toRuby(context, e, "Sluice::MAF.each_block(" + p + ")");
        }
    }

    /** Builds each block's Ruby objects from the parser's reports and yields the block when it ends. */
    private static final class Builder implements MafHandler {
        private final ThreadContext context;
        private final Ruby runtime;
        private final Block block;
        private final RubyClass blockClass;
        private final RubyClass sequenceClass;
        private final RubySymbol plus;
        private final RubySymbol minus;
        private final List<RubyMafSequence> rows = new ArrayList<>();
        private RubyHash vars;
        private long offset;
        private long columns;
        private RubyMafSequence last;
        /**
         * The source names seen, frozen and shared by every row of the same source: a file names a few hundred
         * sources over millions of rows. Keyed by a hash of the bytes; a collision is told apart by comparing them.
         */
        private final Map<Integer, RubyString> sources = new HashMap<>();

        Builder(ThreadContext context, RubyModule maf, Block block) {
            this.context = context;
            this.runtime = context.runtime;
            this.block = block;
            this.blockClass = maf.getClass("Block");
            this.sequenceClass = maf.getClass("Sequence");
            this.plus = runtime.newSymbol("+");
            this.minus = runtime.newSymbol("-");
        }

        private RubyString bytes(byte[] b) {
            return RubyString.newString(runtime, new ByteList(b, ASCIIEncoding.INSTANCE, false));
        }

        private RubyString source(MafLine l) {
            int n = l.srcLength();
            int h = n;
            for (int i = 0; i < n; i++) {
                h = 31 * h + l.srcByte(i);
            }
            RubyString known = sources.get(h);
            if (known != null && same(known.getByteList(), l)) {
                return known;
            }
            RubyString made = bytes(l.srcBytes());
            made.setFrozen(true);
            if (known == null && sources.size() < MAX_SOURCES) {
                sources.put(h, made);
            }
            return made;
        }

        private static boolean same(ByteList b, MafLine l) {
            int n = l.srcLength();
            if (b.realSize() != n) {
                return false;
            }
            for (int i = 0; i < n; i++) {
                if (b.get(i) != l.srcByte(i)) {
                    return false;
                }
            }
            return true;
        }

        private RubyMafSequence row(MafLine l) {
            RubyMafSequence s = new RubyMafSequence(runtime, sequenceClass);
            s.source = source(l);
            s.start = l.start();
            s.size = l.size();
            s.strand = l.strand() == '-' ? minus : plus;
            s.srcSize = l.srcSize();
            return s;
        }

        @Override
        public void blockStart(MafLine a) {
            rows.clear();
            last = null;
            offset = a.offset();
            columns = 0;
            vars = RubyHash.newHash(runtime);
            String pairs = a.pairs();
            if (!pairs.isEmpty()) {
                for (String pair : pairs.split("[ \t]+")) {
                    int eq = pair.indexOf('=');
                    vars.fastASet(runtime.newSymbol(pair.substring(0, eq)), runtime.newString(pair.substring(eq + 1)));
                }
            }
        }

        @Override
        public void sequence(MafLine l) {
            RubyMafSequence s = row(l);
            s.text = bytes(l.textBytes());
            columns = l.textLength();
            rows.add(s);
            last = s;
        }

        @Override
        public void quality(MafLine q) {
            last.quality = bytes(q.textBytes());
        }

        @Override
        public void info(MafLine i) {
            last.info = RubyArray.newArray(runtime, runtime.newString(String.valueOf(i.leftStatus())),
                    runtime.newFixnum(i.leftCount()), runtime.newString(String.valueOf(i.rightStatus())),
                    runtime.newFixnum(i.rightCount()));
        }

        @Override
        public void empty(MafLine e) {
            RubyMafSequence s = row(e);
            s.status = runtime.newString(String.valueOf(e.status()));
            rows.add(s);
        }

        @Override
        public void blockEnd(long endOffset) {
            RubyMafBlock b = new RubyMafBlock(runtime, blockClass);
            b.vars = vars;
            b.sequences = RubyArray.newArray(runtime, rows.toArray(new IRubyObject[0]));
            b.offset = offset;
            b.size = endOffset - offset;
            b.textSize = columns;
            rows.clear();
            last = null;
            block.yield(context, b);
        }
    }
}
