package dev.mirrorv3.kafka.restore;

import dev.mirrorv3.kafka.Failures;
import dev.mirrorv3.kafka.TopicIds;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.admin.Admin;

/**
 * The identity of a follow-restore's target topic (Kafka's topic id, KIP-516; docs/chain-source.md): recorded when the task
 * first positions, and required wherever the producer's view of the topic can have changed, so that a target deleted and
 * created again under the same name while the task runs stops it, naming both ids, instead of being continued as if it
 * were the old one. Offsets alone cannot tell: a new topic that another producer filled up to the next offset looks
 * like the old one. One per task; not thread-safe (the task's thread).
 */
public final class TargetIdentity {
    private final Admin admin;
    private final String topic;
    private final Duration timeout;
    private String recorded;
    private boolean recreated;

    public TargetIdentity(Admin admin, String topic, Duration timeout) {
        this.admin = admin;
        this.topic = topic;
        this.timeout = timeout;
    }

    /**
     * Reads the target's id: the first time records it, afterwards requires the recorded one.
     *
     * @throws RestoreCheckException the target was deleted and created again since it was recorded
     * @throws org.apache.kafka.common.KafkaException the read's failure (transient while the topic is being deleted or
     *     created: UNKNOWN_TOPIC_OR_PARTITION), for {@link Failures} to classify
     */
    public void check() {
        String now = TopicIds.read(admin, List.of(topic), timeout).getOrDefault(topic, "");
        if (recorded == null) {
            recorded = now;
        } else if (!recorded.isEmpty() && !recorded.equals(now)) {
            recreated = true;
            throw new RestoreCheckException(recreated(now));
        }
    }

    /** Whether a check (or {@link #explain}) found the target deleted and created again: every partition of it is concerned. */
    public boolean recreated() {
        return recreated;
    }

    /**
     * A delivery at another offset than it was produced for ({@code mismatch}) explained: the target's re-creation when its
     * id changed (it is the likelier cause: the producer retried the records in flight into the new topic), else the
     * mismatch as it is.
     */
    public String explain(String mismatch) {
        if (recorded == null || recorded.isEmpty()) {
            return mismatch;
        }
        try {
            check();
            return mismatch;
        } catch (RestoreCheckException e) {
            return e.getMessage() + " (what showed it: " + mismatch + ")";
        } catch (RuntimeException e) {
            return mismatch + " (target topic " + topic + "'s id could not be read to tell whether it was deleted and created again: "
                    + Failures.describe(e) + ")";
        }
    }

    private String recreated(String now) {
        return "target topic " + topic + " was deleted and created again while this task followed the backup into it: it had topic"
                + " id " + recorded + " when the task positioned, and now has id " + (now.isEmpty() ? "(none)" : now) + ", another"
                + " topic of the same name. The task stops so that the backup is not written into the new topic as if it were the"
                + " old one; records handed to Connect before this was seen may have landed in the new topic (the producer retries"
                + " the records in flight into it). To follow into the new topic, make sure it is empty (delete and create it"
                + " again) and restart the connector: a task positions at the target's high watermark and checks its last record"
                + " against the backup";
    }
}
