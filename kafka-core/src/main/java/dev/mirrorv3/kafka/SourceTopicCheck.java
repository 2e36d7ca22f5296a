package dev.mirrorv3.kafka;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.TopicPartition;

/**
 * The running half of the source's identity (docs/design.md, the position rule): before records are committed to a
 * destination (a blob sink's object, a Kafka sink's batch), their source topic must still be the topic whose id the
 * destination copies, the id it was positioned with ({@link #expect}). A partition is checked when it is assigned;
 * between two assignments Connect's consumer may keep its positions across a topic deleted and created again with as
 * many partitions (no rebalance), and fetch the new topic's records as the old one's next.
 *
 * <p>Exact, up to the metadata of the broker answering: a record fetched from a new topic implies that topic existed
 * when it was fetched, so a look at the topic's id that begins after the record was fetched finds the new id (or the
 * topic gone again, or yet another id), never the old one. {@link #stamp()} marks records in hand; a look begun after
 * the stamp covers them, so the partitions of one topic committed after the same records arrived share one
 * {@code describeTopics} request, and the topics of one check share one request. A topic that does not exist at the look
 * passes: records fetched before its deletion are the old topic's (the remaining bound, a topic deleted, created and
 * deleted again between a fetch and the check, is in docs/operations.md). Connect-free; one thread at a time.
 */
public final class SourceTopicCheck {
    private final Admin admin;
    private final Duration timeout;
    /** The id each positioned partition's destination copies, and how messages name that destination. */
    private final Map<TopicPartition, Expected> expected = new HashMap<>();
    /** Per topic: the last look, its stamp and the id it found (empty: the topic did not exist). */
    private final Map<String, Look> looks = new HashMap<>();
    private long clock;

    private record Expected(String id, PositionRule.Destination destination) {
    }

    private record Look(long stamp, String id) {
    }

    /** @param admin an admin client of the source cluster (not owned) */
    public SourceTopicCheck(Admin admin, Duration timeout) {
        this.admin = admin;
        this.timeout = timeout;
    }

    /**
     * The partition was positioned: its destination copies the topic with {@code id} (empty: the cluster gave none, and
     * the partition is not checked).
     */
    public synchronized void expect(TopicPartition source, String id, PositionRule.Destination destination) {
        expected.put(source, new Expected(id, destination));
    }

    /** The partition was closed. */
    public synchronized void forget(TopicPartition source) {
        expected.remove(source);
    }

    /** A mark for records in hand now: a look that begins later covers them. */
    public synchronized long stamp() {
        return clock;
    }

    /**
     * Checks the partitions about to commit records fetched before {@code fetchedBy} ({@link #stamp()}): their topics'
     * ids are read in one request, unless a look begun after the stamp read them already.
     *
     * @param next each partition's destination next offset (for the message)
     * @throws PositionException a partition's topic has another id than its destination copies: nothing of it may be
     *                           written, the message names both ids and what to do (the condition of every partition of
     *                           its topic, {@link PositionException#topic()})
     * @throws org.apache.kafka.common.KafkaException the look's failure, as Kafka classifies it ({@link Failures})
     */
    public synchronized void check(Map<TopicPartition, Long> next, long fetchedBy) {
        mismatches(next, fetchedBy).values().stream().findFirst().ifPresent(e -> {
            throw e;
        });
    }

    /**
     * As {@link #check}, for a task that goes on with the other partitions: the failure of each partition whose topic has
     * another id than its destination copies (empty: every partition may commit).
     *
     * @throws org.apache.kafka.common.KafkaException the look's failure, as Kafka classifies it ({@link Failures})
     */
    public synchronized Map<TopicPartition, PositionException> mismatches(Map<TopicPartition, Long> next, long fetchedBy) {
        Set<String> stale = new TreeSet<>();
        next.keySet().forEach(tp -> {
            Look look = looks.get(tp.topic());
            if (expected.containsKey(tp) && (look == null || look.stamp() <= fetchedBy)) {
                stale.add(tp.topic());
            }
        });
        if (!stale.isEmpty()) {
            long stamp = ++clock; // before the request: records fetched from now on are not covered by it
            Map<String, String> ids = TopicIds.readExisting(admin, stale, timeout);
            stale.forEach(t -> looks.put(t, new Look(stamp, ids.getOrDefault(t, ""))));
        }
        Map<TopicPartition, PositionException> failed = new LinkedHashMap<>();
        next.forEach((tp, n) -> {
            Expected e = expected.get(tp);
            Look look = looks.get(tp.topic());
            if (e != null && !e.id().isEmpty() && look != null && !look.id().isEmpty()) {
                try {
                    PositionRule.checkIdentity(tp, e.destination(), OptionalLong.of(n), e.id(), look.id());
                } catch (PositionException x) {
                    failed.put(tp, x);
                }
            }
        });
        return failed;
    }
}
