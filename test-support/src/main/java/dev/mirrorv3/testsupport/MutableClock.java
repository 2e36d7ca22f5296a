package dev.mirrorv3.testsupport;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock a test moves by hand, for the tasks' retry and timer logic (they take a {@link Clock}). */
public final class MutableClock extends Clock {
    private long millis = 1_700_000_000_000L;

    public void advance(long ms) {
        millis += ms;
    }

    @Override
    public long millis() {
        return millis;
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis);
    }

    @Override
    public ZoneOffset getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
