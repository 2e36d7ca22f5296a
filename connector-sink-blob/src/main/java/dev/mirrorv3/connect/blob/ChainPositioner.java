package dev.mirrorv3.connect.blob;

import dev.mirrorv3.chain.envelope.EnvelopeCodecs;
import dev.mirrorv3.chain.manifest.ChainHead;
import dev.mirrorv3.chain.read.ChainReader;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.chain.write.ChainWriter;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Resolves where each opened partition's chain continues (docs/design.md: the destination is the truth, the position rule): finds the
 * chain's end (its newest manifest and the objects listed after it, or the whole chain when it has no manifest yet), removing our
 * temporary files in that one listing, reads its last object back, and checks the position against the source's log-start offset
 * and high watermark. The chain is the position; nothing else is trusted.
 */
final class ChainPositioner extends DestinationPositioner<ChainHead, ChainWriter> {
    private static final Logger log = LoggerFactory.getLogger(ChainPositioner.class);

    ChainPositioner(DestinationSetup settings) {
        super(settings, ChainHead::nextOffset);
    }

    @Override
    ChainHead readBack(Store store, TopicPartition tp) {
        // Finding the chain's end fails on missing key ids.
        ChainReader reader = new ChainReader(store, settings.envelope(), settings.encryption().get().keys());
        ChainHead chain = reader.writersHead(tp.partition());
        // The tail object must be readable and match its name: a truncated or foreign last object stops us here.
        chain.last().ifPresent(last -> reader.read(tp.partition(), last, tp.topic()));
        return chain;
    }

    @Override
    ChainWriter continueAt(Store store, TopicPartition tp, ChainHead chain, long next, PositionInputs source) {
        log.info("starting mirror {}: destination {} chain: {}, last {}, position from {}, resolved next offset {}"
                        + " (source log start {}, high watermark {})", tp, store.location(tp.partition()), chain.describe(),
                chain.last().map(Object::toString).orElse("none"),
                chain.isEmpty() ? "the source's log start (empty chain)" : "the chain's end", next, source.logStart(tp),
                source.highWatermark(tp));
        return new ChainWriter(store, tp.partition(), settings.codecs().apply(EnvelopeCodecs.forSettings(settings.envelope(),
                settings.encryption().get(), settings.encodeMemory())), settings.flushPolicy(), settings.clock(), chain, next);
    }
}
