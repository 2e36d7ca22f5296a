package dev.mirrorv3.connect.blob;

import dev.mirrorv3.chain.crypto.MissingKeysException;
import dev.mirrorv3.chain.meta.MetaName;
import dev.mirrorv3.chain.meta.MetaSnapshots;
import dev.mirrorv3.chain.meta.TopicSnapshot;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.kafka.PerPartition;
import dev.mirrorv3.kafka.PositionRule;
import dev.mirrorv3.kafka.TopicIds;
import dev.mirrorv3.kafka.meta.TopicMetadata;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which source topic a backup holds: the topic id of its newest {@code _meta/topic/} snapshot. When partitions are
 * opened, a backup that holds records continues only from the topic with that id ({@link PositionRule#checkIdentity});
 * a backup without a recorded id (new, or made before ids were checked) gets a topic snapshot of the current topic
 * before anything is written, whatever metadata.interval.ms says (docs/design.md, the position rule).
 */
record BackupIdentity(Function<String, Store> storeForTopic, KeysDirWatch keys, Admin admin, Duration timeout, Clock clock) {
    private static final Logger log = LoggerFactory.getLogger(BackupIdentity.class);

    /**
     * Checks each partition's backup against its topic's current id, then records that id where the backup holds none.
     * A topic whose backup is another topic's (or whose id cannot be recorded) fails each of its partitions in
     * {@code opened}, not the others' topics; a transient failure is thrown.
     *
     * @param destinationNext each partition's next offset in the backup, empty when it holds nothing
     */
    void verify(Map<TopicPartition, OptionalLong> destinationNext, PerPartition<?> opened) {
        Set<String> topics = new TreeSet<>();
        destinationNext.keySet().forEach(tp -> topics.add(tp.topic()));
        Map<String, String> current = TopicIds.read(admin, topics, timeout);
        for (String topic : topics) {
            List<TopicPartition> partitions = destinationNext.keySet().stream().filter(tp -> tp.topic().equals(topic)).toList();
            opened.attemptAll(partitions, () -> {
                try {
                    verify(topic, current.getOrDefault(topic, ""), destinationNext);
                } catch (MissingKeysException e) {
                    if (!keys.reload(e.missing())) {
                        throw e; // the topic's snapshot needs a key not mounted yet: clears by itself once it is
                    }
                    verify(topic, current.getOrDefault(topic, ""), destinationNext);
                }
            });
        }
    }

    /** @throws dev.mirrorv3.kafka.PositionException a backup of another topic of the same name */
    private void verify(String topic, String id, Map<TopicPartition, OptionalLong> destinationNext) {
        Store store = storeForTopic.apply(topic);
        MetaSnapshots meta = new MetaSnapshots(store, keys.get());
        String recorded = meta.newestTopic().map(s -> s.snapshot().topicId()).orElse("");
        destinationNext.forEach((tp, next) -> {
            if (tp.topic().equals(topic)) {
                PositionRule.checkIdentity(tp, new PositionRule.BlobChain(store.location(tp.partition())), next, recorded, id);
            }
        });
        if (!id.isEmpty() && !id.equals(recorded)) {
            MetaName name = meta.writeTopic(snapshot(topic));
            log.info("topic id {} of {} recorded in {}/{} (the backup {}): the backup continues only from this topic", id, topic,
                    meta.location(MetaSnapshots.TOPIC_DIR), name, recorded.isEmpty() ? "had none" : "held no records of " + recorded);
        }
    }

    private TopicSnapshot snapshot(String topic) {
        try {
            return TopicMetadata.read(admin, topic, clock.millis(), timeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new org.apache.kafka.common.errors.InterruptException(e);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new KafkaException("reading the metadata of " + topic + " to record its topic id failed: " + cause, cause);
        }
    }
}
