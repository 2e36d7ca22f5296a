package dev.mirrorv3.connect.blob;

import dev.mirrorv3.chain.write.ManifestKeeper;
import dev.mirrorv3.kafka.Failures;
import dev.mirrorv3.kafka.connect.ConnectFailures;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BiConsumer;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * When the open partitions' manifests are written (docs/blob-sink.md, "Chain manifests"): at the end of a put() for each
 * partition whose manifest is due ({@link ManifestKeeper#due}) and that no commit retry holds, and when a partition
 * closes. A manifest only records objects that are durable already, so a commit running meanwhile does not hold it back
 * (a busy partition has one in flight almost all the time: the next object is encoded while one uploads), and a transient
 * failure to write one loses nothing: it is logged and tried again after retry.backoff.max.ms, the same bytes, while the
 * partition goes on; anything else (another writer's manifest) is the partition's failure, which the task isolates
 * (partition.failure). Task thread only.
 */
final class ManifestWrites {
    private static final Logger log = LoggerFactory.getLogger(BlobSinkTask.class); // the task's log lines

    private final long retryAfterMs;
    /** Partitions whose last manifest write failed transiently, and when to try again. */
    private final Map<TopicPartition, Long> retryAt = new HashMap<>();

    ManifestWrites(long retryAfterMs) {
        this.retryAfterMs = retryAfterMs;
    }

    /**
     * Writes the manifests due now of the partitions not waiting for a commit's retry (a running commit may go on).
     *
     * @param failed told of each partition whose manifest failed for a reason that is not transient
     */
    void writeDue(Collection<BoundWriter<?>> open, long now, BiConsumer<TopicPartition, RuntimeException> failed) {
        for (BoundWriter<?> w : open) {
            ManifestKeeper manifests = w.writer().manifests();
            if (w.retryAt().isEmpty() && now >= retryAt.getOrDefault(w.partition(), 0L) && manifests.due(now)) {
                try {
                    write(w, now);
                } catch (RuntimeException e) {
                    failed.accept(w.partition(), e);
                }
            }
        }
    }

    /** A closing partition's last manifest, of every object not in one yet (its buffer is written by then). */
    void writeOnClose(BoundWriter<?> w) {
        if (w.writer().manifests().anyWaiting()) {
            write(w, Long.MAX_VALUE);
        }
    }

    void closed(TopicPartition tp) {
        retryAt.remove(tp);
    }

    private void write(BoundWriter<?> w, long now) {
        try {
            w.writer().manifests().writeDue(now); // at a close (now: Long.MAX_VALUE) every waiting object is due
            retryAt.remove(w.partition());
        } catch (RuntimeException e) {
            if (!ConnectFailures.isTransient(e)) {
                throw e;
            }
            retryAt.put(w.partition(), now == Long.MAX_VALUE ? 0 : now + retryAfterMs);
            log.warn("could not write the manifest of {} yet ({}); its objects are durable, and the manifest is written again {}",
                    w.partition(), Failures.describe(e), now == Long.MAX_VALUE ? "by the task that opens the partition next"
                            : "in " + retryAfterMs + " ms");
        }
    }
}
