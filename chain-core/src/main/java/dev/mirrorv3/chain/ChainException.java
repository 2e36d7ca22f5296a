package dev.mirrorv3.chain;

/**
 * The chain at a location is not a valid backup chain. Each subclass is one problem; every message
 * names the location, the objects and the offsets involved, and what the operator can do.
 */
public class ChainException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ChainException(String message) {
        super(message);
    }

    /** A name that is not one of ours: another writer's file, or a manual change. */
    public static final class ForeignObject extends ChainException {
        private static final long serialVersionUID = 1L;

        ForeignObject(String location, String name, String ext) {
            super(location + "/" + name + " is not a backup object of format " + ext + " (<from>-<to>." + ext
                    + ", or <from>-<to>.k-<key id>.parquet with 20-digit offsets): another writer or a manual change;"
                    + " move it out of the chain directory, then restart");
        }
    }

    /** One of our names, but of the other format. */
    public static final class WrongExtension extends ChainException {
        private static final long serialVersionUID = 1L;

        WrongExtension(String location, ObjectName name, String configured) {
            super(location + "/" + name + " is a " + name.format().extension() + " object, and this chain is "
                    + configured + " (setting format): one chain holds one format; use another destination name"
                    + " for the other format, or move the object out");
        }
    }

    /** A name whose last offset is below its first. */
    public static final class InvertedRange extends ChainException {
        private static final long serialVersionUID = 1L;

        InvertedRange(String location, ObjectName name) {
            super(location + "/" + name + " has to < from (" + name.to() + " < " + name.from()
                    + "): not written by this product; move it out of the chain directory");
        }
    }

    /** Two objects that start at the same offset. */
    public static final class DuplicateFrom extends ChainException {
        private static final long serialVersionUID = 1L;

        DuplicateFrom(String location, ObjectName a, ObjectName b) {
            super("duplicate start in the chain at " + location + ": " + a + " and " + b + " both start at offset "
                    + a.from() + " (two writers on one partition?); keep the one that holds the records, move the other out");
        }
    }

    /** Offsets that no object covers. */
    public static final class Gap extends ChainException {
        private static final long serialVersionUID = 1L;
        private final long firstMissing;

        public Gap(String location, long expected, ObjectName next) {
            super("gap in the chain at " + location + ": offsets " + expected + "-" + (next.from() - 1)
                    + " are in no object (next object is " + next + "); the backup is missing records there");
            this.firstMissing = expected;
        }

        public long firstMissing() {
            return firstMissing;
        }
    }

    /** An object that starts inside the range of the objects before it. */
    public static final class Overlap extends ChainException {
        private static final long serialVersionUID = 1L;

        Overlap(String location, ObjectName previous, ObjectName next) {
            super("overlap in the chain at " + location + ": " + next + " starts at " + next.from()
                    + ", and the objects before it reach " + previous.to() + " (" + previous
                    + "); a second writer or a manual change; move the object that is not part of the chain out");
        }
    }

    /** The chain does not start where it must. */
    public static final class WrongChainStart extends ChainException {
        private static final long serialVersionUID = 1L;

        public WrongChainStart(String location, ObjectName first, long required) {
            super("the chain at " + location + " starts at offset " + first.from() + " (" + first + "), not at "
                    + required + "; if objects before it were removed on purpose, pass --chain-start " + first.from());
        }

        /** A chain that starts neither at 0 nor at its recorded start (the one start rule's refusal). */
        public WrongChainStart(String message) {
            super(message);
        }
    }
}
