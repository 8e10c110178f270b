package io.sluice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.spi.ToolProvider;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The compiled module io.sluice.core, as a consumer's module sees it: only the API packages are exported, and code
 * that reaches for the internals does not compile.
 */
class ModuleBoundaryTest {
    @TempDir
    Path dir;

    @Test
    void exportsTheApiPackagesOnly() throws URISyntaxException {
        ModuleDescriptor d = descriptor();
        Set<String> exported = d.exports().stream().map(e -> e.source()).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(Set.of("io.sluice", "io.sluice.chunks", "io.sluice.zip"), exported);
        assertTrue(d.exports().stream().noneMatch(ModuleDescriptor.Exports::isQualified), d.exports().toString());
        assertTrue(d.packages().containsAll(Set.of("io.sluice.internal", "io.sluice.internal.uring")), d.toString());
        assertTrue(d.opens().isEmpty(), d.opens().toString());
    }

    @Test
    void aNamedConsumerCompilesAgainstTheApi() throws IOException, URISyntaxException {
        String out = compileConsumer("import io.sluice.PositionalFile; import io.sluice.zip.ConcurrentZipFile;");
        assertEquals("", out);
    }

    @Test
    void aNamedConsumerCannotUseTheInternals() throws IOException, URISyntaxException {
        for (String pkg : new String[] {"io.sluice.internal", "io.sluice.internal.uring"}) {
            String out = compileConsumer("import " + pkg + ".*;");
            assertNotEquals("", out);
            assertTrue(out.contains("package " + pkg + " is not visible")
                    || out.contains("package " + pkg + " is declared in module io.sluice.core, which does not export"),
                    out);
        }
    }

    private static Path classes() throws URISyntaxException {
        return Path.of(PositionalFile.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    private static ModuleDescriptor descriptor() throws URISyntaxException {
        Path classes = classes();
        return ModuleFinder.of(classes).find("io.sluice.core")
                .orElseThrow(() -> new AssertionError("no module io.sluice.core in " + classes))
                .descriptor();
    }

    /** javac's diagnostics for a module {@code consumer} that requires io.sluice.core and has the given imports. */
    private String compileConsumer(String imports) throws IOException, URISyntaxException {
        Path src = dir.resolve("src");
        Files.createDirectories(src.resolve("consumer"));
        Files.writeString(src.resolve("module-info.java"), "module consumer { requires io.sluice.core; }\n");
        Files.writeString(src.resolve("consumer/Use.java"), "package consumer;\n" + imports + "\nclass Use {}\n");
        StringWriter diagnostics = new StringWriter();
        PrintWriter w = new PrintWriter(diagnostics);
        int code = ToolProvider.findFirst("javac").orElseThrow().run(w, w,
                "--module-path", classes().toString(), "-d", dir.resolve("out").toString(),
                src.resolve("module-info.java").toString(), src.resolve("consumer/Use.java").toString());
        w.flush();
        assertEquals(code == 0, diagnostics.toString().isEmpty(), diagnostics.toString());
        return diagnostics.toString();
    }
}
