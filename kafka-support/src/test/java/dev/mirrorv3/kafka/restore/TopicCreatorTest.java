package dev.mirrorv3.kafka.restore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import dev.mirrorv3.chain.meta.TopicSnapshot;
import dev.mirrorv3.chain.restore.VerifiedObject;
import dev.mirrorv3.chain.restore.VerifiedPartition;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TopicCreatorTest {
    private static final Clock NOW = Clock.fixed(Instant.ofEpochMilli(10_000_000), ZoneOffset.UTC);

    private static VerifiedPartition partition(int p, long oldestTimestamp, long bytes) {
        VerifiedObject o = new VerifiedObject(ObjectName.plain(0, 99, EnvelopeFormat.PARQUET), new byte[32], bytes, 100, -1);
        return new VerifiedPartition("/b/orders/" + p, "orders", p, List.of(o), 100, -1, oldestTimestamp, 10, 0, -1);
    }

    private static TopicSnapshot snapshot(Map<String, String> configs) {
        return new TopicSnapshot(1, "orders", "id", 3, 3, configs);
    }

    @Test
    void thePlanTakesPartitionsAndConfigsAndTheReplicationFactorGivenOrBackedUp() {
        TopicCreator.Plan plan = TopicCreator.plan(snapshot(Map.of("cleanup.policy", "compact")), "orders-new", null,
                List.of(partition(2, 1, 1)), "s");
        assertThat(plan).isEqualTo(new TopicCreator.Plan("orders-new", 3, 3, Map.of("cleanup.policy", "compact")));
        assertThat(TopicCreator.plan(snapshot(Map.of()), "o", 1, List.of(), "s").replicationFactor()).isEqualTo(1);
        assertThatThrownBy(() -> TopicCreator.plan(snapshot(Map.of()), "o", null, List.of(partition(3, 1, 1)), "snap.json"))
                .isInstanceOf(RestoreCheckException.class).hasMessageContaining("the backup has partition 3")
                .hasMessageContaining("snap.json says orders had 3 partitions");
    }

    @Test
    void retentionThatWouldDeleteRestoredRecordsIsRefusedBeforeCreatingUnlessAccepted() {
        List<VerifiedPartition> old = List.of(partition(0, 1_000, 500));
        TopicCreator.Plan byTime = TopicCreator.plan(snapshot(Map.of("retention.ms", "60000")), "orders", null, old, "s");
        assertThatThrownBy(() -> TopicCreator.check(byTime, old, false, false, NOW)).isInstanceOf(RestoreCheckException.class)
                .hasMessageContaining("retention.ms=60000").hasMessageContaining("--accept-retention")
                .hasMessageContaining("Nothing was created");
        assertThatCode(() -> TopicCreator.check(byTime, old, true, false, NOW)).doesNotThrowAnyException();
        TopicCreator.Plan longer = TopicCreator.plan(snapshot(Map.of("retention.ms", "60000000")), "orders", null, old, "s");
        assertThatCode(() -> TopicCreator.check(longer, old, false, false, NOW)).doesNotThrowAnyException();

        TopicCreator.Plan bySize = TopicCreator.plan(snapshot(Map.of("retention.bytes", "100")), "orders", null, old, "s");
        assertThatThrownBy(() -> TopicCreator.check(bySize, old, false, false, NOW)).isInstanceOf(RestoreCheckException.class)
                .hasMessageContaining("retention.bytes=100").hasMessageContaining("partition 0 alone is 500 bytes");

        TopicCreator.Plan logAppend = TopicCreator.plan(snapshot(Map.of("message.timestamp.type", "LogAppendTime")), "orders", null,
                old, "s");
        assertThatThrownBy(() -> TopicCreator.check(logAppend, old, false, false, NOW)).hasMessageContaining("--accept-log-append-time");
        assertThatCode(() -> TopicCreator.check(logAppend, old, false, true, NOW)).doesNotThrowAnyException();
    }
}
