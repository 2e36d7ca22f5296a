package dev.mirrorv3.chain.manifest;

import dev.mirrorv3.chain.ChainException;

/**
 * A partition's manifests do not agree with themselves or with its objects: a manifest altered, missing or not
 * continuing the one before it, an object it records changed or gone. Every message names the partition's location, the
 * manifest and the object involved, and what to do.
 */
public class ManifestException extends ChainException {
    private static final long serialVersionUID = 1L;

    public ManifestException(String message) {
        super(message);
    }
}
