package dev.mirrorv3.connect.blob;

import dev.mirrorv3.chain.Chain;
import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.crypto.ObjectEncryption;
import dev.mirrorv3.chain.envelope.EnvelopeCodecs;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.read.ChainReader;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.chain.write.ChainWriter;
import dev.mirrorv3.chain.write.FlushPolicy;
import dev.mirrorv3.kafka.LogOffsets;
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
 * Resolves where each opened partition's chain continues (docs/design.md: the destination is the truth, the position rule): removes our
 * temporary files, lists and validates the chain, reads its last object back, and checks the position against the source's log-start
 * offset and high watermark. The chain is the position; nothing else is trusted.
 */
final class PartitionOpener implements WriterOpener<ChainWriter> {
    private static final Logger log = LoggerFactory.getLogger(PartitionOpener.class);

    private final Function<String, Store> storeForTopic;
    private final EnvelopeSettings envelope;
    private final ObjectEncryption encryption;
    private final FlushPolicy flushPolicy;
    private final LogOffsets sourceOffsets;
    private final BackupIdentity identity;
    private final Clock clock;

    PartitionOpener(Function<String, Store> storeForTopic, EnvelopeSettings envelope, ObjectEncryption encryption,
                    FlushPolicy flushPolicy, LogOffsets sourceOffsets, BackupIdentity identity, Clock clock) {
        this.storeForTopic = storeForTopic;
        this.envelope = envelope;
        this.encryption = encryption;
        this.flushPolicy = flushPolicy;
        this.sourceOffsets = sourceOffsets;
        this.identity = identity;
        this.clock = clock;
    }

    @Override
    public Map<TopicPartition, ChainWriter> open(Collection<TopicPartition> partitions) {
        Map<TopicPartition, Chain> chains = new HashMap<>();
        for (TopicPartition tp : partitions) {
            Store store = storeForTopic.apply(tp.topic());
            PositionInputs.removeTemporaryFiles(store, tp);
            ChainReader reader = new ChainReader(store, envelope, encryption.keys()); // lists fail on missing key ids
            Chain chain = reader.listChain(tp.partition(), OptionalLong.empty());
            // The tail object must be readable and match its name: a truncated or foreign last object stops us here.
            chain.last().ifPresent(last -> reader.read(tp.partition(), last, tp.topic()));
            chains.put(tp, chain);
        }
        Map<TopicPartition, OptionalLong> nexts = new HashMap<>();
        chains.forEach((tp, c) -> nexts.put(tp, c.nextOffset()));
        identity.verify(nexts); // before anything is written: a chain continues only from its own topic
        PositionInputs source = PositionInputs.read(sourceOffsets, partitions);

        Map<TopicPartition, ChainWriter> writers = new HashMap<>();
        for (TopicPartition tp : partitions) {
            Store store = storeForTopic.apply(tp.topic());
            Chain chain = chains.get(tp);
            String location = store.location(tp.partition());
            long next = source.next(tp, location, chain.nextOffset());
            log.info("starting mirror {}: destination {} chain {} objects, last {}, position from {}, resolved next offset {}"
                            + " (source log start {}, high watermark {})", tp, location, chain.objects().size(),
                    chain.last().map(ObjectName::toString).orElse("none"),
                    chain.isEmpty() ? "the source's log start (empty chain)" : "the chain's end", next, source.logStart(tp),
                    source.highWatermark(tp));
            writers.put(tp, new ChainWriter(store, tp.partition(), EnvelopeCodecs.forSettings(envelope, encryption), flushPolicy,
                    clock, chain, next));
        }
        return writers;
    }
}
