package dev.mirrorv3.chain.write;

import dev.mirrorv3.chain.ObjectName;

/** One committed object. */
public record FlushResult(ObjectName name, String location, int records, long payloadBytes, long objectBytes,
                          long elapsedMs, long intervalMs, FlushTrigger trigger) {
}
