package io.sluice.bench;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.commons.codec.digest.DigestUtils;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.io.IOUtils;
import org.apache.commons.lang3.StringUtils;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;

/**
 * The program in the fat jar {@link FatJar} builds ({@code BOOT-INF/classes}, its {@code Start-Class}): it uses
 * H2 MVStore, Commons Compress, IO, Codec and Lang from the nested jars, so that its start-up loads their classes
 * through the launcher's class loader, then prints what it computed. The output depends on nothing but the
 * libraries, so the same program started by two launchers prints the same lines. It has no nested classes: the
 * fat jar holds this one class file.
 */
public final class FatJarApp {
    private FatJarApp() {
    }

    /**
     * Runs the program; no arguments.
     *
     * @param args ignored
     * @throws IOException never in practice: every stream is in memory
     */
    public static void main(String[] args) throws IOException {
        StringBuilder out = new StringBuilder();
        try (MVStore store = MVStore.open(null)) {
            MVMap<Integer, String> map = store.openMap("numbers");
            for (int i = 0; i < 1000; i++) {
                map.put(i, "value " + i);
            }
            store.commit();
            out.append("mvstore: ").append(map.size()).append(" keys, 421 = ").append(map.get(421)).append('\n');
        }
        byte[] text = StringUtils.repeat("fat jar ", 64).getBytes(StandardCharsets.US_ASCII);
        ByteArrayOutputStream tar = new ByteArrayOutputStream();
        try (TarArchiveOutputStream t = new TarArchiveOutputStream(tar)) {
            TarArchiveEntry e = new TarArchiveEntry("text.txt");
            e.setSize(text.length);
            e.setModTime(0);
            t.putArchiveEntry(e);
            t.write(text);
            t.closeArchiveEntry();
        }
        try (TarArchiveInputStream t = new TarArchiveInputStream(new ByteArrayInputStream(tar.toByteArray()))) {
            TarArchiveEntry e = t.getNextEntry();
            byte[] back = IOUtils.toByteArray(t);
            out.append("compress: ").append(e.getName()).append(", ").append(back.length).append(" bytes, sha-256 ")
                    .append(DigestUtils.sha256Hex(back)).append('\n');
        }
        out.append("lang3: ").append(StringUtils.capitalize(StringUtils.abbreviate("started from a fat jar", 16)))
                .append('\n');
        System.out.print(out);
        System.out.flush();
    }
}
