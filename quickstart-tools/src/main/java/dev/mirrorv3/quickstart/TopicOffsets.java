package dev.mirrorv3.quickstart;

import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/** A topic's partitions with their log-start offsets and high watermarks, through the Admin API. */
public final class TopicOffsets implements AutoCloseable {
    private final Admin admin;

    public TopicOffsets(String bootstrapServers) {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(AdminClientConfig.CLIENT_ID_CONFIG, "mirror-v3-quickstart-tools");
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "15000");
        this.admin = Admin.create(p);
    }

    public int partitionCount(String topic) throws ExecutionException, InterruptedException, TimeoutException {
        TopicDescription d = admin.describeTopics(java.util.List.of(topic)).allTopicNames().get(15, TimeUnit.SECONDS).get(topic);
        return d.partitions().size();
    }

    /** Partition → high watermark (the offset the next record gets). */
    public Map<Integer, Long> highWatermarks(String topic) throws Exception {
        return offsets(topic, OffsetSpec.latest());
    }

    /** Partition → log-start offset. */
    public Map<Integer, Long> logStartOffsets(String topic) throws Exception {
        return offsets(topic, OffsetSpec.earliest());
    }

    private Map<Integer, Long> offsets(String topic, OffsetSpec spec) throws Exception {
        int n = partitionCount(topic);
        Map<TopicPartition, OffsetSpec> request = new java.util.HashMap<>();
        for (int p = 0; p < n; p++) {
            request.put(new TopicPartition(topic, p), spec);
        }
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> result =
                admin.listOffsets(request).all().get(15, TimeUnit.SECONDS);
        Map<Integer, Long> out = new TreeMap<>();
        result.forEach((tp, info) -> out.put(tp.partition(), info.offset()));
        return out;
    }

    /** Partition → committed offset of a consumer group on this topic (absent: nothing committed). */
    public Map<Integer, Long> committed(String group, String topic) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> all =
                admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get(15, TimeUnit.SECONDS);
        return all.entrySet().stream()
                .filter(e -> e.getKey().topic().equals(topic) && e.getValue() != null)
                .collect(Collectors.toMap(e -> e.getKey().partition(), e -> e.getValue().offset(), (a, b) -> a, TreeMap::new));
    }

    /** Prints the sum of a topic's high watermarks (what a complete copy of it holds, offsets preserved). */
    public static void main(String[] args) throws Exception {
        Usage.exactly(args, 2, "TopicOffsets <bootstrap servers> <topic>");
        try (TopicOffsets offsets = new TopicOffsets(args[0])) {
            System.out.println(offsets.highWatermarks(args[1]).values().stream().mapToLong(Long::longValue).sum());
        }
    }

    public Admin admin() {
        return admin;
    }

    @Override
    public void close() {
        admin.close();
    }
}
