package dev.mirrorv3.chain.crypto;

import dev.mirrorv3.chain.ChainException;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** A chain (or one object beside it) names key ids that the keys dir lacks: its objects with those ids cannot be read. */
public final class MissingKeysException extends ChainException {
    private static final long serialVersionUID = 1L;
    private final Set<String> missing;

    MissingKeysException(String location, Set<String> missing, List<String> examples, String source) {
        this("the chain at " + location + " holds objects encrypted with key ids " + missing + " that are missing from "
                + source + " (e.g. " + String.join(", ", examples) + "): put the key file of each of " + missing
                + " back into the keys dir (encryption.keys.dir, or --keys-dir for the mirror-v3 command line)", missing);
    }

    private MissingKeysException(String message, Set<String> missing) {
        super(message);
        this.missing = Collections.unmodifiableSortedSet(new TreeSet<>(missing)); // sorted, as the message lists them
    }

    /** One object ({@code where}, e.g. a metadata snapshot) is encrypted with {@code keyId}, which {@code source} lacks. */
    public static MissingKeysException ofObject(String where, String keyId, String source) {
        return new MissingKeysException(where + " is encrypted with key id " + keyId + ", which is missing from " + source
                + ": put the key file " + keyId + " back into the keys dir (encryption.keys.dir, or --keys-dir for the mirror-v3"
                + " command line)", Set.of(keyId));
    }

    /** The missing key ids, sorted. */
    public Set<String> missing() {
        return missing;
    }
}
