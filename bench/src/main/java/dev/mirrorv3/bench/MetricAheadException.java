package dev.mirrorv3.bench;

/** The product's metric claimed an offset durable that the store's listing, taken after it, did not show. */
final class MetricAheadException extends Exception {
    MetricAheadException(String message) {
        super(message);
    }
}
