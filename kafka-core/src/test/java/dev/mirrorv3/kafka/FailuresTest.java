package dev.mirrorv3.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.ChainException;
import dev.mirrorv3.chain.store.ObjectExistsException;
import dev.mirrorv3.chain.store.StoreException;
import dev.mirrorv3.chain.store.TransientStoreException;
import java.io.IOException;
import java.lang.reflect.Method;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.URL;
import java.net.URLClassLoader;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

/** What the task retries and what fails it, one case per exception type. */
class FailuresTest {
    @Test
    void transientStoreFailureIsTransient() {
        assertThat(Failures.isTransient(new TransientStoreException("down", new IOException("x")))).isTrue();
    }

    @Test
    void fatalStoreFailureStaysFatalEvenWhenAnIoErrorCausedIt() {
        assertThat(Failures.isTransient(new StoreException("access denied", new ConnectException("refused")))).isFalse();
        assertThat(Failures.isTransient(new ObjectExistsException("s3://b/n/0/x"))).isFalse();
    }

    @Test
    void wrappedTransientStoreFailureIsTransient() {
        assertThat(Failures.isTransient(new RuntimeException("wrapped", new TransientStoreException("down", new IOException())))).isTrue();
    }

    @Test
    void kafkaRetriableAndTimeoutsAreTransient() {
        assertThat(Failures.isTransient(new RetriableException("r") { })).isTrue();
        assertThat(Failures.isTransient(new TimeoutException("t"))).isTrue();
        assertThat(Failures.isTransient(new java.util.concurrent.TimeoutException("t"))).isTrue();
    }

    @Test
    void aRuntimesOwnRetriableIsTransientWhereItRunsAlsoAsACause() {
        class TryLater extends RuntimeException {
        }
        RuntimeFailureKinds runtime = new RuntimeFailureKinds(t -> t instanceof TryLater, t -> false);
        assertThat(Failures.isTransient(new TryLater(), runtime)).isTrue();
        assertThat(Failures.isTransient(new RuntimeException("wrapped", new TryLater()), runtime)).isTrue();
        assertThat(Failures.isTransient(new TryLater())).as("where it does not run").isFalse();
        assertThat(Failures.isTransient(new StoreException("access denied", new TryLater()), runtime)).as("a fatal store error first")
                .isFalse();
    }

    @Test
    void decidesWithoutConnectsClassesAsTheRestoreCliRunsIt() throws Exception {
        URL[] withoutConnect = {location(Failures.class), location(StoreException.class), location(RetriableException.class)};
        try (URLClassLoader loader = new URLClassLoader(withoutConnect, null)) {
            Method isTransient = loader.loadClass(Failures.class.getName()).getMethod("isTransient", Throwable.class);
            assertThat(isTransient.invoke(null, new IllegalStateException("bug"))).isEqualTo(false);
            assertThat(isTransient.invoke(null, new RuntimeException(new SocketTimeoutException("read")))).isEqualTo(true);
        }
    }

    private static URL location(Class<?> c) {
        return c.getProtectionDomain().getCodeSource().getLocation();
    }

    @Test
    void networkFailuresAreTransient() {
        assertThat(Failures.isTransient(new RuntimeException(new ConnectException("refused")))).isTrue();
        assertThat(Failures.isTransient(new RuntimeException(new SocketTimeoutException("read")))).isTrue();
    }

    @Test
    void consistencyFailuresAreFatal() {
        assertThat(Failures.isTransient(new ChainException("gap"))).isFalse();
        assertThat(Failures.isTransient(new IllegalStateException("bug"))).isFalse();
    }

    @Test
    void aGroupWithMembersIsNotTransientButRecognized() {
        for (Exception e : new Exception[] {new org.apache.kafka.common.errors.GroupNotEmptyException("g"),
                new org.apache.kafka.common.errors.UnknownMemberIdException("m"),
                new org.apache.kafka.common.errors.RebalanceInProgressException("r")}) {
            assertThat(Failures.isGroupNotEmpty(new java.util.concurrent.ExecutionException(e))).as(e.toString()).isTrue();
            assertThat(Failures.isTransient(e)).as(e.toString()).isFalse();
        }
        assertThat(Failures.isGroupNotEmpty(new TimeoutException("t"))).isFalse();
    }

    @Test
    void authorizationFailuresAreRecognized() {
        assertThat(Failures.isAuthorization(new RuntimeException(new org.apache.kafka.common.errors.GroupAuthorizationException("g"))))
                .isTrue();
        assertThat(Failures.isAuthorization(new org.apache.kafka.common.errors.TopicAuthorizationException("t"))).isTrue();
        assertThat(Failures.isAuthorization(new TimeoutException("t"))).isFalse();
    }
}
