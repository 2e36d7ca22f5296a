package dev.mirrorv3.chain.crypto;

/**
 * The keys dir cannot be used: a file that is not a key, a bad key id, a key that is not 32 bytes, the configured key
 * id without a file. The message names the file (or the directory) and never contains a key's content.
 */
public class KeysDirException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public KeysDirException(String message) {
        super(message);
    }
}
