package dev.mirrorv3.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.ChainException;
import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.crypto.KeyRing;
import dev.mirrorv3.chain.crypto.KeysDirException;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import dev.mirrorv3.chain.envelope.ValueTypeException;
import dev.mirrorv3.chain.manifest.ManifestException;
import dev.mirrorv3.chain.store.ObjectExistsException;
import dev.mirrorv3.chain.store.StoreException;
import dev.mirrorv3.chain.store.TransientStoreException;
import dev.mirrorv3.chain.store.s3.S3AccessException;
import dev.mirrorv3.chain.write.ChainChangedException;
import dev.mirrorv3.chain.write.ChainMovedOnException;
import dev.mirrorv3.kafka.FailureVerdict.Isolation;
import dev.mirrorv3.kafka.FailureVerdict.Kind;
import dev.mirrorv3.kafka.FailureVerdict.Scope;
import java.lang.reflect.Constructor;
import java.util.List;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.junit.jupiter.api.Test;

/** The table of docs/design.md, "Failures: one classifier, with a scope", row by row. */
class FailureVerdictTest {

    private static void assertVerdict(Throwable t, Scope scope, Kind kind) {
        FailureVerdict v = FailureVerdict.of(t);
        assertThat(v.scope()).as("scope of %s", t).isEqualTo(scope);
        assertThat(v.kind()).as("kind of %s", t).isEqualTo(kind);
    }

    @Test
    void transientInputOutputIsRetriedAtOnceWithItsState() {
        assertVerdict(new TimeoutException("t"), Scope.PARTITION, Kind.TRANSIENT);
        assertVerdict(new TransientStoreException("cannot reach S3", null), Scope.PARTITION, Kind.TRANSIENT);
        assertThat(FailureVerdict.of(new TimeoutException("t")).isolates()).isFalse();
    }

    @Test
    void anotherWritersObjectALostPositionAndABadRecordAreAPartitionsAndNeedAnOperator() {
        assertVerdict(new ChainException("another writer created 00000000000000000010-00000000000000000019.parquet"), Scope.PARTITION,
                Kind.NEEDS_OPERATOR);
        assertVerdict(new ObjectExistsException("/b/t/0/00000000000000000010-00000000000000000019.parquet"), Scope.PARTITION,
                Kind.NEEDS_OPERATOR);
        assertVerdict(new PositionException("lost position for t-0"), Scope.PARTITION, Kind.NEEDS_OPERATOR);
        assertVerdict(new PartitionException("destination stored the record at offset 11"), Scope.PARTITION, Kind.NEEDS_OPERATOR);
        assertVerdict(new ValueTypeException("not valid UTF-8"), Scope.PARTITION, Kind.NEEDS_OPERATOR);
        assertThat(FailureVerdict.of(new PositionException("lost position")).isolates()).isTrue();
    }

    /**
     * The chain moved on under a manifest that continues its hash chain (an old task instance closed the partition late):
     * the partition is opened again by itself, from the chain's new end.
     */
    @Test
    void theChainMovingOnUnderAManifestThatContinuesItClearsByItself() {
        assertVerdict(new ChainMovedOnException("/b/t/0/00000000000000000010-00000000000000000019.parquet follow the last object"
                + " this task wrote or found"), Scope.PARTITION, Kind.CLEARS_BY_ITSELF);
        assertThat(FailureVerdict.of(new ChainMovedOnException("moved on")).isolates()).isTrue();
    }

    /** A manifest changed, gone or another writer's, and an object a manifest records that is gone: the partition's. */
    @Test
    void aManifestProblemIsThePartitionsAndNeedsAnOperator() {
        assertVerdict(new ManifestException("/b/t/_manifest/0/00000000000000000000-00000000000000000019.json is not this"
                + " partition's manifest"), Scope.PARTITION, Kind.NEEDS_OPERATOR);
        assertVerdict(new ChainChangedException("/b/t/_manifest/0/00000000000000000000-00000000000000000019.json was changed"
                + " after it was written"), Scope.PARTITION, Kind.NEEDS_OPERATOR);
        assertVerdict(new ChainChangedException("/b/t/0/00000000000000000020-00000000000000000029.parquet is gone, and the"
                + " manifest records it"), Scope.PARTITION, Kind.NEEDS_OPERATOR);
        assertVerdict(new ObjectExistsException("/b/t/_manifest/0/00000000000000000020-00000000000000000039.json"), Scope.PARTITION,
                Kind.NEEDS_OPERATOR); // a zombie's manifest racing the live task's name
    }

