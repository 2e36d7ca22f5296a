package dev.mirrorv3.cache.config;

import java.net.URI;
import java.time.Duration;
import java.util.List;

/**
 * kkv-v1 update notifications of one cache.
 *
 * @param targets        URLs whose host name is resolved to all its addresses on every attempt; each address
 *                       gets every batch (a Kubernetes headless Service gives the ready pods)
 * @param staticTargets  URLs posted as they are, in addition
 * @param linger         how long the first change of a batch may wait for more
 * @param maxBatchBytes  bound of a batch's JSON body (always below 100 KB, the receivers' body-parser limit)
 * @param requestTimeout timeout of one POST
 * @param retryTimes     retry rounds after the first attempt, for connection errors and 5xx
 * @param retryBackoff   wait before the first retry, doubling each round
 * @param onFailure      what happens when the retries are exhausted for an address
 */
public record NotifyConfig(List<URI> targets, List<URI> staticTargets, Duration linger, int maxBatchBytes,
                           Duration requestTimeout, int retryTimes, Duration retryBackoff, OnFailure onFailure) {

    public static final String DEFAULT_PATH = "/kafka-keyvalue/v1/updates";
    public static final Duration DEFAULT_LINGER = Duration.ofMillis(50);
    /** body-parser's default limit is 100 KB (102400 bytes); stay clearly below it. */
    public static final int MAX_BATCH_BYTES_LIMIT = 100_000;
    public static final int DEFAULT_MAX_BATCH_BYTES = 64 * 1024;
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(10);
    public static final int DEFAULT_RETRY_TIMES = 5;
    public static final Duration DEFAULT_RETRY_BACKOFF = Duration.ofSeconds(1);

    /** After the retry budget: skip the batch for that address (kkv's behaviour), or end the process. */
    public enum OnFailure { SKIP, EXIT }

    public NotifyConfig {
        targets = List.copyOf(targets);
        staticTargets = List.copyOf(staticTargets);
    }

    public static NotifyConfig none() {
        return new NotifyConfig(List.of(), List.of(), DEFAULT_LINGER, DEFAULT_MAX_BATCH_BYTES, DEFAULT_REQUEST_TIMEOUT,
                DEFAULT_RETRY_TIMES, DEFAULT_RETRY_BACKOFF, OnFailure.SKIP);
    }

    public boolean hasTargets() {
        return !targets.isEmpty() || !staticTargets.isEmpty();
    }
}
