package dev.mirrorv3.chain.meta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mirrorv3.chain.ChainValidator;
import dev.mirrorv3.chain.TemporaryFiles;
import dev.mirrorv3.chain.crypto.KeyRing;
import dev.mirrorv3.chain.crypto.MissingKeysException;
import dev.mirrorv3.chain.crypto.ObjectEncryption;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import dev.mirrorv3.chain.meta.GroupSnapshot.CommittedOffset;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.chain.store.ObjectExistsException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MetaSnapshotsTest {
    private static final byte[] KEY_A = key(1);
    private static final byte[] KEY_B = key(2);

    @TempDir
    Path root;

    static byte[] key(int seed) {
        byte[] k = new byte[32];
        for (int i = 0; i < k.length; i++) {
            k[i] = (byte) (seed * 31 + i);
        }
        return k;
    }

    static TopicSnapshot topic(long time, String retention) {
        return new TopicSnapshot(time, "orders", "AbCdEfGhIjKlMnOpQrStUv", 3, 2,
                Map.of("cleanup.policy", "compact", "retention.ms", retention));
    }

    static GroupSnapshot groups(long time, long billingAt) {
        return new GroupSnapshot(time, "orders", Map.of(0, 120L, 1, 80L, 2, 0L), Map.of(
                "billing", Map.of(0, new CommittedOffset(billingAt, "meta"), 1, new CommittedOffset(75, null)),
                "audit", Map.of(2, new CommittedOffset(0, ""))));
    }

    @Test
    void namesAre20DigitTimesWithTheKeyIdWhenEncryptedAndParseStrictly() {
        assertThat(new MetaName(1_700_000_000_123L, null).fileName()).isEqualTo("00000001700000000123.json");
        assertThat(new MetaName(5, "k-1").fileName()).isEqualTo("00000000000000000005.k-k-1.json");
        assertThat(MetaName.parse("00000000000000000005.k-k-1.json")).contains(new MetaName(5, "k-1"));
        assertThat(MetaName.parse("5.json")).isEmpty();
        assertThat(MetaName.parse("00000000000000000005.json.tmp.x")).isEmpty();
        assertThat(MetaName.parse("99999999999999999999.json")).as("above Long.MAX_VALUE").isEmpty();
    }

    @Test
    void jsonCarriesAFormatVersionAndRoundTrips() {
        byte[] json = MetaCodec.encode(groups(10, 100));
        assertThat(new String(json, StandardCharsets.UTF_8)).startsWith("{\"format_version\":1,\"kind\":\"groups\",\"time_ms\":10,");
        assertThat(MetaCodec.decodeGroups(json, "x")).isEqualTo(groups(10, 100));
        assertThat(MetaCodec.decodeTopic(MetaCodec.encode(topic(7, "-1")), "x")).isEqualTo(topic(7, "-1"));
        // A later, additive field is ignored; a later format version is refused with what to do.
        String later = new String(MetaCodec.encode(topic(7, "-1")), StandardCharsets.UTF_8).replace("{\"format_version\":1,",
                "{\"format_version\":1,\"added_later\":[1],");
        assertThat(MetaCodec.decodeTopic(later.getBytes(StandardCharsets.UTF_8), "x")).isEqualTo(topic(7, "-1"));
        byte[] v2 = later.replace("\"format_version\":1", "\"format_version\":2").getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> MetaCodec.decodeTopic(v2, "s3://b/orders/_meta/topic/x.json"))
                .isInstanceOf(MetaFormatException.class)
                .hasMessageContaining("s3://b/orders/_meta/topic/x.json has format_version 2").hasMessageContaining("newer mirror-v3");
        assertThatThrownBy(() -> MetaCodec.decodeGroups(MetaCodec.encode(topic(7, "-1")), "y"))
                .isInstanceOf(MetaFormatException.class).hasMessageContaining("'topic' snapshot, not a 'groups' one");
    }

    @Test
    void writesBesideThePartitionsNeverOverwritesAndReadsTheNewestAtOrBeforeATime() throws Exception {
        FilesystemStore store = new FilesystemStore(root, "orders");
        MetaSnapshots meta = new MetaSnapshots(store, ObjectEncryption.none());
        assertThat(meta.newestGroups()).isEmpty();
        store.create(0, "00000000000000000000-00000000000000000009.parquet", new byte[] {1});
        meta.writeGroups(groups(1_000, 5));
        meta.writeGroups(groups(2_000, 6));
        meta.writeTopic(topic(1_500, "-1"));
        assertThatThrownBy(() -> meta.writeGroups(groups(2_000, 7))).isInstanceOf(ObjectExistsException.class);

        assertThat(Files.exists(root.resolve("orders/_meta/groups/00000000000000002000.json"))).isTrue();
        assertThat(meta.groupNames()).extracting(MetaName::timeMs).containsExactly(1_000L, 2_000L);
        assertThat(meta.newestGroups().orElseThrow().snapshot()).isEqualTo(groups(2_000, 6));
        assertThat(meta.newestGroups().orElseThrow().location())
                .isEqualTo(root.resolve("orders/_meta/groups/00000000000000002000.json").toString());
        assertThat(meta.newestGroupsAtOrBefore(1_999).orElseThrow().snapshot()).isEqualTo(groups(1_000, 5));
        assertThat(meta.newestGroupsAtOrBefore(999)).isEmpty();
        assertThat(meta.newestTopic().orElseThrow().snapshot()).isEqualTo(topic(1_500, "-1"));
        assertThat(meta.newestTopicAtOrBefore(1_499)).isEmpty();

        // The chain listing never sees _meta: it is not a partition, and partition 0 validates as before.
        assertThat(store.partitions()).containsExactly(0);
        assertThat(ChainValidator.validate(store.location(0), store.list(0), EnvelopeFormat.PARQUET, OptionalLong.empty())
                .objects()).hasSize(1);
    }

    @Test
    void aWriteInterruptedBeforeItsCommitLeavesNoSnapshotThatListingOrRestoreSees() throws Exception {
        FilesystemStore store = new FilesystemStore(root, "orders");
        MetaSnapshots meta = new MetaSnapshots(store, ObjectEncryption.none());
        meta.writeGroups(groups(1_000, 5));
        // A worker killed mid-write leaves its temporary file (half the bytes) and never links the final name.
        byte[] whole = MetaCodec.encode(groups(2_000, 6));
        Path dir = root.resolve("orders/_meta/groups");
        Files.write(dir.resolve(TemporaryFiles.temporaryNameFor("00000000000000002000.json")),
                java.util.Arrays.copyOf(whole, whole.length / 2));
        assertThat(meta.groupNames()).extracting(MetaName::timeMs).containsExactly(1_000L);
        assertThat(meta.newestGroups().orElseThrow().snapshot()).isEqualTo(groups(1_000, 5));
        meta.writeGroups(groups(2_000, 6)); // the restarted writer commits the same name
        assertThat(meta.newestGroups().orElseThrow().snapshot()).isEqualTo(groups(2_000, 6));
        // The restarted writer removes the leftover (the blob sink's snapshotter does at start).
        assertThat(meta.removeTemporaryFiles()).isEqualTo(1);
        try (var files = Files.list(dir)) {
            assertThat(files.map(f -> f.getFileName().toString()))
                    .containsExactly("00000000000000001000.json", "00000000000000002000.json");
        }
        assertThat(meta.removeTemporaryFiles()).isZero();
    }

    @Test
    void encryptedWithTheChainsKeyRingReadWithTheKeyTheNameCarries() throws Exception {
        KeyRing ring = KeyRing.of("test keys", Map.of("a", KEY_A, "b", KEY_B));
        FilesystemStore store = new FilesystemStore(root, "orders");
        new MetaSnapshots(store, new ObjectEncryption(ring, "a")).writeGroups(groups(1_000, 5));
        new MetaSnapshots(store, new ObjectEncryption(ring, "b")).writeTopic(topic(1_000, "-1"));
        Path file = root.resolve("orders/_meta/groups/00000000000000001000.k-a.json");
        assertThat(new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1)).doesNotContain("billing").startsWith("MV3M");

        MetaSnapshots reader = new MetaSnapshots(store, ObjectEncryption.readOnly(ring));
        assertThat(reader.newestGroups().orElseThrow().snapshot()).isEqualTo(groups(1_000, 5));
        assertThat(reader.newestTopic().orElseThrow().snapshot()).isEqualTo(topic(1_000, "-1"));

        MetaSnapshots withoutA = new MetaSnapshots(store, ObjectEncryption.readOnly(KeyRing.of("keys dir /k", Map.of("b", KEY_B))));
        assertThatThrownBy(withoutA::newestGroups).isInstanceOf(MissingKeysException.class)
                .hasMessageContaining("encrypted with key id a, which is missing from keys dir /k");
        MetaSnapshots wrongA = new MetaSnapshots(store, ObjectEncryption.readOnly(KeyRing.of("k", Map.of("a", KEY_B))));
        assertThatThrownBy(wrongA::newestGroups).isInstanceOf(MetaFormatException.class).hasMessageContaining("fails authentication");

        // Moved under the other kind: the associated data (its path) no longer matches.
        Files.copy(file, root.resolve("orders/_meta/topic/00000000000000002000.k-a.json"));
        assertThatThrownBy(reader::newestTopic).isInstanceOf(MetaFormatException.class).hasMessageContaining("fails authentication");
    }

    @Test
    void changeDetectionIgnoresTheTimeAndTheChainsProgress() {
        assertThat(topic(1, "-1").sameMetadataAs(topic(2, "-1"))).isTrue();
        assertThat(topic(1, "-1").sameMetadataAs(topic(2, "1000"))).isFalse();
        GroupSnapshot moved = new GroupSnapshot(2, "orders", Map.of(0, 500L), groups(1, 5).groups());
        assertThat(groups(1, 5).sameOffsetsAs(moved)).isTrue();
        assertThat(groups(1, 5).sameOffsetsAs(groups(1, 6))).isFalse();
    }

    @Test
    void besideDirectoriesAreOnlyUnderMeta() {
        FilesystemStore store = new FilesystemStore(root, "orders");
        assertThatThrownBy(() -> store.listBeside("0")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store.listBeside("_meta/../../x")).isInstanceOf(IllegalArgumentException.class);
        assertThat(store.listBeside(MetaSnapshots.TOPIC_DIR)).isEmpty();
    }

    @Test
    void aGroupSnapshotRecordsItsTopicIdAndOneWrittenBeforeIdsReadsWithNone() {
        GroupSnapshot withId = new GroupSnapshot(10, "orders", "AbCdEfGhIjKlMnOpQrStUv", Map.of(0, 5L), Map.of());
        String json = new String(MetaCodec.encode(withId), StandardCharsets.UTF_8);
        assertThat(json).contains("\"topic\":\"orders\",\"topic_id\":\"AbCdEfGhIjKlMnOpQrStUv\",");
        assertThat(MetaCodec.decodeGroups(MetaCodec.encode(withId), "x")).isEqualTo(withId);
        // As written before group snapshots recorded an id: still read, with none.
        String before = "{\"format_version\":1,\"kind\":\"groups\",\"time_ms\":10,\"topic\":\"orders\",\"chain_next_offsets\":{\"0\":5},"
                + "\"groups\":{\"billing\":{\"0\":{\"offset\":3,\"metadata\":\"\"}}}}";
        GroupSnapshot read = MetaCodec.decodeGroups(before.getBytes(StandardCharsets.UTF_8), "x");
        assertThat(read.topicId()).isEmpty();
        assertThat(read.groups()).isEqualTo(Map.of("billing", Map.of(0, new CommittedOffset(3, ""))));
        assertThat(new String(MetaCodec.encode(read), StandardCharsets.UTF_8)).doesNotContain("topic_id");
    }

    /** Restore's choice: the newest group snapshot of the backup's topic id, passing over newer ones of another id. */
    @Test
    void theBackupsGroupSnapshotIsTheNewestOfItsTopicIdAndTheOthersAreNamedAsSkipped() {
        FilesystemStore store = new FilesystemStore(root, "orders");
        MetaSnapshots meta = new MetaSnapshots(store, ObjectEncryption.none());
        assertThat(meta.groupsOfBackup(t -> true, g -> true)).isEqualTo(new MetaSnapshots.GroupChoice("", java.util.Optional.empty(),
                java.util.List.of()));
        meta.writeGroups(withId(1_000, ""));
        meta.writeGroups(withId(2_000, "old-id"));
        meta.writeGroups(withId(3_000, "new-id"));
        meta.writeGroups(withId(4_000, "new-id"));

        MetaSnapshots.GroupChoice noId = meta.groupsOfBackup(t -> true, g -> true);
        assertThat(noId.chosen().orElseThrow().snapshot().timeMs()).as("a backup that recorded no id: the newest").isEqualTo(4_000);

        meta.writeTopic(new TopicSnapshot(500, "orders", "old-id", 3, 1, Map.of()));
        MetaSnapshots.GroupChoice choice = meta.groupsOfBackup(t -> true, g -> true);
        assertThat(choice.backupTopicId()).isEqualTo("old-id");
        assertThat(choice.chosen().orElseThrow().snapshot().timeMs()).isEqualTo(2_000);
        assertThat(choice.skipped()).extracting(s -> s.snapshot().timeMs()).containsExactly(4_000L, 3_000L);
        assertThat(choice.skipped().get(0).location()).isEqualTo(meta.location(MetaSnapshots.GROUPS_DIR) + "/"
                + new MetaName(4_000, null).fileName());

        MetaSnapshots.GroupChoice atCut = meta.groupsOfBackup(t -> t <= 3_500, g -> g.timeMs() != 2_000);
        assertThat(atCut.chosen().orElseThrow().snapshot().timeMs()).as("one without an id is taken as the backup's").isEqualTo(1_000);
        assertThat(atCut.skipped()).extracting(s -> s.snapshot().timeMs()).containsExactly(3_000L);

        MetaSnapshots.GroupChoice none = meta.groupsOfBackup(t -> t >= 3_000, g -> true);
        assertThat(none.chosen()).isEmpty();
        assertThat(none.skipped()).hasSize(2);
    }

    /** A writer looks at the newest snapshot every pass: it lists, and reads again only what another writer added. */
    @Test
    void theNewestIsReadAgainOnlyWhenItsNameChanged() {
        FilesystemStore store = new FilesystemStore(root, "orders");
        MetaSnapshots meta = new MetaSnapshots(store, ObjectEncryption.none());
        assertThat(meta.newestGroups((MetaSnapshots.Stored<GroupSnapshot>) null)).isEmpty();
        meta.writeGroups(groups(1_000, 5));
        MetaSnapshots.Stored<GroupSnapshot> first = meta.newestGroups((MetaSnapshots.Stored<GroupSnapshot>) null).orElseThrow();
        // What the caller holds is taken as it is when the newest name is its name.
        MetaSnapshots.Stored<GroupSnapshot> held = new MetaSnapshots.Stored<>(first.location(), first.name(), groups(1_000, 77));
        assertThat(meta.newestGroups(held)).containsSame(held);
        meta.writeGroups(groups(2_000, 6));
        assertThat(meta.newestGroups(held).orElseThrow().snapshot()).isEqualTo(groups(2_000, 6));
        meta.writeTopic(topic(1, "-1"));
        assertThat(meta.newestTopic((MetaSnapshots.Stored<TopicSnapshot>) null).orElseThrow().snapshot()).isEqualTo(topic(1, "-1"));
    }

    private static GroupSnapshot withId(long time, String topicId) {
        return new GroupSnapshot(time, "orders", topicId, Map.of(0, 10L), Map.of("g", Map.of(0, new CommittedOffset(time / 1000, ""))));
    }
}
