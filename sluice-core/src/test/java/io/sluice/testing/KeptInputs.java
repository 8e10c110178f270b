package io.sluice.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The inputs kept for a Jazzer fuzz test: the seeds and every finding, as files under the test resource folder
 * {@code <FuzzTest>Inputs/} beside the test class (where Jazzer also writes new findings). Each module's fuzz test
 * takes them as seeds and its corpus test replays them without Jazzer, so both read the one list from here (shipped
 * in sluice-core's test jar).
 */
@SuppressWarnings("exports") // patched into io.sluice.core for compiling only; other modules load it from the class path
public final class KeptInputs {
    private KeptInputs() {
    }

    /**
     * Every kept input of {@code fuzzTest}, sorted by path.
     *
     * @param fuzzTest the class holding the {@code @FuzzTest} methods
     * @return the files, never empty
     * @throws IllegalStateException if the folder is missing or holds no file: a fuzz test without seeds is a mistake
     */
    public static List<Path> of(Class<?> fuzzTest) {
        String folder = fuzzTest.getSimpleName() + "Inputs";
        URL url = fuzzTest.getResource(folder);
        if (url == null) {
            throw new IllegalStateException("no folder " + folder + " beside " + fuzzTest.getName() + " in the test resources");
        }
        try (Stream<Path> s = Files.walk(Path.of(url.toURI()))) {
            List<Path> files = s.filter(Files::isRegularFile).sorted().toList();
            if (files.isEmpty()) {
                throw new IllegalStateException("no fuzz inputs under " + url);
            }
            return files;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(url.toString(), e);
        }
    }

    /**
     * The bytes of every kept input of {@code fuzzTest}, as Jazzer takes seeds from a {@code @MethodSource}.
     *
     * @param fuzzTest the class holding the {@code @FuzzTest} methods
     * @return each input's bytes, read as the stream is consumed
     */
    public static Stream<byte[]> bytes(Class<?> fuzzTest) {
        return of(fuzzTest).stream().map(p -> {
            try {
                return Files.readAllBytes(p);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }
}
