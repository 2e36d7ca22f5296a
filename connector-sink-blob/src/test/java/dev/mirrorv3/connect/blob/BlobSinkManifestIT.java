package dev.mirrorv3.connect.blob;

import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.awaitChainNext;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.produceVaried;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import dev.mirrorv3.chain.manifest.ChainHead;
import dev.mirrorv3.chain.manifest.ChainListing;
import dev.mirrorv3.chain.manifest.Manifest;
import dev.mirrorv3.chain.manifest.ManifestCodec;
import dev.mirrorv3.chain.manifest.ManifestName;
import dev.mirrorv3.chain.manifest.ManifestTrail;
import dev.mirrorv3.chain.manifest.StoredManifest;
import dev.mirrorv3.chain.store.Store;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The blob sink's manifests with a real worker, on the filesystem and on S3 (docs/blob-sink.md, "Chain manifests"): a chain
 * written before manifests is opened from a full listing and given one at once; every object written since is recorded
 * with its size and SHA-256 when the partition closes; objects left without a manifest by a task that could not write it
 * (as a crash between an object and its manifest leaves them) are covered as a range by the next task, which then records
 * its own.
 */
class BlobSinkManifestIT extends BlobSinkWorkerBase {
    private static final Duration WAIT = Duration.ofSeconds(90);

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void aChainWithoutManifestsIsGivenOneAndEveryObjectSinceIsRecordedAcrossAMissedManifest(TestDestination d) {
        String topic = "manifests-" + d;
        cluster.kafka().createTopic(topic, 1);
        Faults faults = Faults.forDestination(topic);
        Map<String, String> config = d.config(FaultInjectingBlobSinkConnector.class.getName(), topic, cluster.bootstrapServers());
        config.put("flush.max.records", "10");
        config.put("flush.max.time.ms", "500");

        // A chain as a version without manifests leaves it: three objects, no manifest.
        faults.failManifestCreates.set(true);
        run(d, topic, config, 30, 1);
        assertThat(manifests(d, topic)).as("the premise: no manifest").isEmpty();

        // Opened from a full listing, and given one at once: the range, without a SHA-256 per object; then its own objects.
        faults.failManifestCreates.set(false);
        run(d, topic, config, 20, 2);
        ManifestTrail trail = trail(d, topic);
        assertThat(trail.manifests()).extracting(StoredManifest::name).containsExactly(new ManifestName(0, 29), new ManifestName(30, 49));
        assertThat(trail.manifests().get(0).manifest().recorded()).isFalse();
        assertRecordedAsStored(d, topic, trail.manifests().get(1), 2);

        // A task that could not write its manifest (the store refused it; a worker that dies between an object and its
        // manifest leaves the same): the next task covers those objects as a range, without reading them, then its own.
        faults.failManifestCreates.set(true);
        run(d, topic, config, 20, 3);
        assertThat(manifests(d, topic)).as("the premise: the objects of 50-69 have no manifest").hasSize(2);
        faults.failManifestCreates.set(false);
        run(d, topic, config, 10, 4);
        trail = trail(d, topic);
        assertThat(trail.manifests()).extracting(StoredManifest::name)
                .containsExactly(new ManifestName(0, 29), new ManifestName(30, 49), new ManifestName(50, 69), new ManifestName(70, 79));
        assertThat(trail.manifests().get(2).manifest().recorded()).isFalse();
        assertThat(trail.manifests().get(2).manifest().last()).isEqualTo(ObjectName.plain(60, 69, EnvelopeFormat.PARQUET));
        assertRecordedAsStored(d, topic, trail.manifests().get(3), 1);
        assertThat(trail.strays()).isEmpty();
        try (Store store = d.store(topic)) {
            ChainHead head = new ChainListing(store, 0, Manifest.Kind.CHAIN).head(EnvelopeFormat.PARQUET);
            assertThat(head.after()).as("the next open lists nothing the manifests cover").isEmpty();
            assertThat(head.last()).contains(ObjectName.plain(70, 79, EnvelopeFormat.PARQUET));
        }
        BlobSinkTestSupport.assertBackupComplete(cluster, d.stores(), topic, topic, 1, WAIT);
    }

    /** Produces {@code records} more, runs the connector until its chain holds them, then deletes it (its partitions close). */
    private static void run(TestDestination d, String topic, Map<String, String> config, int records, long seed) {
        long before = BlobSinkTestSupport.chain(d.stores(), topic, 0, PARQUET).nextOffset().orElse(0);
        produceVaried(cluster.bootstrapServers(), topic, 1, records, seed);
        cluster.deploy(topic, config);
        awaitChainNext(cluster, d.stores(), topic, PARQUET, Map.of(0, before + records), WAIT);
        cluster.delete(topic);
        Awaitility.await(topic + "'s task gone").atMost(WAIT).until(() -> !cluster.connect().connectors().contains(topic));
    }

    private static List<String> manifests(TestDestination d, String name) {
        try (Store store = d.store(name)) {
            return store.listBeside(ManifestName.dir(0));
        }
    }

    private static ManifestTrail trail(TestDestination d, String name) {
        try (Store store = d.store(name)) {
            return Awaitility.await("the manifests of the closed partition").atMost(WAIT).ignoreExceptions()
                    .until(() -> ManifestTrail.read(new ChainListing(store, 0, Manifest.Kind.CHAIN)), t -> t.strays().isEmpty());
        }
    }

    /** Each object the manifest records is stored with the recorded size and SHA-256. */
    private static void assertRecordedAsStored(TestDestination d, String name, StoredManifest m, int objects) {
        assertThat(m.manifest().objects()).hasSize(objects);
        for (Manifest.Entry e : m.manifest().objects()) {
            byte[] stored = d.read(name, 0, e.name().fileName());
            assertThat(e.sha256()).as(e.name().toString()).isEqualTo(ManifestCodec.sha256(stored));
            assertThat(e.size()).isEqualTo(stored.length);
        }
    }
}
