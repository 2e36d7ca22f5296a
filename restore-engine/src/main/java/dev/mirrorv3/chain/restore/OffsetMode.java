package dev.mirrorv3.chain.restore;

/** How restore places records in the target partition. */
public enum OffsetMode {
    /** Every record at its original offset: the chain must start at 0 and have no hole. */
    PRESERVE,
    /** The records at 0, 1, 2, ... in their original order; holes are dropped. */
    RENUMBER;

    public String cliName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
