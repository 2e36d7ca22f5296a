package dev.mirrorv3.quickstart;

import dev.mirrorv3.chain.ChainException;
import dev.mirrorv3.chain.read.ChainReader;
import dev.mirrorv3.chain.store.Store;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Waits until a destination holds the source topic's last committed record of every partition: a blob sink's chain
 * (its next offset is past that record; the high watermark itself is out of reach when the topic ends with a commit
 * marker or an aborted transaction) or a copy topic (its high watermark is past it). Fails fast when the connector or a
 * task is FAILED.
 *
 * <p>Usage: {@code TortureWait chain <connector-config.json> <connector> <connect-url> <timeout s>} or
 * {@code TortureWait topic <source bootstrap> <source topic> <destination bootstrap> <destination topic> <connector>
 * <connect-url> <timeout s>}
 */
public final class TortureWait {
    private TortureWait() {
    }

    public static void main(String[] args) throws Exception {
        boolean chain = args.length == 5 && args[0].equals("chain");
        if (!chain && !(args.length == 8 && args[0].equals("topic"))) {
            Usage.exit("TortureWait chain <connector-config.json> <connector> <connect-url> <timeout s>\n"
                    + "       TortureWait topic <source bootstrap> <source topic> <destination bootstrap> <destination topic>"
                    + " <connector> <connect-url> <timeout s>");
        }
        BlobSinkSettings s = chain ? BlobSinkSettings.load(Path.of(args[1]), args[2]) : null;
        String sourceBootstrap = chain ? s.bootstrapServers() : args[1];
        String sourceTopic = chain ? s.topic() : args[2];
        String connector = chain ? args[2] : args[5];
        String connectUrl = chain ? args[3] : args[6];
        long timeout = Long.parseLong(chain ? args[4] : args[7]);
        Map<Integer, Long> needed = lastCommitted(sourceBootstrap, sourceTopic);
        long start = System.nanoTime();
        String lag = "";
        try (TopicOffsets dest = chain ? null : new TopicOffsets(args[3])) {
            while (System.nanoTime() - start < timeout * 1_000_000_000L) {
                Optional<String> failed = ConnectorStatus.failure(connectUrl, connector);
                if (failed.isPresent()) {
                    System.out.println(failed.get());
                    System.exit(1);
                }
                try {
                    lag = lag(needed, chain ? chainNext(s, needed) : dest.highWatermarks(args[4]));
                } catch (ChainException | java.util.concurrent.ExecutionException e) {
                    lag = e.getMessage(); // a listing during an upload, a broker coming back: look again
                }
                if (lag.isEmpty()) {
                    System.out.printf("%s caught up with %s (%.1f s)%n", connector, sourceTopic, (System.nanoTime() - start) / 1e9);
                    return;
                }
                Thread.sleep(500);
            }
        }
        System.out.println("timed out after " + timeout + " s waiting for " + connector + " to catch up with " + sourceTopic + ": " + lag);
        System.exit(1);
    }

    private static Map<Integer, Long> chainNext(BlobSinkSettings s, Map<Integer, Long> needed) {
        Map<Integer, Long> next = new TreeMap<>();
        try (Store store = s.store()) {
            ChainReader reader = s.reader(store);
            needed.keySet().forEach(p -> next.put(p, reader.listChain(p, OptionalLong.empty()).nextOffset().orElse(0)));
        }
        return next;
    }

    private static String lag(Map<Integer, Long> needed, Map<Integer, Long> next) {
        StringBuilder b = new StringBuilder();
        needed.forEach((p, n) -> {
            Long at = next.get(p);
            if (at == null || at < n) {
                b.append(b.length() == 0 ? "" : "; ").append("p").append(p).append(" at ").append(at).append(", needs ").append(n);
            }
        });
        return b.toString();
    }

    /** Partition → the offset after its last committed record (0 for a partition without any). */
    static Map<Integer, Long> lastCommitted(String bootstrap, String topic) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        Map<Integer, Long> out = new TreeMap<>();
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> tps = c.partitionsFor(topic).stream().map(i -> new TopicPartition(topic, i.partition())).toList();
            Map<TopicPartition, Long> begin = c.beginningOffsets(tps);
            Map<TopicPartition, Long> end = c.endOffsets(tps);
            c.assign(tps);
            // Transactions hold at most 50 records: the last committed one is near the end; read back further if not.
            for (long back = 1000; out.size() < tps.size(); back *= 4) {
                Map<TopicPartition, Long> last = new java.util.HashMap<>();
                for (TopicPartition tp : tps) {
                    c.seek(tp, Math.max(begin.get(tp), end.get(tp) - back));
                }
                while (tps.stream().anyMatch(tp -> c.position(tp) < end.get(tp))) {
                    for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(500))) {
                        last.merge(new TopicPartition(topic, r.partition()), r.offset(), Math::max);
                    }
                }
                for (TopicPartition tp : tps) {
                    if (last.containsKey(tp) || end.get(tp) - back <= begin.get(tp)) {
                        out.putIfAbsent(tp.partition(), last.getOrDefault(tp, -1L) + 1);
                    }
                }
            }
        }
        return out;
    }
}
