/**
 * A streaming parser and indexer of UCSC Multiple Alignment Format (MAF) files, fed by Sluice's chunked reader
 * ({@link io.sluice.maf.MafParser}, {@link io.sluice.maf.MafIndex}), and a generator of realistic test data
 * ({@link io.sluice.maf.MafGenerator}).
 */
module io.sluice.maf {
    // The parser and the index take an io.sluice.chunks.ChunkedReader: a reader of this module needs that type too.
    requires transitive io.sluice.core;

    exports io.sluice.maf;
}
