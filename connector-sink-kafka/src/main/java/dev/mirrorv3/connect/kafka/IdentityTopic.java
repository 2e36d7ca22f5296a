package dev.mirrorv3.connect.kafka;

import dev.mirrorv3.kafka.AdminWait;
import dev.mirrorv3.kafka.Failures;
import dev.mirrorv3.kafka.PositionException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * The destination cluster's record of which source topic each destination topic copies (docs/kafka-sink.md): a topic
 * of its own ({@code destination.identity.topic}) holding one record per destination topic, keyed by its name, that
 * never expires: {@code cleanup.policy=compact} keeps the newest record of every key for good, where committed offsets
 * expire {@code offsets.retention.minutes} after their last write. Created when missing (one partition, the cluster's
 * default replication factor); an existing one whose records could expire is refused. Read whole with a consumer of
 * its own (no group), written with a producer of its own; the records are a few, one per destination topic.
 */
final class IdentityTopic {
    /** What a destination topic is a copy of: the source topic and its id, and the destination topic's own id then. */
    record Entry(String sourceTopic, String sourceTopicId, String destinationTopicId) {
        String encode() {
            return "source.topic=" + sourceTopic + "\nsource.topic.id=" + sourceTopicId + "\ndestination.topic.id=" + destinationTopicId;
        }

        /** The entry a record's value holds; empty for a value that is not one (written by something else). */
        static Optional<Entry> decode(byte[] value) {
            if (value == null) {
                return Optional.empty();
            }
            Map<String, String> fields = new HashMap<>();
            for (String line : new String(value, StandardCharsets.UTF_8).split("\n")) {
                int eq = line.indexOf('=');
                if (eq > 0) {
                    fields.put(line.substring(0, eq), line.substring(eq + 1));
                }
            }
            String id = fields.getOrDefault("source.topic.id", "");
            return id.isEmpty() ? Optional.empty() : Optional.of(new Entry(fields.getOrDefault("source.topic", ""), id,
                    fields.getOrDefault("destination.topic.id", "")));
        }
    }

    private final String topic;
    private final Admin admin;
    private final Supplier<Consumer<byte[], byte[]>> consumers;
    private final Supplier<Producer<byte[], byte[]>> producers;
    private final String destinationDescription;
    private final Duration timeout;
    private volatile boolean ensured;

    /**
     * @param admin an admin client of the destination cluster (not owned)
     * @param consumers a new consumer of the destination cluster (closed after each read)
     * @param producers a new producer to the destination cluster (closed after each write)
     */
    IdentityTopic(String topic, Admin admin, Supplier<Consumer<byte[], byte[]>> consumers, Supplier<Producer<byte[], byte[]>> producers,
                  String destinationDescription, Duration timeout) {
        this.topic = topic;
        this.admin = admin;
        this.consumers = consumers;
        this.producers = producers;
        this.destinationDescription = destinationDescription;
        this.timeout = timeout;
    }

    /** The connector's identity topic ({@code destination.identity.topic}), its clients named after {@code clientId}. */
    static IdentityTopic of(KafkaSinkConfig config, Admin destinationAdmin, String clientId) {
        return new IdentityTopic(config.identityTopic(), destinationAdmin,
                () -> new KafkaConsumer<>(config.destinationConsumerConfig(clientId + "-reader")),
                () -> new KafkaProducer<>(config.producerConfig(clientId + "-writer")), config.destinationBootstrap(),
                config.adminTimeout());
    }

    String name() {
        return topic;
    }

