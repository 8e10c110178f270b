package io.sluice.jruby;

import org.jruby.Ruby;
import org.jruby.RubyClass;
import org.jruby.RubyModule;
import org.jruby.api.Define;
import org.jruby.runtime.ObjectAllocator;
import org.jruby.runtime.ThreadContext;
import org.jruby.runtime.load.BasicLibraryService;

/**
 * The JRuby extension: defines the {@code Sluice} module and its classes in a runtime. {@code lib/sluice.rb} loads it
 * with {@code JRuby::Util.load_ext("io.sluice.jruby.SluiceLibrary")} and adds the parts written in Ruby (block forms,
 * keyword arguments, {@code each_chunk}).
 *
 * <ul>
 *   <li>{@code Sluice::Error < IOError}: an {@code IOException} with no matching {@code Errno::} class (a closed file,
 *       an engine that cannot run here); {@code Sluice::ZipError < Sluice::Error}: a damaged or refused archive.</li>
 *   <li>{@code Sluice::File} ({@link RubySluiceFile}), {@code Sluice::MappedWriter} ({@link RubyMappedWriter}),
 *       {@code Sluice::Zip} and {@code Sluice::Zip::Entry} ({@link RubyZip}, {@link RubyZipEntry}).</li>
 *   <li>{@code Sluice::DB} and {@code Sluice::DB::Cursor} ({@link RubyDB}, {@link RubyDBCursor}), Kyoto Cabinet's
 *       API on {@code io.sluice.db.KvStore}; {@code require 'sluice/db'} loads them with their Ruby parts.</li>
 *   <li>{@code Sluice::MAF} ({@link RubyMaf}), its {@code Block} and {@code Sequence} ({@link RubyMafBlock},
 *       {@link RubyMafSequence}) and {@code FormatError < Sluice::Error}: the MAF parser for Ruby.</li>
 *   <li>{@code Sluice.native_access?} and the engine list behind {@code Sluice.engines} ({@link SluiceModule}).</li>
 * </ul>
 */
public final class SluiceLibrary implements BasicLibraryService {
    /** Made by JRuby's extension loader. */
    public SluiceLibrary() {
    }

    /** Defines the module and its classes in {@code runtime}; loading twice redefines nothing. */
    @Override
    public boolean basicLoad(Ruby runtime) {
        ThreadContext context = runtime.getCurrentContext();
        RubyModule sluice = Define.defineModule(context, "Sluice");
        if (sluice.getConstantAt(context, "File", false) != null) {
            return true;
        }
        RubyClass ioError = runtime.getIOError();
        RubyClass error = sluice.defineClassUnder(context, "Error", ioError, ioError.getAllocator());
        sluice.defineClassUnder(context, "ZipError", error, error.getAllocator());

        RubyClass object = runtime.getObject();
        sluice.defineClassUnder(context, "File", object, RubySluiceFile::new)
                .defineMethods(context, RubySluiceFile.class);
        RubyMappedWriter.Counts counts = new RubyMappedWriter.Counts(runtime);
        sluice.defineClassUnder(context, "MappedWriter", object, (r, type) -> new RubyMappedWriter(r, type, counts))
                .defineMethods(context, RubyMappedWriter.class);
        RubyClass zip = sluice.defineClassUnder(context, "Zip", object, RubyZip::new)
                .defineMethods(context, RubyZip.class);
        // Entries come from their archive only.
        zip.defineClassUnder(context, "Entry", object, ObjectAllocator.NOT_ALLOCATABLE_ALLOCATOR)
                .defineMethods(context, RubyZipEntry.class);
        RubyClass db = sluice.defineClassUnder(context, "DB", object, RubyDB::new)
                .defineMethods(context, RubyDB.class);
        // Cursors come from their database only.
        db.defineClassUnder(context, "Cursor", object, ObjectAllocator.NOT_ALLOCATABLE_ALLOCATOR)
                .defineMethods(context, RubyDBCursor.class);
        RubyModule maf = sluice.defineModuleUnder(context, "MAF").defineMethods(context, RubyMaf.class);
        maf.defineClassUnder(context, "FormatError", error, error.getAllocator());
        // Blocks and rows come from the parser only.
        maf.defineClassUnder(context, "Block", object, ObjectAllocator.NOT_ALLOCATABLE_ALLOCATOR)
                .defineMethods(context, RubyMafBlock.class);
        maf.defineClassUnder(context, "Sequence", object, ObjectAllocator.NOT_ALLOCATABLE_ALLOCATOR)
                .defineMethods(context, RubyMafSequence.class);
        sluice.defineMethods(context, SluiceModule.class);
        return true;
    }
}
