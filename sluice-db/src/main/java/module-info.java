/**
 * An embedded ordered key-value store of byte arrays, in unsigned byte order, on H2's MVStore:
 * {@link io.sluice.db.KvStore} and its {@link io.sluice.db.KvCursor}.
 */
module io.sluice.db {
    // H2 MVStore's jar names its module in its manifest (Automatic-Module-Name), a name it keeps across releases.
    requires com.h2database.mvstore;

    exports io.sluice.db;
}
