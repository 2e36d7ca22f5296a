package dev.mirrorv3.chain.manifest;

/** A manifest as the store holds it: its name, content and the SHA-256 (lower-case hex) of its bytes. */
public record StoredManifest(ManifestName name, Manifest manifest, String sha256) {

    /** What the next manifest records as the one before it. */
    public Manifest.Link link() {
        return new Manifest.Link(name.fileName(), sha256);
    }
}
