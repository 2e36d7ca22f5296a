package dev.mirrorv3.kafka.restore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mirrorv3.chain.meta.TopicSnapshot;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TopicCreatorTest {
    private static final Clock NOW = Clock.fixed(Instant.ofEpochMilli(10_000_000), ZoneOffset.UTC);

    private static RestoredPartition partition(int p, long oldestTimestamp, long logBytes) {
        return new RestoredPartition(p, "/b/orders/" + p, oldestTimestamp, oldestTimestamp + 1_000, logBytes);
    }

    private static TopicSnapshot snapshot(Map<String, String> configs) {
        return new TopicSnapshot(1, "orders", "id", 3, 3, configs);
    }

    private static TopicCreator.Plan plan(Map<String, String> configs, Integer rf, List<RestoredPartition> partitions) {
        return TopicCreator.plan(snapshot(configs), "orders", rf, partitions, "s", NOW);
    }

    @Test
    void thePlanTakesPartitionsAndConfigsAndTheReplicationFactorGivenOrBackedUp() {
        TopicCreator.Plan plan = TopicCreator.plan(snapshot(Map.of("cleanup.policy", "compact")), "orders-new", null,
                List.of(partition(2, 1, 1)), "s", NOW);
        assertThat(plan).isEqualTo(new TopicCreator.Plan("orders-new", 3, 3, Map.of("cleanup.policy", "compact")));
        assertThat(plan(Map.of(), 1, List.of()).replicationFactor()).isEqualTo(1);
        assertThatThrownBy(() -> TopicCreator.plan(snapshot(Map.of()), "o", null, List.of(partition(3, 1, 1)), "snap.json", NOW))
                .isInstanceOf(RestoreCheckException.class).hasMessageContaining("the backup has partition 3")
                .hasMessageContaining("snap.json says orders had 3 partitions");
    }

    @Test
    void retentionThatWouldDeleteRestoredRecordsIsRefusedBeforeCreatingUnlessAccepted() {
        List<RestoredPartition> old = List.of(partition(0, 1_000, 500));
        TopicCreator.Plan byTime = plan(Map.of("retention.ms", "60000"), null, old);
        assertThatThrownBy(() -> TopicCreator.check(byTime, old, false, false, NOW)).isInstanceOf(RestoreCheckException.class)
                .hasMessageContaining("retention.ms=60000").hasMessageContaining("--accept-retention")
                .hasMessageContaining("Nothing was created");
        assertThatCode(() -> TopicCreator.check(byTime, old, true, false, NOW)).doesNotThrowAnyException();
        TopicCreator.Plan longer = plan(Map.of("retention.ms", "60000000"), null, old);
        assertThatCode(() -> TopicCreator.check(longer, old, false, false, NOW)).doesNotThrowAnyException();

        TopicCreator.Plan bySize = plan(Map.of("retention.bytes", "100"), null, old);
        assertThatThrownBy(() -> TopicCreator.check(bySize, old, false, false, NOW)).isInstanceOf(RestoreCheckException.class)
                .hasMessageContaining("retention.bytes=100").hasMessageContaining("partition 0 take at least 500 bytes in the log");
        assertThatCode(() -> TopicCreator.check(plan(Map.of("retention.bytes", "500"), null, old), old, false, false, NOW))
                .doesNotThrowAnyException();

        TopicCreator.Plan logAppend = plan(Map.of("message.timestamp.type", "LogAppendTime"), null, old);
        assertThatThrownBy(() -> TopicCreator.check(logAppend, old, false, false, NOW)).hasMessageContaining("--accept-log-append-time");
        assertThatCode(() -> TopicCreator.check(logAppend, old, false, true, NOW)).doesNotThrowAnyException();
    }

    /** docs/decisions.md: configs that cannot work on the target, or would refuse the restored records, are adjusted with a note. */
    @Test
    void configsThatCannotWorkOnTheTargetAreAdjustedWithANote() {
        List<RestoredPartition> old = List.of(partition(0, 1_000, 500)); // stamped 1,000-2,000; now is 10,000,000
        TopicCreator.Plan p = plan(Map.of("min.insync.replicas", "2", "leader.replication.throttled.replicas", "0:101,1:102",
                "follower.replication.throttled.replicas", "*", "message.timestamp.before.max.ms", "60000",
                "message.timestamp.after.max.ms", "3600000", "message.timestamp.difference.max.ms", "1000", "cleanup.policy", "delete"),
                1, old);
        assertThat(p.configs()).isEqualTo(Map.of("min.insync.replicas", "1", "message.timestamp.after.max.ms", "3600000",
                "cleanup.policy", "delete"));
        assertThat(p.notes()).hasSize(5).anySatisfy(n -> assertThat(n).contains("min.insync.replicas=2 lowered to 1"))
                .anySatisfy(n -> assertThat(n).contains("dropped leader.replication.throttled.replicas=0:101,1:102", "source cluster"))
                .anySatisfy(n -> assertThat(n).contains("dropped message.timestamp.before.max.ms=60000",
                        "the oldest restored record is from 1970-01-01T00:00:01Z"))
                .anySatisfy(n -> assertThat(n).contains("dropped message.timestamp.difference.max.ms=1000"));

        TopicCreator.Plan kept = plan(Map.of("min.insync.replicas", "2", "message.timestamp.before.max.ms", "100000000"), 3, old);
        assertThat(kept.configs()).isEqualTo(Map.of("min.insync.replicas", "2", "message.timestamp.before.max.ms", "100000000"));
        assertThat(kept.notes()).isEmpty();

        List<RestoredPartition> future = List.of(new RestoredPartition(0, "/b/orders/0", 9_000_000, 20_000_000, 1));
        assertThat(plan(Map.of("message.timestamp.after.max.ms", "60000"), 1, future).notes())
                .singleElement().asString().contains("dropped message.timestamp.after.max.ms=60000", "stamped 1970-01-01T05:33:20Z");
    }
}
