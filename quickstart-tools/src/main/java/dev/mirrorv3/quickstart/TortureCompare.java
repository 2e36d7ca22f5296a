package dev.mirrorv3.quickstart;

import dev.mirrorv3.chain.ChainException;
import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.manifest.ChainStart;
import dev.mirrorv3.chain.read.ChainReader;
import dev.mirrorv3.chain.store.Store;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The torture suite's final check of one scenario: the source topic (read_committed, log start to high watermark)
 * record by record against the destination, with {@link TortureComparison}.
 * <ul>
 *   <li>{@code chain <connector-config.json> <connector>}: a blob sink's chains, listed raw (so that a gap or an
 *   overlap is counted, not only refused), every object read and checked through chain-core's {@link ChainReader},
 *   and each chain validated as the sink and the restore validate it;</li>
 *   <li>{@code chain-pruned <connector-config.json> <connector>}: the same after {@code mirror-v3 prune}: each partition
 *   from its recorded start on (the source's records before it are not expected), the chain starting exactly there and
 *   validated by the one start rule;</li>
 *   <li>{@code topic <source bootstrap> <source topic> <destination bootstrap> <destination topic>}: a Kafka sink's or
 *   a chain source's target, at the same offsets.</li>
 * </ul>
 * Prints {@code RESULT records=… missing=… duplicated=… differing=… gaps=… overlaps=…} and the first differences;
 * exit 0 only when nothing is missing, duplicated or differing and there is no gap or overlap.
 */
public final class TortureCompare {
    private TortureCompare() {
    }

    public static void main(String[] args) throws Exception {
        TortureComparison c;
        if (args.length == 3 && (args[0].equals("chain") || args[0].equals("chain-pruned"))) {
            c = chain(BlobSinkSettings.load(Path.of(args[1]), args[2]), args[0].equals("chain-pruned"));
        } else if (args.length == 5 && args[0].equals("topic")) {
            c = topics(args[1], args[2], args[3], args[4]);
        } else {
            Usage.exit("TortureCompare chain|chain-pruned <connector-config.json> <connector>\n"
                    + "       TortureCompare topic <source bootstrap> <source topic> <destination bootstrap> <destination topic>");
            return;
        }
        System.out.println("RESULT " + c.summary());
        c.examples().forEach(e -> System.out.println("  " + e));
        System.exit(c.ok() ? 0 : 1);
    }

    static TortureComparison chain(BlobSinkSettings s, boolean pruned) throws Exception {
        Map<Integer, Long> logStart;
        try (TopicOffsets offsets = new TopicOffsets(s.bootstrapServers())) {
            logStart = offsets.logStartOffsets(s.topic());
        }
        Map<Integer, List<ConsumerRecord<byte[], byte[]>>> source = TopicReader.readAll(s.bootstrapServers(), s.topic());
        TortureComparison total = new TortureComparison();
        try (Store store = s.store()) {
            ChainReader reader = s.reader(store);
            for (Map.Entry<Integer, List<ConsumerRecord<byte[], byte[]>>> e : source.entrySet()) {
                int p = e.getKey();
                long start = logStart.get(p);
                List<ConsumerRecord<byte[], byte[]>> expected = e.getValue();
                if (pruned) {
                    start = Math.max(start, ChainStart.recorded(store, p, reader.listing(p).newest()).orElse(0));
                    long from = start;
                    expected = expected.stream().filter(r -> r.offset() >= from).toList();
                    System.out.println("p" + p + ": from the recorded start " + start);
                }
                List<TortureComparison.Segment> segments = new ArrayList<>();
                TortureComparison part = new TortureComparison();
                for (String name : store.list(p)) {
                    Optional<ObjectName> parsed = ObjectName.parse(name);
                    if (parsed.isEmpty()) {
                        part.problem("p" + p + ": " + store.location(p) + "/" + name
                                + " is not a chain object (a leftover temporary or partial file?)");
                        continue;
                    }
                    try {
                        segments.add(new TortureComparison.Segment(name, parsed.get().from(), parsed.get().to(),
                                reader.read(p, parsed.get(), s.topic()).records()));
                    } catch (RuntimeException ex) {
                        part.problem("p" + p + ": object " + name + " does not read back: " + ex.getMessage());
                    }
                }
                part.add(p, toBackup(expected, s.topic()), segments, start, true);
                if (part.gaps() + part.overlaps() == 0) {
                    try {
                        reader.listChain(p, pruned ? OptionalLong.empty() : OptionalLong.of(start));
                    } catch (ChainException ex) {
                        part.problem("p" + p + ": the chain does not validate: " + ex.getMessage());
                    }
                }
                total.add(part);
            }
        }
        return total;
    }

    static TortureComparison topics(String sourceBootstrap, String sourceTopic, String destBootstrap, String destTopic) {
        Map<Integer, List<ConsumerRecord<byte[], byte[]>>> source = TopicReader.readAll(sourceBootstrap, sourceTopic);
        Map<Integer, List<ConsumerRecord<byte[], byte[]>>> dest = TopicReader.readAll(destBootstrap, destTopic);
        TortureComparison total = new TortureComparison();
        if (!source.keySet().equals(dest.keySet())) {
            total.problem("partitions of " + sourceTopic + " " + source.keySet() + " vs " + destTopic + " " + dest.keySet());
        }
        for (Map.Entry<Integer, List<ConsumerRecord<byte[], byte[]>>> e : source.entrySet()) {
            List<BackupRecord> copy = toBackup(dest.getOrDefault(e.getKey(), List.of()), sourceTopic);
            total.add(e.getKey(), toBackup(e.getValue(), sourceTopic), List.of(new TortureComparison.Segment(destTopic, 0,
                    Long.MAX_VALUE, copy)), 0, false);
        }
        return total;
    }

    /** The records as the chain stores them, under the source topic's name (a copy's records compare equal). */
    private static List<BackupRecord> toBackup(List<ConsumerRecord<byte[], byte[]>> records, String topic) {
        List<BackupRecord> out = new ArrayList<>(records.size());
        for (ConsumerRecord<byte[], byte[]> r : records) {
            BackupRecord b = VerifyBackup.toBackup(r);
            out.add(new BackupRecord(topic, b.partition(), b.offset(), b.timestampMs(), b.timestampType(), b.key(), b.value(),
                    b.headers()));
        }
        return out;
    }
}
