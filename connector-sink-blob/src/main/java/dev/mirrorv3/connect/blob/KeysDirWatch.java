package dev.mirrorv3.connect.blob;

import dev.mirrorv3.chain.crypto.KeysDirException;
import dev.mirrorv3.chain.crypto.ObjectEncryption;
import dev.mirrorv3.kafka.Failures;
import java.util.Collection;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The task's encryption, whose keys dir is read again when a chain names a key id it lacks: a key file mounted after
 * the task started (a Secret updated on the workers) is then found by the partition's next open, so a missing key id
 * clears by itself (docs/design.md, "Failures: one classifier, with a scope"). The write key never changes while the
 * task runs. Task thread only.
 */
final class KeysDirWatch {
    private static final Logger log = LoggerFactory.getLogger(KeysDirWatch.class);

    private final Supplier<ObjectEncryption> load;
    private ObjectEncryption current;

    /** @param load reads the keys dir as the task's config says (config providers resolved) */
    KeysDirWatch(ObjectEncryption initial, Supplier<ObjectEncryption> load) {
        this.current = initial;
        this.load = load;
    }

    ObjectEncryption get() {
        return current;
    }

    /** Reads the keys dir again; true when it now holds one of {@code missing}. */
    boolean reload(Collection<String> missing) {
        ObjectEncryption fresh;
        try {
            fresh = load.get();
        } catch (KeysDirException e) {
            log.warn("reading the keys dir again for key ids {} failed: {}", missing, Failures.describe(e));
            return false;
        }
        if (missing.stream().noneMatch(id -> fresh.keys().has(id))) {
            return false;
        }
        current = fresh;
        log.info("keys dir read again: key ids {} found", missing.stream().filter(id -> fresh.keys().has(id)).toList());
        return true;
    }
}
