package dev.mirrorv3.chain.restore;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which consumer-group snapshot a point-in-time restore may use: never one taken after the cut. */
class RestoreCutGroupSnapshotTest {

    @Test
    void aTimestampCutTakesSnapshotsTakenAtOrBeforeIt() {
        RestoreCut cut = new RestoreCut(1000L, Map.of());
        assertThat(cut.admitsGroupSnapshot(1000, Map.of(0, 5000L))).isTrue();
        assertThat(cut.admitsGroupSnapshot(1001, Map.of(0, 10L))).isFalse();
        assertThat(cut.groupSnapshotRule()).contains("at or before the cut 1970-01-01T00:00:01Z");
    }

    @Test
    void anOffsetCutTakesSnapshotsTakenBeforeTheBackupPassedItOnEveryCutPartition() {
        RestoreCut cut = new RestoreCut(null, Map.of(0, 99L, 1, 49L));
        assertThat(cut.admitsGroupSnapshot(Long.MAX_VALUE, Map.of(0, 100L, 1, 50L))).as("exactly at the cut").isTrue();
        assertThat(cut.admitsGroupSnapshot(0, Map.of(0, 101L, 1, 50L))).as("past it on partition 0").isFalse();
        assertThat(cut.admitsGroupSnapshot(0, Map.of(0, 100L))).as("partition 1 not backed up yet").isTrue();
        assertThat(cut.groupSnapshotRule()).contains("had not passed the cut", "partitions [0, 1]");
    }

    @Test
    void bothMustHoldAndNoCutTakesEverySnapshot() {
        RestoreCut both = new RestoreCut(1000L, Map.of(0, 99L));
        assertThat(both.admitsGroupSnapshot(900, Map.of(0, 100L))).isTrue();
        assertThat(both.admitsGroupSnapshot(900, Map.of(0, 200L))).isFalse();
        assertThat(both.admitsGroupSnapshot(2000, Map.of(0, 100L))).isFalse();
        assertThat(RestoreCut.none().admitsGroupSnapshot(Long.MAX_VALUE, Map.of(0, Long.MAX_VALUE))).isTrue();
        assertThat(RestoreCut.none().groupSnapshotRule()).isNull();
    }
}
