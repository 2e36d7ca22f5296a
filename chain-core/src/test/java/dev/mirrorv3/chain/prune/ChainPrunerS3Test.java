package dev.mirrorv3.chain.prune;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.crypto.KeyRing;
import dev.mirrorv3.chain.crypto.ObjectEncryption;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EnvelopeCodecs;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.envelope.ParquetCodec;
import dev.mirrorv3.chain.envelope.TimestampType;
import dev.mirrorv3.chain.manifest.ChainHead;
import dev.mirrorv3.chain.manifest.ChainStart;
import dev.mirrorv3.chain.meta.GroupSnapshot;
import dev.mirrorv3.chain.meta.MetaName;
import dev.mirrorv3.chain.meta.MetaSnapshots;
import dev.mirrorv3.chain.meta.TopicSnapshot;
import dev.mirrorv3.chain.read.ChainReader;
import dev.mirrorv3.chain.snapshot.SnapshotReader;
import dev.mirrorv3.chain.snapshot.SnapshotWriter;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.chain.store.StoreFactory;
import dev.mirrorv3.chain.testkit.FourObjectChain;
import dev.mirrorv3.chain.testkit.LeastPrivilegeS3Bucket;
import dev.mirrorv3.chain.write.FlushPolicy;
import dev.mirrorv3.chain.write.FlushTrigger;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Prune on S3Proxy with the three identities: an encrypted chain written by the write identity, pruned by the prune
 * identity, read back by the read identity from its new start; and the same for the _meta/ snapshots and an encrypted
 * compaction=log snapshot series.
 */
class ChainPrunerS3Test {
    static final String BUCKET = "backups";
    static final EnvelopeSettings SETTINGS = EnvelopeSettings.parquetBytes();
    static final KeyRing KEYS = KeyRing.of("test keys", Map.of("k1", key()));

    @RegisterExtension
    static final LeastPrivilegeS3Bucket S3 = new LeastPrivilegeS3Bucket(BUCKET);

    static byte[] key() {
        byte[] k = new byte[32];
        for (int i = 0; i < k.length; i++) {
            k[i] = (byte) (7 + i * 3);
        }
        return k;
    }

    static Map<String, String> settings() {
        return S3.settings("prune");
    }

    @Test
    void anEncryptedChainIsPrunedWithThePruneIdentityAndReadFromItsNewStart() {
        List<BackupRecord> all;
        try (Store writer = StoreFactory.open(settings(), "orders")) {
            all = FourObjectChain.write(writer, "orders", "k1", (byte) 2,
                    records -> EnvelopeCodecs.forSettings(SETTINGS, new ObjectEncryption(KEYS, "k1")).encode(records));
        }
        try (Store prune = StoreFactory.openForPrune(settings(), "orders")) {
            PartitionPrune done = new ChainPruner(prune, new ChainReader(prune, SETTINGS, KEYS), "orders")
                    .prune(0, Instant.ofEpochMilli(1_000_150), false);
            assertThat(done.removed()).extracting(r -> r.name().from()).containsExactly(0L);
            assertThat(done.removed().get(0).bytes()).isPositive();
            assertThat(done.keptObjects()).isEqualTo(3);
        }
        try (Store reader = StoreFactory.open(settings(), "orders")) {
            assertThat(ChainStart.recordedByStartRecords(reader, 0)).hasValue(100);
            ChainReader chains = new ChainReader(reader, SETTINGS, KEYS);
            List<BackupRecord> left = new ArrayList<>();
            for (ObjectName o : chains.listChain(0, OptionalLong.empty()).objects()) {
                left.addAll(chains.read(0, o, "orders").records());
            }
            assertThat(left).containsExactlyElementsOf(all.subList(100, 400));
            assertThat(chains.head(0).nextOffset()).as("the sink's open accepts it").hasValue(400);
        }
    }

    @Test
    void encryptedMetaSnapshotsArePrunedWithThePruneIdentityAndWhatARestoreAtTheCutTakesStays() {
        try (Store writer = StoreFactory.open(settings(), "meta-orders")) {
            MetaSnapshots meta = new MetaSnapshots(writer, new ObjectEncryption(KEYS, "k1"));
            for (long t : new long[] {1_000, 2_000, 3_000}) {
                meta.writeTopic(new TopicSnapshot(t, "orders", "AbCdEfGhIjKlMnOpQrStUv", 1, 3, Map.of()));
                meta.writeGroups(new GroupSnapshot(t, "orders", "AbCdEfGhIjKlMnOpQrStUv", Map.of(0, t),
                        Map.of("billing", Map.of(0, new GroupSnapshot.CommittedOffset(t, "")))));
            }
        }
        try (Store prune = StoreFactory.openForPrune(settings(), "meta-orders")) {
            MetaPrune done = new MetaPruner(prune, ObjectEncryption.readOnly(KEYS)).prune(Instant.ofEpochMilli(2_500), false);
            assertThat(done.removed()).extracting(r -> r.dir() + "/" + r.name()).containsExactly(
                    "_meta/topic/00000000000000001000.k-k1.json", "_meta/groups/00000000000000001000.k-k1.json");
            assertThat(done.removed()).allMatch(r -> r.bytes() > 0);
        }
        try (Store reader = StoreFactory.open(settings(), "meta-orders")) {
            MetaSnapshots meta = new MetaSnapshots(reader, ObjectEncryption.readOnly(KEYS));
            assertThat(meta.topicNames()).extracting(MetaName::timeMs).containsExactly(2_000L, 3_000L);
            assertThat(meta.groupsOfBackup(t -> t <= 2_500, g -> true).chosen()).get()
                    .satisfies(g -> assertThat(g.snapshot().timeMs()).isEqualTo(2_000));
        }
    }

    @Test
    void anEncryptedSnapshotSeriesIsPrunedWithThePruneIdentityAndItsNewestStays(@TempDir Path spill) {
        List<ObjectName> written = new ArrayList<>();
        try (Store writer = StoreFactory.open(settings(), "kv")) {
            SnapshotWriter w = new SnapshotWriter(writer, "kv", 0, new SnapshotWriter.Settings(SETTINGS,
                    new ParquetCodec(SETTINGS, new ObjectEncryption(KEYS, "k1")), new SnapshotReader(writer, SETTINGS, KEYS),
                    new FlushPolicy(Long.MAX_VALUE, Long.MAX_VALUE, 3_600_000), Clock.systemUTC(), 1 << 20),
                    ChainHead.empty(writer.location(0)), 0, spill);
            for (long o = 0; o < 3; o++) {
                w.append(new BackupRecord("kv", 0, o, 1_000 * (o + 1), TimestampType.CREATE_TIME, new byte[] {(byte) o}, new byte[] {1},
                        List.of()));
                written.add(w.flush(FlushTrigger.TIME).orElseThrow().name());
            }
        }
        try (Store prune = StoreFactory.openForPrune(settings(), "kv")) {
            PartitionPrune done = new SnapshotPruner(prune, new SnapshotReader(prune, SETTINGS, KEYS))
                    .prune(0, Instant.ofEpochMilli(Long.MAX_VALUE), false);
            assertThat(done.removed()).extracting(PartitionPrune.Removed::name).containsExactly(written.get(0), written.get(1));
        }
        try (Store reader = StoreFactory.open(settings(), "kv")) {
            SnapshotReader snapshots = new SnapshotReader(reader, SETTINGS, KEYS);
            assertThat(snapshots.list(0).objects()).as("the newest stays").containsExactly(written.get(2));
            assertThat(snapshots.keys(0, written.get(2))).as("the whole state, readable with the read identity").isEqualTo(3);
        }
    }
}
