package dev.mirrorv3.connect.blob;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.TemporaryFiles;
import dev.mirrorv3.chain.crypto.ObjectEncryption;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EncodeMemory;
import dev.mirrorv3.chain.envelope.EnvelopeCodecs;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.envelope.TimestampType;
import dev.mirrorv3.chain.manifest.ChainListing;
import dev.mirrorv3.chain.manifest.Manifest;
import dev.mirrorv3.chain.manifest.ManifestName;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.chain.store.StoreRequests;
import dev.mirrorv3.chain.write.ChainWriter;
import dev.mirrorv3.chain.write.FlushPolicy;
import dev.mirrorv3.chain.write.FlushTrigger;
import dev.mirrorv3.kafka.LogOffsets;
import dev.mirrorv3.kafka.PerPartition;
import dev.mirrorv3.kafka.SourceTopicCheck;
import dev.mirrorv3.testsupport.MutableClock;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.MockAdminClient;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opening a partition reads its directory at most once on a filesystem, where a directory read costs as much as the chain
 * is long (no index: "list from a name" reads every entry): the temporary files' removal, the chain's end after its newest
 * manifest, the identity and position checks share that one read (docs/blob-sink.md, "Chain manifests"). The directory
 * reads are counted as the store counts them (a LIST), for the requests that name the partition.
 */
class PartitionOpenListingTest {
    private static final EnvelopeSettings SETTINGS = EnvelopeSettings.parquetBytes();
    private static final String TOPIC = "orders";
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    @TempDir
    Path root;

    private final MutableClock clock = new MutableClock();

    private static BackupRecord record(long offset) {
        return new BackupRecord(TOPIC, 0, offset, 1000L + offset, TimestampType.CREATE_TIME, null, new byte[] {(byte) offset},
                List.of());
    }

    /** A chain of {@code objects} objects of partition 0, with a manifest of them when asked, and a writer's leftover. */
    private void chain(FilesystemStore store, int objects, boolean manifest) throws Exception {
        ChainListing listing = new ChainListing(store, 0, Manifest.Kind.CHAIN);
        ChainWriter writer = new ChainWriter(store, 0, EnvelopeCodecs.forSettings(SETTINGS), new FlushPolicy(1, 1_000_000, 1000),
                clock, listing.head(SETTINGS.format()), 0);
        for (long o = 0; o < objects; o++) {
            writer.append(record(o));
            writer.flush(FlushTrigger.RECORDS);
        }
        if (manifest) {
            writer.manifests().writeWaiting();
        }
        Files.write(store.partitionDir(0).resolve(TemporaryFiles.temporaryNameFor("00000000000000000099-00000000000000000099.parquet")),
                new byte[] {1});
    }

    /** The store's directory reads (LIST) made by requests that name a partition, whatever method made them. */
    private static final class PartitionLists {
        long count;

        Store around(FilesystemStore store) {
            return (Store) Proxy.newProxyInstance(Store.class.getClassLoader(), new Class<?>[] {Store.class}, (proxy, method, args) -> {
                long before = store.requests().count(StoreRequests.Operation.LIST);
                try {
                    return method.invoke(store, args);
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                } finally {
                    if (method.getParameterCount() > 0 && method.getParameterTypes()[0] == int.class) {
                        count += store.requests().count(StoreRequests.Operation.LIST) - before;
                    }
                }
            });
        }
    }

    private PerPartition<ChainWriter> open(Store store) {
        MockAdminClient admin = MockAdminClient.create().numBrokers(1).build();
        Node node = admin.brokers().get(0);
        admin.addTopic(false, TOPIC, List.of(new TopicPartitionInfo(0, node, List.of(node), List.of(node))), Map.of());
        TopicPartition tp = new TopicPartition(TOPIC, 0);
        admin.updateBeginningOffsets(Map.of(tp, 0L));
        admin.updateEndOffsets(Map.of(tp, 100L));
        KeysDirWatch keys = new KeysDirWatch(ObjectEncryption.none(), ObjectEncryption::none);
        IdentityChecks identity = new IdentityChecks(new BackupIdentity(t -> store, keys, admin, TIMEOUT, clock),
                new SourceTopicCheck(admin, TIMEOUT));
        DestinationSetup settings = new DestinationSetup(t -> store, SETTINGS, keys, new FlushPolicy(1, 1_000_000, 1000),
                new LogOffsets(admin, TIMEOUT), identity, clock, EncodeMemory.pooled(1), c -> c);
        return new ChainPositioner(settings).open(List.of(tp));
    }

    private void opensWithOneDirectoryRead(int objects, boolean manifest) throws Exception {
        FilesystemStore store = new FilesystemStore(root, "m-" + objects + "-" + manifest);
        chain(store, objects, manifest);
        assertThat(store.listBeside(ManifestName.dir(0))).as("the premise: manifests as asked").hasSize(manifest ? 1 : 0);
        PartitionLists lists = new PartitionLists();

        PerPartition<ChainWriter> opened = open(lists.around(store));

        assertThat(opened.failures()).isEmpty();
        ChainWriter writer = opened.results().get(new TopicPartition(TOPIC, 0));
        assertThat(writer.durableNext()).as("the chain's end found").isEqualTo(objects);
        assertThat(Files.list(store.partitionDir(0)).map(p -> p.getFileName().toString()).filter(TemporaryFiles::isTemporary))
                .as("the leftover temporary file removed").isEmpty();
        assertThat(lists.count).as("directory reads of the partition's directory to open it").isEqualTo(1);
    }

    @Test
    void openingAPartitionWithManifestsReadsItsDirectoryOnce() throws Exception {
        opensWithOneDirectoryRead(3, true);
    }

    @Test
    void openingAPartitionWithoutManifestsReadsItsDirectoryOnce() throws Exception {
        opensWithOneDirectoryRead(3, false);
    }
}
