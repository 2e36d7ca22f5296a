package dev.mirrorv3.quickstart;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Produces the quickstart's demo records (README: A 5-minute tour): string keys ({@code user-<n>}) and one-line JSON values,
 * with a header, so that what a user sees in the backup (DuckDB, restore, cache) is readable.
 *
 * Creates the topic first if it does not exist.
 *
 * <p>Usage: {@code DemoProducer <bootstrap.servers> <topic> <partitions> <count>}
 */
public final class DemoProducer {
    private static final String[] EVENTS = {"signup", "login", "view", "add_to_cart", "purchase", "logout"};

    private DemoProducer() {
    }

    public static void main(String[] args) throws Exception {
        Usage.exactly(args, 4, "DemoProducer <bootstrap.servers> <topic> <partitions> <count>");
        String topic = args[1];
        int partitions = Integer.parseInt(args[2]);
        int count = Integer.parseInt(args[3]);
        createTopic(args[0], topic, partitions);
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "mirror-v3-quickstart-demo");
        Map<Integer, Integer> perPartition = new TreeMap<>();
        long start = System.currentTimeMillis();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            java.util.List<java.util.concurrent.Future<RecordMetadata>> sent = new java.util.ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                String user = "user-" + (i % 50);
                String json = "{\"seq\":" + i + ",\"user\":\"" + user + "\",\"event\":\"" + EVENTS[i % EVENTS.length]
                        + "\",\"amount_cents\":" + ((i * 7919L) % 10000) + ",\"at\":\""
                        + Instant.ofEpochMilli(start + i) + "\"}";
                ProducerRecord<byte[], byte[]> r = new ProducerRecord<>(topic, user.getBytes(StandardCharsets.UTF_8),
                        json.getBytes(StandardCharsets.UTF_8));
                r.headers().add("source", "mirror-v3-quickstart".getBytes(StandardCharsets.UTF_8));
                sent.add(producer.send(r));
            }
            producer.flush();
            for (java.util.concurrent.Future<RecordMetadata> f : sent) {
                perPartition.merge(f.get().partition(), 1, Integer::sum);
            }
        }
        System.out.println("produced " + count + " records to " + topic + " (per partition: " + perPartition + ")");
    }

    static void createTopic(String bootstrap, String topic, int partitions) throws Exception {
        try (TopicOffsets t = new TopicOffsets(bootstrap)) {
            try {
                t.admin().createTopics(java.util.List.of(new org.apache.kafka.clients.admin.NewTopic(topic, partitions, (short) 1)))
                        .all().get(30, java.util.concurrent.TimeUnit.SECONDS);
                System.out.println("created topic " + topic + " with " + partitions + " partitions");
            } catch (java.util.concurrent.ExecutionException e) {
                if (!(e.getCause() instanceof org.apache.kafka.common.errors.TopicExistsException)) {
                    throw e;
                }
            }
            // Right after creation the broker may not lead the new partitions yet: a first produce then gets
            // NOT_LEADER_OR_FOLLOWER, and the idempotent producer's retries can stall on OUT_OF_ORDER_SEQUENCE_NUMBER
            // until the delivery timeout (seen on loaded machines). ListOffsets answers only once every leader serves.
            long deadline = System.currentTimeMillis() + 60_000;
            while (true) {
                try {
                    if (!t.highWatermarks(topic).isEmpty()) {
                        break;
                    }
                } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                    if (System.currentTimeMillis() > deadline) {
                        throw e;
                    }
                }
                if (System.currentTimeMillis() > deadline) {
                    throw new IllegalStateException("the partitions of " + topic + " have no serving leader after 60 s");
                }
                Thread.sleep(200);
            }
        }
    }
}
