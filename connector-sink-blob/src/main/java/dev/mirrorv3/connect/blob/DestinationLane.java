package dev.mirrorv3.connect.blob;

import dev.mirrorv3.chain.crypto.KeysDirException;
import dev.mirrorv3.chain.crypto.ObjectEncryption;
import dev.mirrorv3.chain.envelope.EncodeMemory;
import dev.mirrorv3.chain.envelope.EnvelopeCodec;
import dev.mirrorv3.chain.envelope.SharedEncodings;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.chain.store.StoreRequests;
import dev.mirrorv3.kafka.LogOffsets;
import dev.mirrorv3.kafka.RetryPauses;
import dev.mirrorv3.kafka.SourceTopicCheck;
import dev.mirrorv3.kafka.config.DestinationSettings;
import java.time.Clock;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import java.util.function.UnaryOperator;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkTaskContext;

/**
 * Everything the task keeps for one destination: its settings (the task's, or one of a tee's views with its share of
 * buffer.max.bytes), its stores, metrics (tagged with the destination's name in a tee), metadata snapshots and source-lag
 * refresh, its write path ({@link PartitionWriters}) and the positioner that positions its partitions on its own chains.
 * A task has one; a tee ({@link TeeWriters}) one per destination.
 */
final class DestinationLane implements AutoCloseable {
    /** What every destination of a task shares. */
    record Shared(SinkTaskContext context, String connectorName, Clock clock, LogOffsets sourceOffsets,
                  BiFunction<BlobSinkConfig, String, Store> createStore, Consumer<RuntimeException> fatal,
                  SharedEncodings encodings) {
    }

    final DestinationSettings settings;
    final BlobSinkConfig config;
    final TaskStores stores;
    final BlobSinkMetrics metrics;
    final BackgroundPasses background;
    final PartitionWriters writers;
    final Positioner<BoundWriter<?>> positioner;
    final ObjectEncryption encryption;

    /**
     * @param retryPauses how a commit's transient failure holds its partition: the consumer's pause for a task's one
     *     destination, the tee's hold for one of several
     */
    DestinationLane(Shared shared, DestinationSettings settings, BlobSinkConfig config, RetryPauses retryPauses,
                    IntSupplier pausedForRetry) {
        this.settings = settings;
        this.config = config;
        String name = shared.connectorName();
        metrics = new BlobSinkMetrics(shared.context(), name, settings.teeName().orElse(null), pausedForRetry,
                BlobSinkMetrics.Cadence.of(config));
        // Each destination's store requests are its own series (tag destination in a tee), registered when a store opens.
        stores = new TaskStores(t -> shared.createStore().apply(config, settings.chainName(name, t)),
                t -> metrics.storeRequests(t, () -> requests(t)));
        try {
            encryption = config.encryption();
        } catch (KeysDirException e) {
            throw new ConnectException(settings.describe() + ": " + e.getMessage(), e);
        }
        MetaSnapshotter metaSnapshotter = config.metadataIntervalMs() > 0 || config.groupsIntervalMs() > 0
                ? new MetaSnapshotter(shared.sourceOffsets().admin(), stores::forSnapshotter, encryption, config.groupSelection(name),
                        config.adminTimeout(), shared.clock(), shared.fatal()::accept)
                        .schedule(config.metadataIntervalMs(), config.groupsIntervalMs())
                : null;
        background = new BackgroundPasses(config, name, shared.sourceOffsets(), metrics, metaSnapshotter, stores);
        KeysDirWatch keys = new KeysDirWatch(encryption, config::encryption);
        IdentityChecks identity = new IdentityChecks(new BackupIdentity(stores::forTopic, keys, shared.sourceOffsets().admin(),
                config.adminTimeout(), shared.clock()), new SourceTopicCheck(shared.sourceOffsets().admin(), config.adminTimeout()));
        writers = new PartitionWriters(config, name + settings.teeName().map(n -> "-" + n).orElse(""), shared.clock(), retryPauses,
                metrics, background.durableOffsets());
        // As many objects are encoded at once as there are flush threads (one on the task thread with flush.threads=0).
        // Only a tee's destinations share encodings; an encrypted object never is shared (its nonce is its own).
        UnaryOperator<EnvelopeCodec> codecs = settings.teeName().isEmpty() || encryption.encryptsNewObjects() || config.snapshots()
                ? UnaryOperator.identity() : shared.encodings().join(config.envelope());
        DestinationSetup opening = new DestinationSetup(stores::forTopic, config.envelope(), keys, config.flushPolicy(),
                shared.sourceOffsets(), identity, shared.clock(), EncodeMemory.pooled(Math.max(1, config.flushThreads())), codecs);
        SourceTopicCheck beforeCommits = identity.running();
        positioner = config.snapshots()
                ? writers.snapshots(new SnapshotPositioner(opening, config.spillDir(name), config.bufferMaxBytes()), beforeCommits)
                : writers.chains(new ChainPositioner(opening), beforeCommits);
    }

    private List<StoreRequests> requests(String topic) {
        return stores.requests(topic);
    }

    /** The destination in logs: "destination <name> (<type>)" in a tee, else "destination <type>". */
    String describe() {
        return "destination " + settings.teeName().map(n -> n + " (" + config.destinationType() + ")").orElse(config.destinationType());
    }

    /** Stops the commits, the background passes, the metrics and the stores, in that order. */
    @Override
    public void close() {
        writers.stop();
        background.close(); // before the admin client and the stores its passes use
        metrics.close();
        stores.close();
    }
}
