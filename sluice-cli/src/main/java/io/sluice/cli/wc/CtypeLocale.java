package io.sluice.cli.wc;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * Whether GNU {@code wc}, started with a given environment, would read text as UTF-8 or as single bytes (the C
 * locale). {@code wc} calls {@code setlocale(LC_ALL, "")}, and glibc decides as follows, which this class repeats:
 * <ul>
 *   <li>Each category's locale name is the first non-empty one of {@code LC_ALL}, {@code LC_<category>} and
 *       {@code LANG}, or {@code C}.</li>
 *   <li>The call is all or nothing: if any category names a locale that is not there, every category stays C. So
 *       {@code LANG=C.UTF-8 LC_MESSAGES=xx_XX} counts as C.</li>
 *   <li>{@code C} and {@code POSIX} are always there, and so is {@code C.UTF-8} (built into glibc since 2.35; any
 *       spelling of the code set that normalizes to {@code utf8}, such as {@code C.utf8}; the {@code C} is
 *       case-sensitive). A name with a {@code /} is refused.</li>
 *   <li>Other locales are looked up in the directories of {@code LOCPATH} when it is set, else in
 *       {@code /usr/lib/locale}, under the name as given or with its code set normalized ({@code en_US.UTF-8} then
 *       {@code en_US.utf8}).</li>
 * </ul>
 * One shortcut: where {@code /usr/lib/locale/locale-archive} exists (and {@code LOCPATH} is not set), a name not
 * found as a directory is taken to be in the archive, which is not read. Only a locale whose code set is UTF-8 is
 * read as UTF-8; every other one as C, so single-byte code sets such as ISO-8859-1 are not supported.
 */
public final class CtypeLocale {
    /** The categories {@code setlocale(LC_ALL, "")} sets, each from its own variable. */
    private static final String[] CATEGORIES = {"LC_CTYPE", "LC_NUMERIC", "LC_TIME", "LC_COLLATE", "LC_MONETARY",
        "LC_MESSAGES", "LC_PAPER", "LC_NAME", "LC_ADDRESS", "LC_TELEPHONE", "LC_MEASUREMENT", "LC_IDENTIFICATION"};
    private static final String SYSTEM_LOCALES = "/usr/lib/locale";

    private CtypeLocale() {
    }

    /** Whether GNU wc with environment {@code env} would decode UTF-8 (else it reads single bytes, as in C). */
    public static boolean isUtf8(Map<String, String> env) {
        for (String category : CATEGORIES) {
            if (!isAvailable(nameFor(env, category), env)) {
                return false;
            }
        }
        return "utf8".equals(normalizedCodeset(nameFor(env, "LC_CTYPE")));
    }

    /** The locale name {@code category} gets from {@code env}. */
    static String nameFor(Map<String, String> env, String category) {
        for (String variable : new String[] {"LC_ALL", category, "LANG"}) {
            String v = env.get(variable);
            if (v != null && !v.isEmpty()) {
                return v;
            }
        }
        return "C";
    }

    private static boolean isAvailable(String name, Map<String, String> env) {
        if (name.equals("C") || name.equals("POSIX")) {
            return true;
        }
        if (name.indexOf('/') >= 0) {
            return false;
        }
        if (name.startsWith("C.") && "utf8".equals(normalizedCodeset(name))) {
            return true;
        }
        String normalized = normalizedName(name);
        String locpath = env.get("LOCPATH");
        boolean ownPath = locpath != null && !locpath.isEmpty();
        for (String dir : (ownPath ? locpath : SYSTEM_LOCALES).split(":")) {
            if (!dir.isEmpty() && (isDirectory(dir, name) || normalized != null && isDirectory(dir, normalized))) {
                return true;
            }
        }
        return !ownPath && Files.exists(Path.of(SYSTEM_LOCALES, "locale-archive"));
    }

    private static boolean isDirectory(String dir, String name) {
        try {
            return Files.isDirectory(Path.of(dir, name));
        } catch (InvalidPathException e) {
            return false;
        }
    }

    /**
     * The code set of a locale name ({@code language[_territory][.codeset][@modifier]}) as glibc normalizes it:
     * letters in lower case, digits kept, everything else dropped, and {@code iso} before a code set of digits only;
     * null when the name has none.
     */
    static String normalizedCodeset(String name) {
        int dot = name.indexOf('.');
        if (dot < 0) {
            return null;
        }
        int at = name.indexOf('@', dot);
        String codeset = name.substring(dot + 1, at < 0 ? name.length() : at);
        StringBuilder b = new StringBuilder();
        boolean letters = false;
        for (int i = 0; i < codeset.length(); i++) {
            char c = codeset.charAt(i);
            if (c < 0x80 && Character.isLetter(c)) {
                b.append(Character.toLowerCase(c));
                letters = true;
            } else if (c >= '0' && c <= '9') {
                b.append(c);
            }
        }
        return (letters ? "" : "iso") + b.toString().toLowerCase(Locale.ROOT);
    }

    /** {@code name} with its code set normalized, or null when it has no code set. */
    private static String normalizedName(String name) {
        String codeset = normalizedCodeset(name);
        if (codeset == null) {
            return null;
        }
        int dot = name.indexOf('.');
        int at = name.indexOf('@', dot);
        return name.substring(0, dot + 1) + codeset + (at < 0 ? "" : name.substring(at));
    }
}
