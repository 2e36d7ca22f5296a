package dev.mirrorv3.connect.blob;

import dev.mirrorv3.chain.crypto.MissingKeysException;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.kafka.PerPartition;
import dev.mirrorv3.kafka.connect.ConnectFailures;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Function;
import org.apache.kafka.common.TopicPartition;

/**
 * The opening sequence both kinds of destination share (docs/design.md: the destination is the truth, the position
 * rule): per partition read the destination back, our temporary files removed in the same listing (one directory read
 * on a filesystem); check the backups' identity before anything is written; read the source's log start and high
 * watermark once; then resolve each partition's next offset with the position rule and open its writer. A subclass
 * says how its destination is read back and what writer continues it.
 *
 * @param <D> a partition's destination as read back (a chain, or a snapshot series)
 * @param <W> the writer that continues it
 */
abstract class DestinationPositioner<D, W> implements Positioner<W> {
    protected final DestinationSetup settings;
    /** The destination's next offset; empty when it holds nothing. */
    private final Function<D, OptionalLong> nextOffset;

    DestinationPositioner(DestinationSetup settings, Function<D, OptionalLong> nextOffset) {
        this.settings = settings;
        this.nextOffset = nextOffset;
    }

    /**
     * Opens each partition on its own: one whose destination cannot be read back, whose backup is another topic's or
     * whose position the rule refuses fails alone (its failure is returned), the others open. A transient failure is
     * thrown, and all are opened again after the backoff.
     */
    @Override
    public final PerPartition<W> open(Collection<TopicPartition> partitions) {
        PerPartition<D> destinations = new PerPartition<>(ConnectFailures.KINDS);
        for (TopicPartition tp : partitions) {
            destinations.attempt(tp, () -> {
                Store store = settings.storeForTopic().apply(tp.topic());
                try {
                    return readBack(store, tp);
                } catch (MissingKeysException e) {
                    if (!settings.encryption().reload(e.missing())) {
                        throw e; // clears by itself once the key file is there: tried again after a backoff
                    }
                    return readBack(store, tp);
                }
            });
        }
        Map<TopicPartition, OptionalLong> nexts = new HashMap<>();
        destinations.results().forEach((tp, d) -> nexts.put(tp, nextOffset.apply(d)));
        // Before anything is written: a chain continues only from its own topic (a failure is each of that topic's
        // partitions'), and its records are checked again before each commit.
        settings.identity().opened(nexts, destinations, tp -> settings.storeForTopic().apply(tp.topic()).location(tp.partition()));
        if (destinations.results().isEmpty()) {
            return destinations.map((tp, d) -> null);
        }
        PositionInputs source = PositionInputs.read(settings.sourceOffsets(), destinations.results().keySet());
        return destinations.map((tp, destination) -> {
            Store store = settings.storeForTopic().apply(tp.topic());
            long next = source.next(tp, store.location(tp.partition()), nextOffset.apply(destination));
            return continueAt(store, tp, destination, next, source);
        });
    }

    /** Lists and validates the partition's destination and reads its newest object back: a bad one stops the task here. */
    abstract D readBack(Store store, TopicPartition tp);

    /** Logs where the partition starts and opens the writer that continues {@code destination} at {@code next}. */
    abstract W continueAt(Store store, TopicPartition tp, D destination, long next, PositionInputs source);
}
