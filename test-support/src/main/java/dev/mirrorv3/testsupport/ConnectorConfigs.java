package dev.mirrorv3.testsupport;

import java.util.HashMap;
import java.util.Map;

/** The connector configs the tests start from: what every connector of the bundle is given, and an S3 destination. */
public final class ConnectorConfigs {
    /** Connect's converter of the records' exact bytes: the only one the connectors accept. */
    public static final String BYTES = "org.apache.kafka.connect.converters.ByteArrayConverter";

    private ConnectorConfigs() {
    }

    /** connector.class, tasks.max and topics, with byte-array key, value and header converters. */
    public static Map<String, String> bytes(String connectorClass, int tasksMax, String topics) {
        Map<String, String> c = new HashMap<>();
        c.put("connector.class", connectorClass);
        c.put("tasks.max", Integer.toString(tasksMax));
        c.put("topics", topics);
        c.put("key.converter", BYTES);
        c.put("value.converter", BYTES);
        c.put("header.converter", BYTES);
        return c;
    }

    /**
     * A sink's start: one task on {@code topics}, byte-array converters, the consumer overrides every sink needs
     * (auto.offset.reset=none, read_committed) and the source cluster's admin at {@code sourceBootstrap}.
     */
    public static Map<String, String> sink(String connectorClass, String topics, String sourceBootstrap) {
        Map<String, String> c = bytes(connectorClass, 1, topics);
        c.put("consumer.override.auto.offset.reset", "none");
        c.put("consumer.override.isolation.level", "read_committed");
        c.put("source.admin.bootstrap.servers", sourceBootstrap);
        return c;
    }

    /**
     * A chain source's start: one task following the backup of {@code topics} into {@code target} with {@code offsets}
     * (preserve or renumber), the target cluster's admin at {@code targetBootstrap}, and the producer overrides it
     * requires (idempotent, acks=all, at most 5 requests in flight); the caller adds the backup's destination.
     */
    public static Map<String, String> chainSource(String topics, String target, String offsets, String targetBootstrap) {
        Map<String, String> c = bytes("dev.mirrorv3.connect.source.ChainSourceConnector", 1, topics);
        c.put("target.topic", target);
        c.put("offsets", offsets);
        c.put("target.admin.bootstrap.servers", targetBootstrap);
        c.put("producer.override.enable.idempotence", "true");
        c.put("producer.override.acks", "all");
        c.put("producer.override.max.in.flight.requests.per.connection", "5");
        return c;
    }

    /**
     * The blob sink's S3 destination in {@code bucket} of the server at {@code endpoint} (path-style, us-east-1), with
     * its write and read identities.
     */
    public static Map<String, String> s3(String endpoint, String bucket, String writerId, String writerSecret, String readerId,
                                         String readerSecret) {
        return with(new HashMap<>(), "destination.type", "s3", "s3.endpoint", endpoint, "s3.region", "us-east-1", "s3.bucket", bucket,
                "s3.path.style.access", "true", "s3.write.access.key.id", writerId, "s3.write.secret.access.key", writerSecret,
                "s3.read.access.key.id", readerId, "s3.read.secret.access.key", readerSecret);
    }

    /**
     * {@code config} with a sink consumer's group that evicts a task stuck in put() or in I/O within 6 s (its heartbeats
     * every {@code heartbeatMs} go on while it is stuck, so only max.poll.interval.ms notices).
     */
    public static Map<String, String> evictingStuckTasks(Map<String, String> config, long heartbeatMs) {
        config.put("consumer.override.max.poll.interval.ms", "6000");
        config.put("consumer.override.session.timeout.ms", "6000");
        config.put("consumer.override.heartbeat.interval.ms", Long.toString(heartbeatMs));
        return config;
    }

    /** {@code config} with each key of {@code keysAndValues} set to the value after it (a null value removes the key). */
    public static Map<String, String> with(Map<String, String> config, String... keysAndValues) {
        for (int i = 0; i < keysAndValues.length; i += 2) {
            if (keysAndValues[i + 1] == null) {
                config.remove(keysAndValues[i]);
            } else {
                config.put(keysAndValues[i], keysAndValues[i + 1]);
            }
        }
        return config;
    }
}
