package io.sluice.jruby;

import static org.jruby.api.Convert.asBoolean;

import io.sluice.Engine;
import io.sluice.PositionalFile;
import java.util.Locale;
import org.jruby.RubyArray;
import org.jruby.RubyString;
import org.jruby.api.Create;
import org.jruby.RubySymbol;
import org.jruby.anno.JRubyMethod;
import org.jruby.anno.JRubyModule;
import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.builtin.IRubyObject;

/** The module functions of {@code Sluice}; {@code Sluice.engines} wraps {@code engine_states} in Ruby. */
@JRubyModule(name = "Sluice")
public final class SluiceModule {
    private SluiceModule() {
    }

    /**
     * {@code Sluice.native_access?}: whether the JVM lets Sluice's classes make native calls, which {@code madvise}
     * hints, page population ahead of mapped writes and the io_uring engine need. {@code java -jar jruby-complete.jar}
     * grants it (its manifest enables native access for the class path); with an installed JRuby, run with
     * {@code JAVA_OPTS=--enable-native-access=ALL-UNNAMED}.
     */
    @JRubyMethod(name = "native_access?", module = true)
    public static IRubyObject nativeAccessP(ThreadContext context, IRubyObject self) {
        return asBoolean(context, PositionalFile.class.getModule().isNativeAccessEnabled());
    }

    /**
     * {@code Sluice.engine_states}: {@code [[name, description, reason_or_nil], ...]} for every engine, the reason
     * being why the engine cannot run here.
     */
    @JRubyMethod(name = "engine_states", module = true)
    public static IRubyObject engineStates(ThreadContext context, IRubyObject self) {
        RubyArray<?> out = Create.newArray(context);
        for (Engine e : Engine.values()) {
            IRubyObject reason = e.unavailabilityCause()
                    .<IRubyObject>map(r -> RubyString.newString(context.runtime, r))
                    .orElse(context.nil);
            out.append(context, Create.newArray(context,
                    RubySymbol.newSymbol(context.runtime, e.name().toLowerCase(Locale.ROOT)),
                    RubyString.newString(context.runtime, e.description()), reason));
        }
        return out;
    }
}
