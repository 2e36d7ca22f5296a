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
 */
public record S3Settings(Optional<URI> endpoint, String region, String bucket, String prefix, boolean pathStyle,
                         S3Identity write, S3Identity read, Duration callTimeout) {

    public static final Duration DEFAULT_CALL_TIMEOUT = Duration.ofSeconds(60);

    public S3Settings {
        Objects.requireNonNull(endpoint);
        Objects.requireNonNull(region);
        Objects.requireNonNull(bucket);
        prefix = normalizedPrefix(prefix == null ? "" : prefix);
        Objects.requireNonNull(write);
        Objects.requireNonNull(read);
        Objects.requireNonNull(callTimeout);
    }

    /** The prefix's segments joined by {@code /}, without leading, trailing or doubled slashes. */
    static String normalizedPrefix(String prefix) {
        return Arrays.stream(prefix.split("/")).filter(s -> !s.isEmpty()).collect(Collectors.joining("/"));
    }

    public S3Settings withCallTimeout(Duration timeout) {
        return new S3Settings(endpoint, region, bucket, prefix, pathStyle, write, read, timeout);
    }

    /** {@code s3://bucket/prefix} for messages. */
    public String describe() {
        return "s3://" + bucket + (prefix.isEmpty() ? "" : "/" + prefix);
    }
}
