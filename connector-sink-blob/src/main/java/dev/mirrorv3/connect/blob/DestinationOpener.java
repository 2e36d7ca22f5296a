package dev.mirrorv3.connect.blob;

import dev.mirrorv3.chain.store.Store;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Function;
import org.apache.kafka.common.TopicPartition;

/**
 * The opening sequence both kinds of destination share (docs/design.md: the destination is the truth, the position
 * rule): per partition remove our temporary files and read the destination back; check the backups' identity before
 * anything is written; read the source's log start and high watermark once; then resolve each partition's next offset
 * with the position rule and open its writer. A subclass says how its destination is read back and what writer
 * continues it.
 *
 * @param <D> a partition's destination as read back (a chain, or a snapshot series)
 * @param <W> the writer that continues it
 */
abstract class DestinationOpener<D, W> implements WriterOpener<W> {
    protected final OpenerSettings settings;
    /** The destination's next offset; empty when it holds nothing. */
    private final Function<D, OptionalLong> nextOffset;

    DestinationOpener(OpenerSettings settings, Function<D, OptionalLong> nextOffset) {
        this.settings = settings;
        this.nextOffset = nextOffset;
    }

    @Override
    public final Map<TopicPartition, W> open(Collection<TopicPartition> partitions) {
        Map<TopicPartition, D> destinations = new HashMap<>();
        for (TopicPartition tp : partitions) {
            Store store = settings.storeForTopic().apply(tp.topic());
            PositionInputs.removeTemporaryFiles(store, tp);
            destinations.put(tp, readBack(store, tp));
        }
        Map<TopicPartition, OptionalLong> nexts = new HashMap<>();
        destinations.forEach((tp, d) -> nexts.put(tp, nextOffset.apply(d)));
        // Before anything is written: a chain continues only from its own topic, and its records are checked again before each commit.
        settings.identity().opened(nexts, tp -> settings.storeForTopic().apply(tp.topic()).location(tp.partition()));
        PositionInputs source = PositionInputs.read(settings.sourceOffsets(), partitions);

        Map<TopicPartition, W> writers = new HashMap<>();
        for (TopicPartition tp : partitions) {
            Store store = settings.storeForTopic().apply(tp.topic());
            D destination = destinations.get(tp);
            String location = store.location(tp.partition());
            long next = source.next(tp, location, nextOffset.apply(destination));
            writers.put(tp, continueAt(store, tp, destination, next, source));
        }
        return writers;
    }

    /** Lists and validates the partition's destination and reads its newest object back: a bad one stops the task here. */
    abstract D readBack(Store store, TopicPartition tp);

    /** Logs where the partition starts and opens the writer that continues {@code destination} at {@code next}. */
    abstract W continueAt(Store store, TopicPartition tp, D destination, long next, PositionInputs source);
}
