package dev.mirrorv3.chain.write;

/** Why a buffer was flushed; logged with every flush. */
public enum FlushTrigger {
    RECORDS("records"),
    BYTES("bytes"),
    TIME("time"),
    /** The task-wide buffer cap: the largest buffer is flushed early so heap stays bounded. */
    BUFFER_CAP("buffer-cap"),
    /** Partition closed: graceful shutdown or rebalance. */
    CLOSE("close");

    private final String label;

    FlushTrigger(String label) {
        this.label = label;
    }

    @Override
    public String toString() {
        return label;
    }
}
