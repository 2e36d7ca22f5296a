package dev.mirrorv3.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * A source topic deleted and created again within a second under a running sink, while records flow: records go to
 * the old topic at a steady rate until just before its deletion, and the new topic is filled at once with more
 * records per partition than the old one had, so that offsets alone cannot tell the two apart. Every record carries
 * the header {@link #HEADER} naming its topic ({@code old} or {@code new}), and the old topic's records are kept by
 * the offset they were stored at, so a copy can be compared with what the old topic held after it is gone.
 */
public final class FastRecreation implements AutoCloseable {
    /** The header whose value names the incarnation a record was written to. */
    public static final String HEADER = "mirror-v3-test-incarnation";

    private final String bootstrap;
    private final Admin admin;
    private final String topic;
    private final int partitions;
    private final KafkaProducer<byte[], byte[]> oldProducer;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final Map<TopicPartition, NavigableMap<Long, ProducerRecord<byte[], byte[]>>> oldRecords = new ConcurrentHashMap<>();
    private final AtomicReference<Exception> failure = new AtomicReference<>();
    private final Random random = new Random(42);
    private int next;

    /** What the re-creation did: how long the topic was gone, each partition's end in both topics, both ids. */
    public record Recreated(long gapMs, Map<Integer, Long> oldEnd, Map<Integer, Long> newEnd, String oldId, String newId) {
    }

    private FastRecreation(String bootstrap, Admin admin, String topic, int partitions) {
        this.bootstrap = bootstrap;
        this.admin = admin;
        this.topic = topic;
        this.partitions = partitions;
        this.oldProducer = TestRecords.producer(bootstrap, 60_000, 30_000);
        for (int p = 0; p < partitions; p++) {
            oldRecords.put(new TopicPartition(topic, p), new ConcurrentSkipListMap<>());
        }
    }

    /**
     * Starts writing {@code perSecond} records a second to each partition of the existing {@code topic}.
     *
     * @param admin an admin client of the cluster (not owned)
     */
    public static FastRecreation start(String bootstrap, Admin admin, String topic, int partitions, int perSecond) {
        FastRecreation r = new FastRecreation(bootstrap, admin, topic, partitions);
        r.timer.scheduleAtFixedRate(r::sendOld, 0, 1_000_000L / perSecond, TimeUnit.MICROSECONDS);
        return r;
    }

    private void sendOld() {
        for (int p = 0; p < partitions; p++) {
            ProducerRecord<byte[], byte[]> record = record(p, "old");
            TopicPartition tp = new TopicPartition(topic, p);
            oldProducer.send(record, (md, e) -> {
                if (e != null) {
                    failure.compareAndSet(null, e);
                } else {
                    oldRecords.get(tp).put(md.offset(), record);
                }
            });
        }
        next++;
    }

    private ProducerRecord<byte[], byte[]> record(int partition, String incarnation) {
        ProducerRecord<byte[], byte[]> r = TestRecords.varied(topic, partition, next, random, System.currentTimeMillis());
        r.headers().add(HEADER, incarnation.getBytes(StandardCharsets.UTF_8));
        return r;
    }

    /** The old topic's records written so far, per partition, by offset. */
    public long oldRecordsWritten() {
        return oldRecords.values().stream().mapToLong(Map::size).sum();
    }

    /**
     * Stops the old topic's records (each one acknowledged), deletes the topic, creates it again with as many
     * partitions, and writes {@code more} records more to each of its partitions than the old one had.
     */
    public Recreated recreate(int more) throws Exception {
        timer.shutdown();
        if (!timer.awaitTermination(30, TimeUnit.SECONDS)) {
            throw new AssertionError("the producer of " + topic + " did not stop");
        }
        oldProducer.flush();
        if (failure.get() != null) {
            throw new AssertionError("could not write the old records of " + topic, failure.get());
        }
        Map<Integer, Long> oldEnd = new TreeMap<>();
        oldRecords.forEach((tp, records) -> oldEnd.put(tp.partition(), records.isEmpty() ? 0 : records.lastKey() + 1));
        String oldId = topicId();
        long deleting = System.nanoTime();
        admin.deleteTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
        long deadline = deleting + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get(30, TimeUnit.SECONDS);
                break;
            } catch (Exception e) {
                if (System.nanoTime() > deadline) {
                    throw e; // the deletion is still under way before that
                }
                Thread.sleep(10);
            }
        }
        long gapMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - deleting);
        List<ProducerRecord<byte[], byte[]>> newRecords = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            for (long i = 0; i < oldEnd.get(p) + more; i++) {
                newRecords.add(record(p, "new"));
                next++;
            }
        }
        try (KafkaProducer<byte[], byte[]> producer = TestRecords.producer(bootstrap, 60_000, 30_000)) {
            TestRecords.sendAll(producer, newRecords, Duration.ofSeconds(60));
        }
        Map<Integer, Long> newEnd = new TreeMap<>();
        oldEnd.forEach((p, end) -> newEnd.put(p, end + more));
        return new Recreated(gapMs, oldEnd, newEnd, oldId, topicId());
    }

    /** The old topic's record at {@code offset}, as written (null if none was acknowledged there). */
    public ProducerRecord<byte[], byte[]> oldRecord(int partition, long offset) {
        return oldRecords.get(new TopicPartition(topic, partition)).get(offset);
    }

    /** A test's premise: the topic was gone for less than a second and came back as a new topic (a new id). */
    public static void assertFast(Recreated r) {
        assertThat(r.gapMs()).as("premise: deleted and created again within a second").isLessThan(1000);
        assertThat(r.newId()).as("premise: a new topic").isNotEqualTo(r.oldId());
    }

    /** The record kept at {@code offset} of {@code partition} ({@code at} names it) is the old topic's record there. */
    public void assertOldRecord(String at, int partition, long offset, byte[] key, byte[] value) {
        ProducerRecord<byte[], byte[]> old = oldRecord(partition, offset);
        assertThat(old).as(at + ": the old topic had a record there").isNotNull();
        assertThat(key).as(at + " key").isEqualTo(old.key());
        assertThat(value).as(at + " value").isEqualTo(old.value());
    }

    /**
     * Every partition of {@code topic} was isolated by connector {@code topic} with the message of a source topic deleted
     * and created again, naming both ids, while its task goes on.
     */
    public static void assertPartitionsIsolated(ConnectTestCluster cluster, String topic, int partitions, Recreated r, Duration wait) {
        for (int p = 0; p < partitions; p++) {
            assertThat(cluster.awaitPartitionFailed(topic, topic, p, wait)).as("partition %d's failure", p)
                    .contains("source topic " + topic + " was deleted and created again",
                            "holds a copy of the topic with id " + r.oldId(), topic + " now has id " + r.newId(),
                            "Nothing of the new topic was written");
        }
        assertThat(cluster.taskState(topic)).as("the task goes on").isEqualTo("RUNNING");
    }

    /** Which topic a record with these headers was written to: "old", "new", or null for a record of neither. */
    public static String incarnation(Headers headers) {
        Header h = headers.lastHeader(HEADER);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    private String topicId() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                return admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic).topicId().toString();
            } catch (Exception e) {
                if (System.nanoTime() > deadline) {
                    throw e; // a topic just created is described a moment later
                }
                Thread.sleep(10);
            }
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
        oldProducer.close(Duration.ofSeconds(5));
    }
}
