package dev.mirrorv3.connect.blob;

import dev.mirrorv3.chain.crypto.MissingKeysException;
import dev.mirrorv3.chain.meta.MetaName;
import dev.mirrorv3.chain.meta.MetaSnapshots;
import dev.mirrorv3.chain.meta.TopicSnapshot;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.kafka.PerPartition;
import dev.mirrorv3.kafka.PositionException;
import dev.mirrorv3.kafka.PositionRule;
import dev.mirrorv3.kafka.TopicIds;
import dev.mirrorv3.kafka.meta.TopicMetadata;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
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
 * before anything is written, whatever metadata.interval.ms says (docs/design.md, the position rule). The id is the
 * whole backup's, not one connector's: connectors sharing a destination with {@code partitions=} each open only their
 * own partitions, so another id is taken only when every partition of the destination is empty, and until then even a
 * connector whose own partitions are empty is refused.
 */
record BackupIdentity(Function<String, Store> storeForTopic, KeysDirWatch keys, Admin admin, Duration timeout, Clock clock) {
    private static final Logger log = LoggerFactory.getLogger(BackupIdentity.class);

    /**
     * Checks each partition's backup against its topic's current id, then records that id where the backup holds none,
     * or where it holds another one but no records at all. A topic whose backup is another topic's (or whose id cannot
     * be recorded) fails each of its partitions in {@code opened}, not the others' topics; a transient failure is thrown.
     *
     * @param destinationNext each partition's next offset in the backup, empty when it holds nothing
     * @return each topic's id as read for the check: the topic the partitions continue from (empty: the cluster gave none)
     */
    Map<String, String> verify(Map<TopicPartition, OptionalLong> destinationNext, PerPartition<?> opened) {
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
        return current;
    }

    /** @throws PositionException a backup of another topic of the same name (every partition of {@code topic}) */
    private void verify(String topic, String id, Map<TopicPartition, OptionalLong> destinationNext) {
        Store store = storeForTopic.apply(topic);
        MetaSnapshots meta = new MetaSnapshots(store, keys.get());
        String recorded = meta.newestTopic().map(s -> s.snapshot().topicId()).orElse("");
        SortedMap<Integer, OptionalLong> own = new TreeMap<>();
        destinationNext.forEach((tp, next) -> {
            if (tp.topic().equals(topic)) {
                own.put(tp.partition(), next);
                PositionRule.checkIdentity(tp, new PositionRule.BlobChain(store.location(tp.partition())), next, recorded, id);
            }
        });
        if (id.isEmpty() || id.equals(recorded)) {
            return;
        }
        if (!recorded.isEmpty()) {
            refuseIfAnotherPartitionHoldsRecords(store, new TopicPartition(topic, own.firstKey()), own.keySet(), recorded, id);
        }
        MetaName name = meta.writeTopic(snapshot(topic));
        log.info("topic id {} of {} recorded in {}/{} (the backup {}): the backup continues only from this topic", id, topic,
                meta.location(MetaSnapshots.TOPIC_DIR), name, recorded.isEmpty() ? "had none" : "held no records of " + recorded);
    }

    /**
     * The partitions being opened are empty, and the backup recorded another topic id: any other partition directory of
     * the destination holding an object (another connector's, with {@code partitions=}) makes it a backup of that topic.
     * One listing of the partition directories, then at most one name per partition.
     */
    private static void refuseIfAnotherPartitionHoldsRecords(Store store, TopicPartition opened, Set<Integer> own, String recorded,
            String id) {
        for (int p : store.partitions()) {
            if (!own.contains(p) && !store.listFrom(p, "", 1).isEmpty()) {
                throw PositionException.ofTopic(opened.topic(), "source topic " + opened.topic() + " was deleted and created again:"
                        + " the backup at " + store.location(p) + " holds records of the topic with id " + recorded + ", and "
                        + opened.topic() + " now has id " + id + ", another topic of the same name. A backup holds one topic, whichever"
                        + " connector backs up each of its partitions (partitions=): " + opened + " is empty here, and is refused too."
                        + " Nothing of the new topic was written for " + opened + ". "
                        + new PositionRule.BlobChain(store.location(opened.partition())).whenRecreated());
            }
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
