package dev.mirrorv3.chain.store;

/** An object that the chain names is not (or no longer) there. */
public class ObjectMissingException extends StoreException {
    private static final long serialVersionUID = 1L;

    public ObjectMissingException(String location) {
        super(location + " does not exist (removed by someone else?)");
    }
}
