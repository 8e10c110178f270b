package io.sluice.bench;

/**
 * What one run of a {@code sluice bench scan} row computed: the One Billion Row Challenge's output, and the rows it
 * counted (which must be the file's, a check that the whole file was read once).
 */
record Averages(String text, long rows) {
}
