package dev.mirrorv3.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.kafka.FailureVerdict.Kind;
import dev.mirrorv3.kafka.FailureVerdict.Scope;
import dev.mirrorv3.testsupport.LogCapture;
import dev.mirrorv3.testsupport.MutableClock;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class PartitionFailuresTest {
    private static final TopicPartition P0 = new TopicPartition("t", 0);
    private static final TopicPartition P1 = new TopicPartition("t", 1);
    private static final FailureVerdict CLEARS = new FailureVerdict(Scope.PARTITION, Kind.CLEARS_BY_ITSELF, null, false);
    private static final FailureVerdict REFUSED = new FailureVerdict(Scope.PARTITION, Kind.CLEARS_BY_ITSELF, null, true);
    private static final FailureVerdict OPERATOR = new FailureVerdict(Scope.PARTITION, Kind.NEEDS_OPERATOR, null, false);

    private final MutableClock clock = new MutableClock();
    private final List<String> heard = new ArrayList<>();
    private final PartitionFailures failures = new PartitionFailures(clock, 1_000, 300_000, "restart the tasks",
            LoggerFactory.getLogger(PartitionFailuresTest.class), new PartitionFailures.Listener() {
                @Override
                public void failed(TopicPartition tp) {
                    heard.add("failed " + tp);
                }

                @Override
                public void cleared(TopicPartition tp) {
                    heard.add("cleared " + tp);
                }
            });

    @Test
    void aConditionThatClearsByItselfIsRetriedWithABackoffCappedAtTheMaximumUntilItMakesProgress() {
        List<Long> delays = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            long at = failures.fail(P0, CLEARS, new RuntimeException("key id k2 missing"), OptionalLong.of(50)).retryAtMs();
            delays.add(at - clock.millis());
            clock.advance(at - clock.millis());
            assertThat(failures.dueForRetry(clock.millis())).as("due once").containsExactly(P0);
            assertThat(failures.dueForRetry(clock.millis())).isEmpty();
        }
        assertThat(delays).startsWith(1_000L, 2_000L, 4_000L, 8_000L).endsWith(300_000L, 300_000L);
        assertThat(heard).as("one failure, kept while retried").containsExactly("failed " + P0);

        failures.positioned(P0);
        failures.progressed(P0, 50);
        assertThat(failures.fail(P0, CLEARS, new RuntimeException("again"), OptionalLong.of(50)).retryAtMs() - clock.millis())
                .as("no progress past where it failed: the backoff goes on").isEqualTo(300_000L);
        failures.positioned(P0);
        failures.progressed(P0, 51);
        assertThat(failures.fail(P0, CLEARS, new RuntimeException("again"), OptionalLong.of(51)).retryAtMs() - clock.millis())
                .as("progress resets it").isEqualTo(1_000L);
    }

    @Test
    void aConditionThatNeedsAnOperatorIsNeverRetriedAndItsNoteSaysSo() {
        PartitionFailures.Failure f = failures.fail(P1, OPERATOR, new RuntimeException("another writer created x"), OptionalLong.of(7));
        clock.advance(86_400_000);
        assertThat(failures.dueForRetry(clock.millis())).isEmpty();
        assertThat(failures.msUntilNextRetry(clock.millis())).isEqualTo(Long.MAX_VALUE);
        assertThat(FailureNote.failure(f.note())).get().asString().contains("needs an operator", "another writer created x");
        assertThat(FailureNote.failure(FailureNote.HEALTHY)).isEmpty();
        assertThat(FailureNote.failure("seeded by mirror-v3; not a position")).isEmpty();
        failures.closed(List.of(P1));
        assertThat(heard).containsExactly("failed " + P1, "cleared " + P1);
        assertThat(failures.count()).isZero();
    }

    @Test
    void everyPartitionRefusedIsTheTasksCondition() {
        failures.fail(P0, REFUSED, new RuntimeException("S3 denied"), OptionalLong.empty());
        assertThat(failures.allRefused(List.of(P0, P1))).isFalse();
        failures.fail(P1, REFUSED, new RuntimeException("S3 denied"), OptionalLong.empty());
        assertThat(failures.allRefused(List.of(P0, P1))).isTrue();
        assertThat(failures.allRefused(List.of())).isFalse();
    }

    @Test
    void aReasonThatEndsASentenceIsLoggedWithOneFullStop() {
        try (LogCapture logs = LogCapture.attach()) {
            failures.fail(P0, OPERATOR, new RuntimeException("another writer created x. Then restart the task (docs/operations.md)."),
                    OptionalLong.of(7));
            failures.fail(P1, CLEARS, new RuntimeException("key id k2 missing."), OptionalLong.of(7));
            assertThat(logs.lines()).filteredOn(l -> l.contains("FAILED and is isolated")).hasSize(2)
                    .anySatisfy(l -> assertThat(l).contains("(docs/operations.md). It stays failed"))
                    .anySatisfy(l -> assertThat(l).contains("key id k2 missing. This can clear by itself"))
                    .allSatisfy(l -> assertThat(l).doesNotContain(".."));
        }
    }

    @Test
    void aLongReasonIsCutToFitTheBrokersOffsetMetadata() {
        String note = FailureNote.failed(0, Kind.NEEDS_OPERATOR, "x".repeat(10_000));
        assertThat(note.length()).isLessThan(1_200);
    }
}
