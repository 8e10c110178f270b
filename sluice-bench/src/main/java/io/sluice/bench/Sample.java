package io.sluice.bench;

/** One timed run of one contender: operations per millisecond and bytes per second over all threads. */
public record Sample(double opsPerMs, double bytesPerSec) {
}
