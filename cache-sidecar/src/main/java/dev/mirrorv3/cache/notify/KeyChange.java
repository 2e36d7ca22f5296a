package dev.mirrorv3.cache.notify;

/** A key whose value changed (added, changed or deleted) at this offset, to be notified. */
public record KeyChange(String key, int partition, long offset) { }
