package dev.mirrorv3.chain.prune;

import dev.mirrorv3.chain.store.ObjectLockedException;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.chain.testkit.DelegatingStore;
import java.time.Instant;
import java.util.Optional;

/**
 * A store whose delete finds one object under a retention until 2030-01-01 and refuses it as the S3 store's
 * retention-checked delete does, and which reports that retention when asked first ({@link Store#retention}); every
 * other delete goes through.
 */
final class LockingStore extends DelegatingStore {
    static final Instant UNTIL = Instant.parse("2030-01-01T00:00:00Z");

    private final Store store;
    private final String locked;
    private final String mode;

    /** @param locked a chain object's name, or {@code <dir>/<name>} of an object beside the chains */
    LockingStore(Store store, String locked, String mode) {
        super(store);
        this.store = store;
        this.locked = locked;
        this.mode = mode;
    }

    @Override
    public Optional<ObjectLockedException> retention(int partition, String name) {
        return name.equals(locked) ? Optional.of(new ObjectLockedException(location(partition) + "/" + name, mode, Optional.of(UNTIL)))
                : Optional.empty();
    }

    @Override
    public void delete(int partition, String name) {
        if (name.equals(locked)) {
            throw new ObjectLockedException(location(partition) + "/" + name, mode, Optional.of(UNTIL));
        }
        store.delete(partition, name);
    }

    @Override
    public void deleteBeside(String dir, String name) {
        if ((dir + "/" + name).equals(locked)) {
            throw new ObjectLockedException(besideLocation(dir) + "/" + name, mode, Optional.of(UNTIL));
        }
        store.deleteBeside(dir, name);
    }
}
