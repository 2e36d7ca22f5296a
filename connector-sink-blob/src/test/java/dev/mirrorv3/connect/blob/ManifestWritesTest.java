package dev.mirrorv3.connect.blob;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EnvelopeCodecs;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.envelope.TimestampType;
import dev.mirrorv3.chain.manifest.ChainListing;
import dev.mirrorv3.chain.manifest.Manifest;
import dev.mirrorv3.chain.manifest.ManifestName;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.chain.write.ChainChangedException;
import dev.mirrorv3.chain.write.ChainWriter;
import dev.mirrorv3.chain.write.FlushPolicy;
import dev.mirrorv3.chain.write.FlushTrigger;
import dev.mirrorv3.chain.write.ManifestKeeper;
import dev.mirrorv3.chain.write.PartitionWriter;
import dev.mirrorv3.testsupport.MutableClock;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A due manifest that cannot be written because another writer's manifest (a zombie's) follows the newest is that
 * partition's failure, handed to the task to isolate (docs/blob-sink.md, "Chain manifests"), not thrown at the task; the
 * other partitions' manifests are written. (A transient failure is retried: BlobSinkManifestIT.)
 */
class ManifestWritesTest {
    private static final EnvelopeSettings SETTINGS = EnvelopeSettings.parquetBytes();
    private static final long RETRY_MS = 5_000;

    @TempDir
    Path root;

    private final MutableClock clock = new MutableClock();
    private final Map<TopicPartition, RuntimeException> failed = new LinkedHashMap<>();

    private static BackupRecord record(long offset) {
        return new BackupRecord("t", 0, offset, 1000L + offset, TimestampType.CREATE_TIME, null, new byte[] {(byte) offset}, List.of());
    }

    /** A writer of partition t-0 on {@code store} that committed one object, whose manifest is due a day later. */
    private BoundWriter<ChainWriter> writerWithADueManifest(FilesystemStore store, int partition) {
        return writerWithADueManifest(store, partition, new InlineCommits(clock, (t, r) -> { }));
    }

    private BoundWriter<ChainWriter> writerWithADueManifest(FilesystemStore store, int partition,
            CommitStrategy<PartitionWriter> commits) {
        TopicPartition tp = new TopicPartition("t", partition);
        ChainListing listing = new ChainListing(store, partition, Manifest.Kind.CHAIN);
        ChainWriter writer = new ChainWriter(store, partition, EnvelopeCodecs.forSettings(SETTINGS), new FlushPolicy(1, 1_000_000, 1000),
                clock, listing.head(SETTINGS.format()), 0);
        writer.append(record(0));
        writer.flush(FlushTrigger.RECORDS);
        clock.advance(ManifestKeeper.MAX_AGE.toMillis());
        assertThat(writer.manifests().due(clock.millis())).as("the premise: a manifest is due").isTrue();
        return new BoundWriter<>(tp, writer, WriterKind.CHAINS, commits, null);
    }

    @Test
    void aZombiesManifestAfterTheNewestIsThePartitionsFailureTheOtherPartitionsManifestIsWritten() {
        FilesystemStore store = new FilesystemStore(root, "m");
        BoundWriter<ChainWriter> live = writerWithADueManifest(store, 0);
        BoundWriter<ChainWriter> other = writerWithADueManifest(store, 1);
        String zombies = new ManifestName(0, 5).fileName();
        store.createBeside(ManifestName.dir(0), zombies, "{}".getBytes()); // a zombie's manifest, after this task's newest (none)

        new ManifestWrites(RETRY_MS).writeDue(List.of(live, other), clock.millis(), failed::put);

        assertThat(failed).containsOnlyKeys(live.partition());
        assertThat(failed.get(live.partition())).isInstanceOf(ChainChangedException.class)
                .hasMessageContaining(store.besideLocation(ManifestName.dir(0)) + "/" + zombies + " was not written by this task");
        assertThat(store.listBeside(ManifestName.dir(1))).as("the other partition's manifest")
                .containsExactly(new ManifestName(0, 0).fileName());
        assertThat(other.writer().manifests().anyWaiting()).isFalse();
    }

    /**
     * A busy partition has a commit in flight almost all the time (the next object is encoded while one uploads): its due
     * manifest is written meanwhile, since it records only objects durable already, instead of waiting for an idle moment.
     */
    @Test
    void aDueManifestIsWrittenWhileACommitOfItsPartitionRuns() {
        FilesystemStore store = new FilesystemStore(root, "m");
        InlineCommits inline = new InlineCommits(clock, (t, r) -> { });
        @SuppressWarnings("unchecked")
        CommitStrategy<PartitionWriter> running = (CommitStrategy<PartitionWriter>) Proxy.newProxyInstance(
                CommitStrategy.class.getClassLoader(), new Class<?>[] {CommitStrategy.class},
                (proxy, method, args) -> "running".equals(method.getName()) ? Boolean.TRUE : method.invoke(inline, args));
        BoundWriter<ChainWriter> busy = writerWithADueManifest(store, 0, running);
        assertThat(busy.running()).as("the premise: a commit of the partition runs").isTrue();

        new ManifestWrites(RETRY_MS).writeDue(List.of(busy), clock.millis(), failed::put);

        assertThat(failed).isEmpty();
        assertThat(store.listBeside(ManifestName.dir(0))).containsExactly(new ManifestName(0, 0).fileName());
        assertThat(busy.writer().manifests().anyWaiting()).isFalse();
    }

    /**
     * Objects found after the newest manifest when a partition opens are covered at once, as a range; the objects committed
     * since wait for their own manifest (1,000 of them, a day, or the close) instead of going into a small one beside it.
     */
    @Test
    void theRangeFoundAtOpenIsWrittenAloneTheObjectsCommittedSinceWaitForTheirOwnManifest() {
        FilesystemStore store = new FilesystemStore(root, "m");
        FlushPolicy oneRecord = new FlushPolicy(1, 1_000_000, 1000);
        ChainWriter before = new ChainWriter(store, 0, EnvelopeCodecs.forSettings(SETTINGS), oneRecord, clock,
                new ChainListing(store, 0, Manifest.Kind.CHAIN).head(SETTINGS.format()), 0);
        before.append(record(0));
        before.flush(FlushTrigger.RECORDS); // an object no manifest covers, as a task that could not write one leaves it
        ChainWriter writer = new ChainWriter(store, 0, EnvelopeCodecs.forSettings(SETTINGS), oneRecord, clock,
                new ChainListing(store, 0, Manifest.Kind.CHAIN).head(SETTINGS.format()), 1);
        writer.append(record(1));
        writer.flush(FlushTrigger.RECORDS);
        BoundWriter<ChainWriter> w = new BoundWriter<>(new TopicPartition("t", 0), writer, WriterKind.CHAINS,
                new InlineCommits(clock, (t, r) -> { }), null);

        new ManifestWrites(RETRY_MS).writeDue(List.of(w), clock.millis(), failed::put);

        assertThat(failed).isEmpty();
        assertThat(store.listBeside(ManifestName.dir(0))).containsExactly(new ManifestName(0, 0).fileName());
        assertThat(writer.manifests().anyWaiting()).as("the object committed since waits").isTrue();
        new ManifestWrites(RETRY_MS).writeOnClose(w);
        assertThat(store.listBeside(ManifestName.dir(0))).containsExactly(new ManifestName(0, 0).fileName(),
                new ManifestName(1, 1).fileName());
    }
}
