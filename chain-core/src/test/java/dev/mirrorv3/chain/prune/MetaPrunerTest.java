package dev.mirrorv3.chain.prune;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.crypto.ObjectEncryption;
import dev.mirrorv3.chain.meta.GroupSnapshot;
import dev.mirrorv3.chain.meta.GroupSnapshot.CommittedOffset;
import dev.mirrorv3.chain.meta.MetaName;
import dev.mirrorv3.chain.meta.MetaSnapshots;
import dev.mirrorv3.chain.meta.TopicSnapshot;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.chain.store.Store;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Prune of the _meta/ snapshots on the filesystem: what a point-in-time restore at or after the cut takes stays. */
class MetaPrunerTest {
    static final String ID = "AbCdEfGhIjKlMnOpQrStUv";
    static final String OTHER_ID = "ZzCdEfGhIjKlMnOpQrStUv";

    @TempDir
    Path root;
    FilesystemStore store;
    MetaSnapshots meta;

    @BeforeEach
    void store() {
        store = new FilesystemStore(root, "b");
        meta = new MetaSnapshots(store, ObjectEncryption.none());
    }

    void topics(long... times) {
        for (long t : times) {
            meta.writeTopic(new TopicSnapshot(t, "orders", ID, 1, 3, Map.of("retention.ms", Long.toString(t))));
        }
    }

    void groups(String topicId, long... times) {
        for (long t : times) {
            meta.writeGroups(new GroupSnapshot(t, "orders", topicId, Map.of(0, t),
                    Map.of("billing", Map.of(0, new CommittedOffset(t, "")))));
        }
    }

    MetaPrune prune(Store s, long cutMs, boolean dryRun) {
        return new MetaPruner(s, ObjectEncryption.none()).prune(Instant.ofEpochMilli(cutMs), dryRun);
    }

    static List<Long> times(List<MetaName> names) {
        return names.stream().map(MetaName::timeMs).toList();
    }

    /** What a point-in-time restore at each time takes: the newest topic snapshot at or before it, and restore's group choice. */
    List<String> picks(long... ats) {
        List<String> picks = new ArrayList<>();
        for (long at : ats) {
            picks.add(at + ": topic " + meta.newestTopicAtOrBefore(at).map(s -> s.name().toString()).orElse("none") + ", groups "
                    + meta.groupsOfBackup(t -> t <= at, g -> true).chosen().map(s -> s.name().toString()).orElse("none")
                    + ", newest topic " + meta.newestTopic().map(s -> s.name().toString()).orElse("none"));
        }
        return picks;
    }

    @Test
    void removesWhatIsOlderThanTheSnapshotARestoreAtTheCutTakesAndEveryRestoreFromTheCutOnTakesTheSame() {
        topics(100, 200, 300, 400);
        groups(ID, 100, 150, 250, 350);
        long[] window = {250, 260, 299, 300, 349, 350, 400, 10_000};
        List<String> before = picks(window);

        MetaPrune dry = prune(store, 260, true);
        assertThat(dry.removed()).extracting(r -> r.dir() + "/" + r.name().timeMs())
                .containsExactly("_meta/topic/100", "_meta/groups/100", "_meta/groups/150");
        assertThat(dry.removed()).allMatch(r -> r.bytes() > 0);
        assertThat(times(meta.topicNames())).as("a dry run removes nothing").containsExactly(100L, 200L, 300L, 400L);

        MetaPrune done = prune(store, 260, false);
        assertThat(done.removed()).hasSize(3);
        assertThat(done.kept()).isEqualTo(5);
        assertThat(times(meta.topicNames())).as("the newest at or before the cut stays").containsExactly(200L, 300L, 400L);
        assertThat(times(meta.groupNames())).containsExactly(250L, 350L);
        assertThat(picks(window)).as("a point-in-time restore inside the kept window takes what it took").isEqualTo(before);
        assertThat(prune(store, 260, false).removed()).as("a second run has nothing left to do").isEmpty();
    }

    @Test
    void theNewestOfEachKindStaysHoweverOldAndNothingGoesWithoutOneAtOrBeforeTheCut() {
        topics(100, 200);
        groups(ID, 100, 200);
        assertThat(prune(store, 50, false).removed()).as("all newer than the cut").isEmpty();
        MetaPrune done = prune(store, Long.MAX_VALUE, false);
        assertThat(done.removed()).extracting(r -> r.dir() + "/" + r.name().timeMs())
                .containsExactly("_meta/topic/100", "_meta/groups/100");
        assertThat(times(meta.topicNames())).as("a stable topic's only snapshot is old").containsExactly(200L);
        assertThat(times(meta.groupNames())).containsExactly(200L);
    }

    @Test
    void aGroupSnapshotOfAnotherTopicIdIsPassedOverAsRestorePassesOverIt() {
        topics(100);
        groups(ID, 100, 200);
        groups(OTHER_ID, 300); // the topic was deleted and created again: its groups' positions are the new topic's
        List<String> before = picks(400, 1000);
        assertThat(before.get(0)).as("premise: restore passes over the newer snapshot").contains("groups 00000000000000000200.json");
        MetaPrune done = prune(store, 400, false);
        assertThat(done.removed()).extracting(r -> r.dir() + "/" + r.name().timeMs()).containsExactly("_meta/groups/100");
        assertThat(times(meta.groupNames())).containsExactly(200L, 300L);
        assertThat(picks(400, 1000)).isEqualTo(before);
    }

    @Test
    void aSnapshotUnderARetentionIsLeftAndReportedAndTheOthersGo() {
        topics(100, 200, 300);
        groups(ID, 100, 200, 300);
        String lockedName = new MetaName(100, null).fileName();
        Store locking = new LockingStore(store, MetaSnapshots.TOPIC_DIR + "/" + lockedName, "GOVERNANCE");
        MetaPrune done = prune(locking, 1000, false);
        assertThat(done.locked()).singleElement().satisfies(l -> assertThat(l.reason())
                .contains("_meta/topic/" + lockedName, "GOVERNANCE", "until 2030-01-01T00:00:00Z"));
        assertThat(done.removed()).extracting(r -> r.dir() + "/" + r.name().timeMs())
                .containsExactly("_meta/topic/200", "_meta/groups/100", "_meta/groups/200");
        assertThat(times(meta.topicNames())).containsExactly(100L, 300L);
        assertThat(done.kept()).isEqualTo(3);
    }
}
