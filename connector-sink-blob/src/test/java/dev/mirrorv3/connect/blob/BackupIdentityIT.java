package dev.mirrorv3.connect.blob;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.crypto.ObjectEncryption;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EnvelopeCodecs;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.envelope.TimestampType;
import dev.mirrorv3.chain.meta.MetaSnapshots;
import dev.mirrorv3.chain.meta.TopicSnapshot;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.kafka.PerPartition;
import dev.mirrorv3.kafka.PositionException;
import dev.mirrorv3.testsupport.KafkaTestBroker;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which topic a backup holds when two connectors share its destination with {@code partitions=} (A backs up 0 and 1,
 * B 2 and 3), against a real broker and a real store: the recorded topic id is the backup's, not one connector's, so a
 * connector whose own partitions are empty records a new id only when every partition of the destination is.
 */
class BackupIdentityIT {
    private static final String TOPIC = "shared";
    private static KafkaTestBroker broker;
    private static Admin admin;

    @TempDir
    Path root;

    @BeforeAll
    static void start() {
        broker = KafkaTestBroker.start();
        broker.createTopic(TOPIC, 4, Map.of());
        admin = broker.admin();
    }

    @AfterAll
    static void stop() {
        broker.close();
    }

    private BackupIdentity identity(FilesystemStore store) {
        return new BackupIdentity(t -> store, new KeysDirWatch(ObjectEncryption.none(), ObjectEncryption::none), admin,
                Duration.ofSeconds(30), Clock.systemUTC());
    }

    /** The failure verify gives the partitions it opens: a backup of another topic fails each of them, as the topic's. */
    private RuntimeException failureOf(FilesystemStore store, Map<TopicPartition, OptionalLong> opening) {
        PerPartition<Object> opened = new PerPartition<>();
        identity(store).verify(opening, opened);
        assertThat(opened.failures().keySet()).as("every partition opened failed").isEqualTo(opening.keySet());
        RuntimeException e = opened.failures().values().iterator().next();
        assertThat(e).isInstanceOf(PositionException.class);
        assertThat(((PositionException) e).topic()).as("the condition of the whole topic").contains(TOPIC);
        return e;
    }

    /** The old topic's backup: A's chains hold records 0-99 of partitions 0 and 1, and the old topic's id is recorded. */
    private static void oldBackupOfA(FilesystemStore store) {
        new MetaSnapshots(store, ObjectEncryption.none()).writeTopic(new TopicSnapshot(1_000, TOPIC, "an-older-topic-id", 4, 1, Map.of()));
        for (int p = 0; p < 2; p++) {
            List<BackupRecord> records = new ArrayList<>();
            for (long o = 0; o < 100; o++) {
                records.add(new BackupRecord(TOPIC, p, o, 1_000 + o, TimestampType.CREATE_TIME, null,
                        ("v" + o).getBytes(StandardCharsets.UTF_8), List.of()));
            }
            EnvelopeSettings settings = EnvelopeSettings.parquetBytes();
            store.create(p, ObjectName.plain(0, 99, settings.format()).fileName(), EnvelopeCodecs.forSettings(settings).encode(records));
        }
    }

    private static String recordedId(FilesystemStore store) {
        return new MetaSnapshots(store, ObjectEncryption.none()).newestTopic().orElseThrow().snapshot().topicId();
    }

    private static String currentId() throws Exception {
        return admin.describeTopics(List.of(TOPIC)).allTopicNames().get(30, TimeUnit.SECONDS).get(TOPIC).topicId().toString();
    }

    @Test
    void aConnectorWithEmptyPartitionsRecordsNoNewIdWhileAnotherPartitionOfTheDestinationHoldsRecords() throws Exception {
        FilesystemStore store = new FilesystemStore(root, TOPIC);
        oldBackupOfA(store);
        String current = currentId();
        assertThat(current).as("premise: the topic was created again").isNotEqualTo("an-older-topic-id");

        // B opens its partitions, both empty, after the topic was created again.
        assertThat(failureOf(store, Map.of(new TopicPartition(TOPIC, 2), OptionalLong.empty(),
                new TopicPartition(TOPIC, 3), OptionalLong.empty())))
                .hasMessageContaining("source topic shared was deleted and created again")
                .hasMessageContaining(store.location(0) + " holds records of the topic with id an-older-topic-id")
                .hasMessageContaining("shared now has id " + current)
                .hasMessageContaining("Nothing of the new topic was written for shared-2")
                .hasMessageContaining("new destination.name");
        assertThat(recordedId(store)).as("the backup's id").isEqualTo("an-older-topic-id");

        // So A, whose chains hold the old topic, is refused too, also after B's open.
        assertThat(failureOf(store, Map.of(new TopicPartition(TOPIC, 0), OptionalLong.of(100),
                new TopicPartition(TOPIC, 1), OptionalLong.of(100))))
                .hasMessageContaining("(next offset 100) holds a copy of the topic with id an-older-topic-id");
        assertThat(recordedId(store)).isEqualTo("an-older-topic-id");
    }

    @Test
    void aDestinationWhosePartitionsAreAllEmptyTakesTheCurrentTopic() throws Exception {
        FilesystemStore store = new FilesystemStore(root, TOPIC);
        new MetaSnapshots(store, ObjectEncryption.none()).writeTopic(new TopicSnapshot(1_000, TOPIC, "an-older-topic-id", 4, 1, Map.of()));
        Files.createDirectories(root.resolve(TOPIC).resolve("0")); // a partition directory without objects: empty

        PerPartition<Object> opened = new PerPartition<>();
        identity(store).verify(Map.of(new TopicPartition(TOPIC, 2), OptionalLong.empty(),
                new TopicPartition(TOPIC, 3), OptionalLong.empty()), opened);

        assertThat(opened.failures()).as("nothing refused").isEmpty();
        assertThat(recordedId(store)).isEqualTo(currentId());
    }
}
