package dev.mirrorv3.kafka.connect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.ChainException;
import dev.mirrorv3.kafka.FailureVerdict;
import dev.mirrorv3.kafka.FailureVerdict.Kind;
import dev.mirrorv3.kafka.FailureVerdict.Scope;
import dev.mirrorv3.kafka.Failures;
import java.net.URL;
import java.net.URLClassLoader;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.errors.RetriableException;
import org.junit.jupiter.api.Test;

/** What Connect's own exceptions mean to {@link Failures} and {@link FailureVerdict} where Connect runs ({@link ConnectFailures}). */
class ConnectFailuresTest {

    private static void assertVerdict(Throwable t, Scope scope, Kind kind) {
        FailureVerdict v = ConnectFailures.verdict(t);
        assertThat(v.scope()).as("scope of %s", t).isEqualTo(scope);
        assertThat(v.kind()).as("kind of %s", t).isEqualTo(kind);
    }

    @Test
    void connectFreeCodeDoesNotKnowConnectsExceptions() {
        // the restore engine and the CLI never meet them; a Connect task asks ConnectFailures (ConnectFreeTest checks that)
        assertThat(Failures.isTransient(new RetriableException("again"))).isFalse();
        assertThat(FailureVerdict.of(new DataException("bad record")).scope()).isEqualTo(Scope.TASK);
    }

    @Test
    void connectsRetriableIsTransient() {
        // A task's own "deliver the batch again after a pause" (thrown by the blob sink's buffer cap wait) must be
        // retried as Kafka's RetriableException is, whether met directly or as a cause.
        RetriableException retriable = new RetriableException("again");
        assertThat(ConnectFailures.isTransient(retriable)).isTrue();
        assertThat(ConnectFailures.isTransient(new RuntimeException("wrapped", retriable))).isTrue();
        assertThat(ConnectFailures.isTransient(new RetriableException("sub") { })).as("a subclass").isTrue();
        assertThat(ConnectFailures.isTransient(new ConnectException("fatal"))).isFalse();
    }

    @Test
    void aClassMerelyNamedConnectsRetriableIsNotIt() throws Exception {
        // Connect's own class loaded a second time, by a loader of its own: the same name, another type (as a plugin
        // that bundled its own connect-api would throw it). Connect retries only its worker's RetriableException.
        URL[] connectApi = {location(RetriableException.class), location(KafkaException.class)};
        try (URLClassLoader loader = new URLClassLoader(connectApi, null)) {
            Throwable namesake = (Throwable) loader.loadClass(RetriableException.class.getName()).getConstructor(String.class)
                    .newInstance("same name, another class");
            assertThat(namesake.getClass().getName()).isEqualTo(RetriableException.class.getName());
            assertThat(namesake).isNotInstanceOf(RetriableException.class);
            assertThat(ConnectFailures.isTransient(namesake)).as("a class named like Connect's RetriableException").isFalse();
            assertThat(ConnectFailures.isTransient(new RuntimeException("wrapped", namesake))).as("as a cause").isFalse();
            assertThat(ConnectFailures.isTransient(new RetriableException("the worker's own"))).isTrue();
        }
    }

    private static URL location(Class<?> c) {
        return c.getProtectionDomain().getCodeSource().getLocation();
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
