package dev.mirrorv3.connect.blob;

import dev.mirrorv3.chain.envelope.ParquetCodec;
import dev.mirrorv3.chain.manifest.ChainHead;
import dev.mirrorv3.chain.snapshot.CheckedSnapshot;
import dev.mirrorv3.chain.snapshot.SnapshotReader;
import dev.mirrorv3.chain.snapshot.SnapshotWriter;
import dev.mirrorv3.chain.store.Store;
import java.nio.file.Path;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Positions partitions backed up as snapshots (compaction=log): the newest snapshot is the position. On open it is read
 * back whole (streaming) and checked, so a truncated or foreign newest snapshot stops the task here; the partition
 * continues at its {@code to + 1}, with the chain's rules against the source: below the log-start offset is a lost
 * position, above the high watermark the destination is ahead.
 */
final class SnapshotPositioner extends DestinationPositioner<ChainHead, SnapshotWriter> {
    private static final Logger log = LoggerFactory.getLogger(SnapshotPositioner.class);

    private final Path spillDir;
    private final long memoryCapBytes;

    SnapshotPositioner(DestinationSetup settings, Path spillDir, long memoryCapBytes) {
        super(settings, ChainHead::nextOffset);
        this.spillDir = spillDir;
        this.memoryCapBytes = memoryCapBytes;
    }

    @Override
    ChainHead readBack(Store store, TopicPartition tp) {
        SnapshotReader reader = reader(store);
        ChainHead chain = reader.writersHead(tp.partition());
        chain.last().ifPresent(newest -> {
            try (CheckedSnapshot s = reader.open(tp.partition(), newest, tp.topic(), partitionSpillDir(tp))) {
                s.checkAll();
            }
        });
        return chain;
    }

    @Override
    SnapshotWriter continueAt(Store store, TopicPartition tp, ChainHead chain, long next, PositionInputs source) {
        log.info("starting snapshots of {} (compaction=log): destination {}, {}, newest {}, resolved next offset {}"
                        + " (source log start {}, high watermark {})", tp, store.location(tp.partition()), chain.describe(),
                chain.last().map(Object::toString).orElse("none"), next, source.logStart(tp), source.highWatermark(tp));
        SnapshotWriter.Settings writing = new SnapshotWriter.Settings(settings.envelope(),
                new ParquetCodec(settings.envelope(), settings.encryption().get()), reader(store), settings.flushPolicy(), settings.clock(),
                memoryCapBytes);
        return new SnapshotWriter(store, tp.topic(), tp.partition(), writing, chain, next, partitionSpillDir(tp));
    }

    private SnapshotReader reader(Store store) {
        return new SnapshotReader(store, settings.envelope(), settings.encryption().get().keys());
    }

    private Path partitionSpillDir(TopicPartition tp) {
        return spillDir.resolve(tp.topic() + "-" + tp.partition());
    }
}
