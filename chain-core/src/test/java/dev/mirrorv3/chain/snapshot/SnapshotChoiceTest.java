package dev.mirrorv3.chain.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mirrorv3.chain.ChainException;
import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.SnapshotChain;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** Which snapshot a point-in-time restore of a compaction=log backup produces. */
class SnapshotChoiceTest {
    // snapshots ending at 99, 199 and 299 (the oldest before 100 removed by a lifecycle rule: a gap is allowed)
    private static final ObjectName A = ObjectName.plain(50, 99, EnvelopeFormat.PARQUET);
    private static final ObjectName B = ObjectName.plain(100, 199, EnvelopeFormat.PARQUET);
    private static final ObjectName C = ObjectName.plain(200, 299, EnvelopeFormat.PARQUET);
    private static final SnapshotChain CHAIN = SnapshotChain.validate("store/kv/0", List.of(C.fileName(), A.fileName(), B.fileName()));
    // the newest stamp each took: B's is later than C's (a late-stamped record in a CreateTime topic)
    private static final Map<ObjectName, TakenStamps> STAMPS = Map.of(A, new TakenStamps(1_000L), B, new TakenStamps(5_000L),
            C, new TakenStamps(3_000L));

    private final List<ObjectName> asked = new ArrayList<>();
    private final Function<ObjectName, Optional<TakenStamps>> stamps = o -> {
        asked.add(o);
        return Optional.of(STAMPS.get(o));
    };

    @Test
    void withoutABoundTheNewestWithoutReadingAnyStamp() {
        assertThat(SnapshotChoice.choose(CHAIN, null, null, stamps).snapshot()).isEqualTo(C);
        assertThat(asked).isEmpty();
    }

    @Test
    void anOffsetBoundPicksTheNewestEndingAtOrBeforeIt() {
        assertThat(SnapshotChoice.choose(CHAIN, 299L, null, stamps).snapshot()).isEqualTo(C);
        assertThat(SnapshotChoice.choose(CHAIN, 199L, null, stamps).snapshot()).isEqualTo(B);
        SnapshotChoice.Choice between = SnapshotChoice.choose(CHAIN, 250L, null, stamps);
        assertThat(between.snapshot()).isEqualTo(B);
        assertThat(between.reason()).contains("offset 250", "after offset 199 up to 250", "the restored state is as of offset 199");
        assertThat(asked).as("an offset bound needs no stamps").isEmpty();
    }

    @Test
    void aTimestampBoundPicksTheNewestWhoseRecordsAreAllStampedAtOrBeforeIt() {
        assertThat(SnapshotChoice.choose(CHAIN, null, 3_000L, stamps).snapshot()).isEqualTo(C);
        assertThat(asked).as("stamps read newest first, only until one fits").containsExactly(C);
        asked.clear();
        // C and B each hold a record stamped after 2999: A is the newest whose records all are at or before it
        SnapshotChoice.Choice choice = SnapshotChoice.choose(CHAIN, null, 2_999L, stamps);
        assertThat(choice.snapshot()).isEqualTo(A);
        assertThat(asked).containsExactly(C, B, A);
        assertThat(choice.reason()).contains("the newer " + B + " took a record stamped 1970-01-01T00:00:05Z",
                "the restored state is as of offset 99");
    }

    @Test
    void anEmptySnapshotThatTookADeleteStampedAfterTheBoundIsNotAtOrBeforeIt() {
        // every key deleted at 2000: the snapshot holds no record, and still reflects the deletes
        Map<ObjectName, Optional<TakenStamps>> taken = Map.of(B, Optional.of(new TakenStamps(1_000L)), C,
                Optional.of(new TakenStamps(2_000L)));
        SnapshotChain two = SnapshotChain.validate("store/kv/0", List.of(B.fileName(), C.fileName()));
        assertThat(SnapshotChoice.choose(two, null, 1_500L, taken::get).snapshot()).isEqualTo(B);
        assertThat(SnapshotChoice.choose(two, null, 2_000L, taken::get).snapshot()).isEqualTo(C);
    }

    @Test
    void aSnapshotThatTookNoStampedRecordIsAtOrBeforeAnyTimestamp() {
        SnapshotChain one = SnapshotChain.validate("store/kv/0", List.of(C.fileName()));
        assertThat(SnapshotChoice.choose(one, null, 0L, o -> Optional.of(new TakenStamps(null))).snapshot()).isEqualTo(C);
    }

    @Test
    void aSnapshotThatDidNotRecordItsStampsIsRefusedForATimestampNotGuessed() {
        Function<ObjectName, Optional<TakenStamps>> old = o -> o.equals(C) ? Optional.of(new TakenStamps(3_000L)) : Optional.empty();
        assertThat(SnapshotChoice.choose(CHAIN, null, 3_000L, old).snapshot()).as("a newer one that fits comes first").isEqualTo(C);
        assertThatThrownBy(() -> SnapshotChoice.choose(CHAIN, null, 2_999L, old)).isInstanceOf(ChainException.class)
                .hasMessageContaining("store/kv/0/" + B + " does not record the timestamps of the records it took")
                .hasMessageContaining("Restore with --until-offset");
        assertThat(SnapshotChoice.choose(CHAIN, 199L, null, old).snapshot()).as("an offset bound needs no stamps").isEqualTo(B);
    }

    @Test
    void bothBoundsPickTheNewestMeetingBoth() {
        assertThat(SnapshotChoice.choose(CHAIN, 299L, 4_000L, stamps).snapshot()).isEqualTo(C);
        assertThat(SnapshotChoice.choose(CHAIN, 250L, 4_000L, stamps).snapshot()).as("B fits the offset, not the time").isEqualTo(A);
    }

    @Test
    void noSnapshotAtOrBeforeTheBoundNamesTheOldestKept() {
        assertThatThrownBy(() -> SnapshotChoice.choose(CHAIN, 98L, null, stamps)).isInstanceOf(ChainException.class)
                .hasMessageContaining("store/kv/0: no snapshot is at or before offset 98")
                .hasMessageContaining("the oldest kept is " + A + ", the state up to offset 99");
        assertThatThrownBy(() -> SnapshotChoice.choose(CHAIN, null, 999L, stamps)).isInstanceOf(ChainException.class)
                .hasMessageContaining("no snapshot is at or before timestamp 1970-01-01T00:00:00.999Z")
                .hasMessageContaining("the oldest kept is " + A + ", the state up to offset 99, which took a record stamped "
                        + "1970-01-01T00:00:01Z");
    }

    @Test
    void anEmptyDirectoryHasNothingToRestore() {
        assertThatThrownBy(() -> SnapshotChoice.choose(SnapshotChain.validate("store/kv/0", List.of()), 5L, null, stamps))
                .hasMessageContaining("store/kv/0: the directory holds no snapshots");
    }
}
