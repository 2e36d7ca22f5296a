package dev.mirrorv3.chain.store.s3;

import java.util.Objects;

/**
 * One of the three credentials of an S3 destination: {@code write} (PutObject only), {@code read} (list and get) or
 * {@code prune} (list, get, delete and the no-overwrite create of a chain's recorded start; {@code mirror-v3 prune} only).
 * {@link #toString()} names the role and never the secret, so an identity may appear in any message.
 */
public final class S3Identity {
    private final String role;
    private final String accessKeyId;
    private final String secretAccessKey;

    public S3Identity(String role, String accessKeyId, String secretAccessKey) {
        this.role = Objects.requireNonNull(role);
        this.accessKeyId = Objects.requireNonNull(accessKeyId);
        this.secretAccessKey = Objects.requireNonNull(secretAccessKey);
    }

    /** {@code write}, {@code read} or {@code prune}. */
    public String role() {
        return role;
    }

    String accessKeyId() {
        return accessKeyId;
    }

    String secretAccessKey() {
        return secretAccessKey;
    }

    /** No access key id and no secret: the settings leave this identity out. */
    boolean isBlank() {
        return accessKeyId.isBlank() && secretAccessKey.isBlank();
    }

    /** The settings that hold this identity's keys. */
    String settings() {
        return "s3." + role + ".access.key.id and s3." + role + ".secret.access.key";
    }

    @Override
    public String toString() {
        return "the " + role + " identity";
    }
}
