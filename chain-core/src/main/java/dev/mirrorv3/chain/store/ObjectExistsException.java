package dev.mirrorv3.chain.store;

/** A create found the name taken: we never overwrite, so another writer (or our own zombie) got there first. */
public class ObjectExistsException extends StoreException {
    private static final long serialVersionUID = 1L;

    public ObjectExistsException(String location) {
        super("another writer created " + location + " before this task could: refusing to overwrite it;"
                + " make sure one connector (one task) writes this chain, then restart the task");
    }
}