    /** Each destination topic's newest entry. */
    Map<String, Entry> read() {
        ensure();
        Map<String, Entry> entries = new HashMap<>();
        try (Consumer<byte[], byte[]> consumer = consumers.get()) {
            List<TopicPartition> partitions = new ArrayList<>();
            consumer.partitionsFor(topic, timeout).forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, timeout);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (partitions.stream().anyMatch(tp -> consumer.position(tp, timeout) < end.get(tp))) {
                if (System.nanoTime() > deadline) {
                    throw new org.apache.kafka.common.errors.TimeoutException("not at its end " + end + " after " + timeout);
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                    String key = r.key() == null ? "" : new String(r.key(), StandardCharsets.UTF_8);
                    Optional<Entry> e = Entry.decode(r.value());
                    if (e.isPresent()) {
                        entries.put(key, e.get());
                    } else {
                        entries.remove(key); // a tombstone: deleted on purpose
                    }
                }
            }
        } catch (KafkaException e) {
            throw failed("reading", e);
        }
        return entries;
    }

    /** Writes an entry per destination topic, each acknowledged by the destination cluster. */
    void write(Map<String, Entry> entries) {
        ensure();
        List<Future<?>> sent = new ArrayList<>();
        try (Producer<byte[], byte[]> producer = producers.get()) {
            entries.forEach((destinationTopic, e) -> sent.add(producer.send(new ProducerRecord<>(topic,
                    destinationTopic.getBytes(StandardCharsets.UTF_8), e.encode().getBytes(StandardCharsets.UTF_8)))));
            producer.flush();
        } catch (KafkaException e) {
            throw failed("writing to", e);
        }
        for (Future<?> f : sent) {
            get(f, "writing to");
        }
    }

    /** Creates the topic when it is missing; refuses one whose records could expire. */
    private void ensure() {
        if (ensured) {
            return;
        }
        if (!exists()) {
            try {
                get(admin.createTopics(List.of(new NewTopic(topic, Optional.of(1), Optional.empty())
                        .configs(Map.of("cleanup.policy", "compact")))).all(), "creating");
            } catch (KafkaException e) {
                if (!(e.getCause() instanceof TopicExistsException)) { // another task created it meanwhile
                    throw e;
                }
            }
        }
        Config config = configs();
        String policy = value(config, "cleanup.policy");
        if (policy.contains("delete") && !("-1".equals(value(config, "retention.ms")) && "-1".equals(value(config, "retention.bytes")))) {
            throw new PositionException("topic " + topic + " on " + destinationDescription + " has cleanup.policy=" + policy
                    + " (retention.ms=" + value(config, "retention.ms") + "): its records would expire, and with them the record of"
                    + " which source topic each destination topic copies. Set cleanup.policy=compact on it (kafka-configs --alter"
                    + " --entity-type topics --entity-name " + topic + " --add-config cleanup.policy=compact), then restart the task");
        }
        ensured = true;
    }

    /** The topic's configs, waiting (up to the timeout) for a topic just created to be known to the broker asked. */
    private Config configs() {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try {
                return get(admin.describeConfigs(List.of(resource)).all(), "describing").get(resource);
            } catch (KafkaException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException) || System.nanoTime() > deadline) {
                    throw e;
                }
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new org.apache.kafka.common.errors.InterruptException(e);
            }
        }
    }

    private boolean exists() {
        try {
            get(admin.describeTopics(List.of(topic)).allTopicNames(), "describing");
            return true;
        } catch (KafkaException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return false;
            }
            throw e;
        }
    }

    private static String value(Config config, String name) {
        ConfigEntry e = config.get(name);
        return e == null || e.value() == null ? "" : e.value();
    }

    private <T> T get(Future<T> future, String what) {
        try {
            return AdminWait.await(() -> future.get(timeout.toMillis() + 1000, TimeUnit.MILLISECONDS),
                    () -> what + " topic " + topic + " on " + destinationDescription + " timed out after " + timeout);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof TopicExistsException || cause instanceof UnknownTopicOrPartitionException) {
                throw new KafkaException(what + " topic " + topic + " on " + destinationDescription + ": " + Failures.describe(cause),
                        cause);
            }
            throw failed(what, cause);
        }
    }

    /** A failure naming the topic and, for a missing permission, the ones to grant; the cause decides transient or fatal. */
    private KafkaException failed(String what, Throwable cause) {
        return new KafkaException(what + " topic " + topic + " on " + destinationDescription + " failed: " + Failures.describe(cause)
                + (Failures.isAuthorization(cause) ? ". The Kafka sink keeps there which source topic each destination topic copies:"
                + " create it (cleanup.policy=compact) or grant the destination clients (destination.* settings) Create on it, and"
                + " Describe, DescribeConfigs, Read and Write, then restart the task" : ""), cause);
    }
}
