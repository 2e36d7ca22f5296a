package dev.mirrorv3.connect.blob;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.SnapshotChain;
import dev.mirrorv3.chain.crypto.ObjectEncryption;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.envelope.ParquetCodec;
import dev.mirrorv3.chain.snapshot.CheckedSnapshot;
import dev.mirrorv3.chain.snapshot.SnapshotReader;
import dev.mirrorv3.chain.snapshot.SnapshotWriter;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.chain.write.FlushPolicy;
import dev.mirrorv3.kafka.LogOffsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Function;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Positions partitions backed up as snapshots (compaction=log): the newest snapshot is the position. On open it is read
 * back whole (streaming) and checked, so a truncated or foreign newest snapshot stops the task here; the partition
 * continues at its {@code to + 1}, with the chain's rules against the source: below the log-start offset is a lost
 * position, above the high watermark the destination is ahead.
 */
final class SnapshotOpener implements WriterOpener<SnapshotWriter> {
    private static final Logger log = LoggerFactory.getLogger(SnapshotOpener.class);

    private final Function<String, Store> storeForTopic;
    private final EnvelopeSettings envelope;
    private final ObjectEncryption encryption;
    private final FlushPolicy flushPolicy;
    private final LogOffsets sourceOffsets;
    private final BackupIdentity identity;
    private final Clock clock;
    private final Path spillDir;
    private final long memoryCapBytes;

    SnapshotOpener(Function<String, Store> storeForTopic, EnvelopeSettings envelope, ObjectEncryption encryption, FlushPolicy flushPolicy,
                   LogOffsets sourceOffsets, BackupIdentity identity, Clock clock, Path spillDir, long memoryCapBytes) {
        this.storeForTopic = storeForTopic;
        this.envelope = envelope;
        this.encryption = encryption;
        this.flushPolicy = flushPolicy;
        this.sourceOffsets = sourceOffsets;
        this.identity = identity;
        this.clock = clock;
        this.spillDir = spillDir;
        this.memoryCapBytes = memoryCapBytes;
    }

    @Override
    public Map<TopicPartition, SnapshotWriter> open(Collection<TopicPartition> partitions) {
        Map<TopicPartition, SnapshotChain> chains = new HashMap<>();
        for (TopicPartition tp : partitions) {
            Store store = storeForTopic.apply(tp.topic());
            PositionInputs.removeTemporaryFiles(store, tp);
            SnapshotReader reader = new SnapshotReader(store, envelope, encryption.keys());
            SnapshotChain chain = reader.list(tp.partition());
            chain.newest().ifPresent(newest -> {
                try (CheckedSnapshot s = reader.open(tp.partition(), newest, tp.topic(), partitionSpillDir(tp))) {
                    s.checkAll();
                }
            });
            chains.put(tp, chain);
        }
        Map<TopicPartition, OptionalLong> nexts = new HashMap<>();
        chains.forEach((tp, c) -> nexts.put(tp, c.nextOffset()));
        identity.verify(nexts); // before anything is written: a chain continues only from its own topic
        PositionInputs source = PositionInputs.read(sourceOffsets, partitions);

        Map<TopicPartition, SnapshotWriter> writers = new HashMap<>();
        for (TopicPartition tp : partitions) {
            Store store = storeForTopic.apply(tp.topic());
            SnapshotChain chain = chains.get(tp);
            String location = store.location(tp.partition());
            long next = source.next(tp, location, chain.nextOffset());
            log.info("starting snapshots of {} (compaction=log): destination {}, {} snapshot(s), newest {}, resolved next offset {}"
                            + " (source log start {}, high watermark {})", tp, location, chain.objects().size(),
                    chain.newest().map(ObjectName::toString).orElse("none"), next, source.logStart(tp), source.highWatermark(tp));
            SnapshotReader reader = new SnapshotReader(store, envelope, encryption.keys());
            writers.put(tp, new SnapshotWriter(store, tp.topic(), tp.partition(), envelope, new ParquetCodec(envelope, encryption), reader,
                    flushPolicy, clock, chain, next, partitionSpillDir(tp), memoryCapBytes));
        }
        return writers;
    }

    private Path partitionSpillDir(TopicPartition tp) {
        return spillDir.resolve(tp.topic() + "-" + tp.partition());
    }
}
