package dev.mirrorv3.kafka.connect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.ChainException;
import dev.mirrorv3.kafka.FailureVerdict;
import dev.mirrorv3.kafka.FailureVerdict.Kind;
import dev.mirrorv3.kafka.FailureVerdict.Scope;
import dev.mirrorv3.kafka.Failures;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.errors.RetriableException;
import org.junit.jupiter.api.Test;

/** What Connect's own exceptions mean to {@link Failures} and {@link FailureVerdict}, which a Connect task meets. */
class ConnectFailuresTest {

    private static void assertVerdict(Throwable t, Scope scope, Kind kind) {
        FailureVerdict v = FailureVerdict.of(t);
        assertThat(v.scope()).as("scope of %s", t).isEqualTo(scope);
        assertThat(v.kind()).as("kind of %s", t).isEqualTo(kind);
    }

    @Test
    void connectsRetriableIsTransient() {
        // A task's own "deliver the batch again after a pause" (thrown by the blob sink's buffer cap wait) must be
        // retried as Kafka's RetriableException is, whether met directly or as a cause.
        RetriableException retriable = new RetriableException("again");
        assertThat(Failures.isTransient(retriable)).isTrue();
        assertThat(Failures.isTransient(new RuntimeException("wrapped", retriable))).isTrue();
        assertThat(Failures.isTransient(new RetriableException("sub") { })).as("a subclass").isTrue();
        assertThat(Failures.isTransient(new ConnectException("fatal"))).isFalse();
    }

    @Test
    void aBadRecordIsThePartitionsAndNeedsAnOperator() {
        assertVerdict(new DataException("record at t/0 offset 4 has a value of type String"), Scope.PARTITION, Kind.NEEDS_OPERATOR);
    }

    @Test
    void theCauseDecidesAlsoWhenWrapped() {
        assertVerdict(new ConnectException("task", new ChainException("gap")), Scope.PARTITION, Kind.NEEDS_OPERATOR);
        assertVerdict(new ConnectException("a bug"), Scope.TASK, Kind.NEEDS_OPERATOR);
    }
}
