package dev.mirrorv3.cache.notify;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class NotifyBufferTest {

    @Test
    void bodyIsKkvV1Exactly() {
        UpdateBatch b = new UpdateBatch("t2", List.of("k1", "k\"2"), new TreeMap<>(Map.of(0, 11L, 1, 5L)), null);
        assertThat(new String(b.body())).isEqualTo(
                "{\"v\":1,\"topic\":\"t2\",\"offsets\":{\"0\":11,\"1\":5},\"updates\":{\"k1\":{},\"k\\\"2\":{}}}");
        assertThat(b.offsetsHeader()).isEqualTo("{\"0\":11,\"1\":5}");
    }

    @Test
    void mergesKeysKeepsMaxOffsetPerPartitionAndCommitsWhenDrained() {
        NotifyBuffer buf = new NotifyBuffer("t");
        buf.append(List.of(new KeyChange("a", 0, 1), new KeyChange("b", 1, 2), new KeyChange("a", 0, 3)),
                Map.of(0, 4L, 1, 3L));
        assertThat(buf.pendingKeys()).isEqualTo(2);
        UpdateBatch batch = buf.take(100_000, new ArrayList<>());
        assertThat(batch.keys()).containsExactly("b", "a");
        assertThat(batch.offsets()).containsExactlyEntriesOf(new TreeMap<>(Map.of(0, 3L, 1, 2L)));
        assertThat(batch.commitPositions()).isEqualTo(Map.of(0, 4L, 1, 3L));
        assertThat(buf.pendingKeys()).isZero();
    }

    @Test
    void sizeBoundSplitsBatchesAndEveryBodyStaysBelowIt() {
        NotifyBuffer buf = new NotifyBuffer("topic");
        List<KeyChange> changes = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            changes.add(new KeyChange("key-" + "é".repeat(i % 30) + i, 0, i));
        }
        buf.append(changes, Map.of(0, 5000L));
        int keys = 0;
        int batches = 0;
        while (buf.pendingKeys() > 0) {
            UpdateBatch b = buf.take(4096, new ArrayList<>());
            assertThat(b.body().length).isLessThanOrEqualTo(4096);
            assertThat(b.commitPositions() == null).isEqualTo(buf.pendingKeys() > 0);
            keys += b.keys().size();
            batches++;
        }
        assertThat(keys).isEqualTo(5000);
        assertThat(batches).isGreaterThan(10);
    }

    @Test
    void aKeyTooLongForAnyBodyIsReportedNotSent() {
        NotifyBuffer buf = new NotifyBuffer("t");
        buf.append(List.of(new KeyChange("x".repeat(5000), 0, 1), new KeyChange("ok", 0, 2)), Map.of(0, 3L));
        List<String> oversized = new ArrayList<>();
        UpdateBatch b = buf.take(2048, oversized);
        assertThat(oversized).hasSize(1);
        assertThat(b.keys()).containsExactly("ok");
    }

    @Test
    void idlePositionsOnlyWhenNothingPendingAndMoved() {
        NotifyBuffer buf = new NotifyBuffer("t");
        buf.append(List.of(), Map.of(0, 10L));
        assertThat(buf.idlePositions()).isEqualTo(Map.of(0, 10L));
        assertThat(buf.idlePositions()).isNull();
        buf.append(List.of(new KeyChange("a", 0, 10)), Map.of(0, 11L));
        assertThat(buf.idlePositions()).isNull();
    }
}
