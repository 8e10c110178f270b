package io.sluice.bench.jruby;

import org.jruby.Ruby;
import org.jruby.RubyModule;
import org.jruby.api.Define;
import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.load.BasicLibraryService;

/** Defines {@code SluiceBench::MmapFileExt} for the benchmark script; not part of the gem's API. */
public final class BenchLibrary implements BasicLibraryService {
    /** Made by JRuby's extension loader. */
    public BenchLibrary() {
    }

    /** Defines the class. */
    @Override
    public boolean basicLoad(Ruby runtime) {
        ThreadContext context = runtime.getCurrentContext();
        RubyModule bench = Define.defineModule(context, "SluiceBench");
        bench.defineClassUnder(context, "MmapFileExt", runtime.getObject(), SeedMmapFileExt::new)
                .defineMethods(context, SeedMmapFileExt.class);
        return true;
    }
}
