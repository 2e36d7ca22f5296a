package dev.mirrorv3.bench;

/** When a timed sink run is over; {@link #lag()} says what is missing when it is not. */
interface SinkCheck extends Done {
    String lag();
}
