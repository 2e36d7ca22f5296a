package dev.mirrorv3.chain.store.s3;

import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Where and as whom an S3 destination is reached. Chains live at {@code <prefix>/<name>/<partition>/<object>}; the
 * prefix is split on {@code /} with empty segments dropped, as mirror-v3 does ({@code archive/} = {@code archive}).
 *
 * @param endpoint      empty for AWS S3, else the S3-compatible store's URL (MinIO, Ceph, VersityGW, S3Proxy)
 * @param callTimeout   bound of one store operation including the SDK's own retries; an expired one is transient
 * @param prune         the identity that deletes ({@code mirror-v3 prune}); empty where nothing deletes
 * @param objectLock    the Object Lock retention each new object gets; empty for none of its own (a bucket's default
 *                      retention still applies)
 */
public record S3Settings(Optional<URI> endpoint, String region, String bucket, String prefix, boolean pathStyle,
                         S3Identity write, S3Identity read, Duration callTimeout, Optional<S3Identity> prune,
                         Optional<NewObjectRetention> objectLock) {

    public static final Duration DEFAULT_CALL_TIMEOUT = Duration.ofSeconds(60);

    public S3Settings {
        Objects.requireNonNull(endpoint);
        Objects.requireNonNull(region);
        Objects.requireNonNull(bucket);
        prefix = normalizedPrefix(prefix == null ? "" : prefix);
        Objects.requireNonNull(write);
        Objects.requireNonNull(read);
        Objects.requireNonNull(callTimeout);
        Objects.requireNonNull(prune);
        Objects.requireNonNull(objectLock);
    }

    /** Settings without a prune identity and without an Object Lock retention of their own. */
    public static S3Settings of(Optional<URI> endpoint, String region, String bucket, String prefix, boolean pathStyle,
            S3Identity write, S3Identity read) {
        return new S3Settings(endpoint, region, bucket, prefix, pathStyle, write, read, DEFAULT_CALL_TIMEOUT, Optional.empty(),
                Optional.empty());
    }

    /** The prefix's segments joined by {@code /}, without leading, trailing or doubled slashes. */
    static String normalizedPrefix(String prefix) {
        return Arrays.stream(prefix.split("/")).filter(s -> !s.isEmpty()).collect(Collectors.joining("/"));
    }

    public S3Settings withCallTimeout(Duration timeout) {
        return new S3Settings(endpoint, region, bucket, prefix, pathStyle, write, read, timeout, prune, objectLock);
    }

    public S3Settings withPrune(S3Identity identity) {
        return new S3Settings(endpoint, region, bucket, prefix, pathStyle, write, read, callTimeout, Optional.of(identity),
                objectLock);
    }

    public S3Settings withObjectLock(NewObjectRetention retention) {
        return new S3Settings(endpoint, region, bucket, prefix, pathStyle, write, read, callTimeout, prune,
                Optional.of(retention));
    }

    /**
     * What {@code mirror-v3 prune} opens: every request signed with the prune identity (list, read, delete, and the
     * no-overwrite create of the chain's recorded start), so that it needs neither the write nor the read identity.
     *
     * @throws IllegalArgumentException naming the settings when there is no prune identity
     */
    public S3Settings pruneOnly() {
        S3Identity p = prune.orElseThrow(() -> new IllegalArgumentException("s3.prune.access.key.id and"
                + " s3.prune.secret.access.key are required to delete from " + describe() + ": the prune identity, the only"
                + " one allowed s3:DeleteObject (see examples/policies/s3-bucket-policy.json)"));
        return new S3Settings(endpoint, region, bucket, prefix, pathStyle, p, p, callTimeout, prune, objectLock);
    }

    /** {@code s3://bucket/prefix} for messages. */
    public String describe() {
        return "s3://" + bucket + (prefix.isEmpty() ? "" : "/" + prefix);
    }
}