    @Test
    void aRecreatedTopicConcernsEveryPartitionOfIt() {
        FailureVerdict v = FailureVerdict.of(PositionException.ofTopic("orders", "source topic orders was deleted and created again"));
        assertThat(v.scope()).isEqualTo(Scope.PARTITION);
        assertThat(v.topicWide()).hasValue("orders");
        assertThat(FailureVerdict.of(new PositionException("lost position")).topicWide()).isEmpty();
    }

    @Test
    void aMissingKeyIdAndOnePrefixRefusedClearByThemselves() throws Exception {
        RuntimeException missing = null;
        try {
            KeyRing.empty("keys dir").requireKeysFor("/b/t/0", List.of(new ObjectName(0, 9, EnvelopeFormat.PARQUET, "k2")));
        } catch (RuntimeException e) {
            missing = e;
        }
        assertVerdict(missing, Scope.PARTITION, Kind.CLEARS_BY_ITSELF);
        FailureVerdict denied = FailureVerdict.of(s3(S3AccessException.Problem.DENIED));
        assertThat(denied.kind()).isEqualTo(Kind.CLEARS_BY_ITSELF);
        assertThat(denied.refused()).as("escalates when every partition is refused").isTrue();
    }

    @Test
    void credentialsConfigurationAndUnknownFailuresAreTheTasks() throws Exception {
        assertVerdict(s3(S3AccessException.Problem.CREDENTIALS), Scope.TASK, Kind.NEEDS_OPERATOR);
        assertVerdict(s3(S3AccessException.Problem.NO_BUCKET), Scope.TASK, Kind.NEEDS_OPERATOR);
        assertVerdict(s3(S3AccessException.Problem.OTHER), Scope.TASK, Kind.NEEDS_OPERATOR);
        assertVerdict(new TopicAuthorizationException("denied"), Scope.TASK, Kind.NEEDS_OPERATOR);
        assertVerdict(new KeysDirException("encryption.key.id: /keys/k9 does not exist"), Scope.TASK, Kind.NEEDS_OPERATOR);
        assertVerdict(new StoreException("cannot put as write identity: odd"), Scope.TASK, Kind.NEEDS_OPERATOR);
        assertVerdict(new IllegalStateException("a bug"), Scope.TASK, Kind.NEEDS_OPERATOR);
    }

    @Test
    void withPartitionFailureTaskNothingIsIsolated() {
        FailureVerdict v = FailureVerdict.of(new PositionException("lost position")).under(Isolation.TASK);
        assertThat(v.scope()).isEqualTo(Scope.TASK);
        assertThat(v.isolates()).isFalse();
        assertThat(FailureVerdict.of(new TimeoutException("t")).under(Isolation.TASK).kind()).as("still retried at once")
                .isEqualTo(Kind.TRANSIENT);
        assertThat(Isolation.fromConfig("Partition")).isEqualTo(Isolation.PARTITION);
    }

    /** S3Errors builds these from S3's replies; the constructor is the store's own. */
    private static S3AccessException s3(S3AccessException.Problem problem) throws Exception {
        Constructor<S3AccessException> c = S3AccessException.class.getDeclaredConstructor(S3AccessException.Problem.class, String.class,
                String.class, Throwable.class);
        c.setAccessible(true);
        return c.newInstance(problem, "write", "S3 refused PutObject", null);
    }

    @Test
    void aRuntimesBadRecordIsThePartitionsAndNeedsAnOperator() {
        class BadRecord extends RuntimeException {
        }
        RuntimeFailureKinds runtime = new RuntimeFailureKinds(t -> false, t -> t instanceof BadRecord);
        FailureVerdict v = FailureVerdict.of(new RuntimeException("task", new BadRecord()), runtime);
        assertThat(v.scope()).isEqualTo(Scope.PARTITION);
        assertThat(v.kind()).isEqualTo(Kind.NEEDS_OPERATOR);
        assertThat(FailureVerdict.of(new BadRecord()).scope()).as("where the runtime does not run").isEqualTo(Scope.TASK);
    }
}
