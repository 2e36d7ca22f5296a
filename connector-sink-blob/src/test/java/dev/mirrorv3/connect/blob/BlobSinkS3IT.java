package dev.mirrorv3.connect.blob;

import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.awaitChainNext;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.flushAt;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.produceVaried;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.sinkConfig;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.chain.store.s3.S3Settings;
import dev.mirrorv3.chain.store.s3.S3Store;
import dev.mirrorv3.testsupport.Closeables;
import dev.mirrorv3.testsupport.ConnectTestCluster;
import dev.mirrorv3.testsupport.ConnectorConfigs;
import dev.mirrorv3.testsupport.FreezableProxy;
import dev.mirrorv3.testsupport.LogCapture;
import dev.mirrorv3.testsupport.s3.ReplyDroppingProxy;
import dev.mirrorv3.testsupport.s3.S3TestServer;
import dev.mirrorv3.testsupport.s3.S3TestServer.ConditionalWrites;
import java.io.StringWriter;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import javax.management.MBeanServer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.connect.runtime.rest.entities.ConfigInfo;
import org.apache.kafka.connect.runtime.rest.entities.ConfigInfos;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * What only S3 has: a real Connect worker and an in-process S3 server that checks SigV4 signatures of a
 * write-only and a read-only identity. Secrets reach the connector through Connect's FileConfigProvider, as the
 * docs/blob-sink.md recommends; a test then greps the logs and the REST API's answers for them. Also: a lost PutObject reply,
 * every attempt's reply lost, a store without conditional writes, a 20 s outage, a 6 s outage of 12 busy partitions under
 * a small buffer.max.bytes (S3 stopped, and S3 frozen as by SIGSTOP), validate() and wrong or swapped identities. The spine's
 * scenarios (round trip, restart, holes, adversarial objects, lost position, destination ahead) run on S3 in their own classes,
 * parameterized over {@link TestDestinations}; the 5,000-object chain is {@code S3StoreTest}'s.
 */
class BlobSinkS3IT {
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final EnvelopeSettings PARQUET = EnvelopeSettings.parquetBytes();
    private static final String BUCKET = "backups";
    private static final String PREFIX = "kafka/";
    private static final S3TestUsers USERS = new S3TestUsers("admin", "admin-SECRET-0a1b2c", "writer-key-id",
            "writer-SECRET-3d4e5f", "reader-key-id", "reader-SECRET-6a7b8c");
    private static final List<String> SECRETS = List.of(USERS.adminSecret(), USERS.writerSecret(), USERS.readerSecret());

    static ConnectTestCluster cluster;
    static S3TestServer s3;
    static S3Client admin;
    static Function<String, Store> stores;
    static Path secretsFile;
    static final StringWriter logs = new StringWriter();

    @TempDir
    static Path dir;

    @BeforeAll
    static void start() throws Exception {
        LogCapture.appendTo(logs, "s3-it-capture", "%p %c{1} %X{connector.context}%m%n%ex");
        s3 = USERS.start(BUCKET);
        admin = USERS.adminClient(s3);
        S3Settings adminSettings = USERS.adminSettings(s3, BUCKET, PREFIX);
        stores = name -> new S3Store(adminSettings, name);
        secretsFile = dir.resolve("s3.properties");
        Files.writeString(secretsFile, "write.access.key.id=" + USERS.writerId() + "\nwrite.secret.access.key=" + USERS.writerSecret()
                + "\nread.access.key.id=" + USERS.readerId() + "\nread.secret.access.key=" + USERS.readerSecret()
                + "\nwrong.secret=" + USERS.adminSecret() + "\n", StandardCharsets.UTF_8);
        cluster = ConnectTestCluster.start(1, Map.of("config.providers", "file",
                "config.providers.file.class", "org.apache.kafka.common.config.provider.FileConfigProvider"));
    }

    @AfterAll
    static void stop() {
        Closeables.closeAll("the S3 test's worker and clients", cluster, admin, s3);
    }

    private String provided(String key) {
        return "${file:" + secretsFile + ":" + key + "}";
    }

    /** A valid S3 config with the least-privilege identities, fed through the FileConfigProvider. */
    private Map<String, String> s3Config(String topic) {
        Map<String, String> c = sinkConfig(topic, dir, cluster.bootstrapServers());
        c.remove("filesystem.root");
        c.putAll(ConnectorConfigs.s3(s3.endpoint().toString(), BUCKET, provided("write.access.key.id"),
                provided("write.secret.access.key"), provided("read.access.key.id"), provided("read.secret.access.key")));
        c.put("s3.prefix", PREFIX);
        c.put("encryption", "none");
        return c;
    }

    /** S3 reached through {@code proxy}; an object every 50 records, none on time: object 50-99 is the second. */
    private Map<String, String> fiftyRecordObjectsThrough(ReplyDroppingProxy proxy, String topic) {
        Map<String, String> config = s3Config(topic);
        flushAt(config, 50, 600000);
        config.put("s3.endpoint", proxy.endpoint().toString());
        return config;
    }

    private void assertBackupComplete(String name, String topic, int partitions) {
        BlobSinkTestSupport.assertBackupComplete(cluster, stores, name, topic, partitions, WAIT);
    }

    @Test
    void leastPrivilegeIdentitiesFromAConfigProviderAndNoSecretInTheRestApi() {
        String topic = "s3-orders";
        cluster.kafka().createTopic(topic, 2);
        produceVaried(cluster.bootstrapServers(), topic, 2, 1500, 11);
        cluster.deploy("s3-orders", s3Config(topic));
        assertBackupComplete("s3-orders", topic, 2);
        assertThat(admin.listObjectsV2(r -> r.bucket(BUCKET).prefix("kafka/s3-orders/0/")).contents())
                .as("objects at <prefix>/<name>/<partition>/<object>").isNotEmpty();

        String rest = cluster.connect().connectorInfo("s3-orders").config().toString() + cluster.connect().taskConfigs("s3-orders")
                + cluster.connect().connectorStatus("s3-orders");
        SECRETS.forEach(secret -> assertThat(rest).as("REST output").doesNotContain(secret));
        cluster.delete("s3-orders");
    }

    @Test
    void aLostPutReplyIsRecognisedAsOurOwnCommit() {
        String topic = "s3-lost-reply";
        cluster.kafka().createTopic(topic, 1);
        try (ReplyDroppingProxy proxy = ReplyDroppingProxy.start(s3.endpoint())) {
            Map<String, String> config = fiftyRecordObjectsThrough(proxy, topic);
            // The second object's first PutObject commits, but its reply never reaches the task; the SDK retries.
            proxy.dropFirstPutReply(BUCKET, PREFIX + topic + "/0/" + ObjectName.plain(50, 99, EnvelopeFormat.PARQUET).fileName());
            produceVaried(cluster.bootstrapServers(), topic, 1, 200, 51);
            cluster.deploy(topic, config);
            assertBackupComplete(topic, topic, 1);
            assertThat(proxy.droppedReplies()).as("the reply was dropped").isEqualTo(1);
        }
        assertThat(cluster.taskState(topic)).isEqualTo("RUNNING");
        assertThat(logs.toString()).contains("already holds exactly this object").doesNotContain("another writer created");
        cluster.delete(topic);
    }

    @Test
    void aPutWhoseEveryAttemptLostItsReplyIsCompletedByTheRetryNotTakenForAnotherWriter() {
        String topic = "s3-lost-replies";
        cluster.kafka().createTopic(topic, 1);
        String object = ObjectName.plain(50, 99, EnvelopeFormat.PARQUET).fileName();
        try (ReplyDroppingProxy proxy = ReplyDroppingProxy.start(s3.endpoint())) {
            Map<String, String> config = fiftyRecordObjectsThrough(proxy, topic);
            // The first attempt commits; it and the SDK's retries (412s) all lose their replies: the SDK gives up with
            // a transient error although the object is there, and Connect re-delivers.
            String key = PREFIX + topic + "/0/" + object;
            proxy.dropEveryReply("PUT", BUCKET, key);
            produceVaried(cluster.bootstrapServers(), topic, 1, 200, 52);
            cluster.deploy(topic, config);
            Awaitility.await("the SDK gives up on " + key).atMost(WAIT)
                    .until(() -> logs.toString().contains("cannot reach S3 to PutObject s3://" + BUCKET + "/" + key));
            proxy.stopDropping();
            assertBackupComplete(topic, topic, 1);
            assertThat(proxy.droppedReplies()).as("every attempt's reply was dropped").isGreaterThanOrEqualTo(3);
        }
        assertThat(cluster.taskState(topic)).isEqualTo("RUNNING");
        assertThat(logs.toString()).as("the task re-issued the commit")
                .contains("re-issuing the commit of s3://" + BUCKET + "/" + PREFIX + topic + "/0/" + object)
                .doesNotContain("was not written by this task").doesNotContain("another writer created");
        cluster.delete(topic);
    }

    @Test
    void aStoreWithoutConditionalWritesFailsTheTaskNamingIt() {
        String topic = "s3-no-conditional";
        cluster.kafka().createTopic(topic, 1);
        produceVaried(cluster.bootstrapServers(), topic, 1, 10, 53);
        s3.conditionalWrites(ConditionalWrites.NOT_IMPLEMENTED);
        try {
            cluster.deploy(topic, s3Config(topic));
            String trace = cluster.awaitTaskFailure(topic, WAIT);
            assertThat(trace).contains("the S3 store at " + s3.endpoint() + " does not support conditional writes")
                    // the first object is the topic id's record (BackupIdentity), before any chain object
                    .contains("PutObject s3://" + BUCKET + "/" + PREFIX + topic + "/_meta/topic/").contains("If-None-Match: *")
                    .contains("HTTP 501");
            SECRETS.forEach(secret -> assertThat(trace).doesNotContain(secret));
        } finally {
            s3.conditionalWrites(ConditionalWrites.SUPPORTED);
        }
        cluster.delete(topic);
    }

    @Test
    void anS3OutageIsRetriedWithBackoffAndLosesNothing() throws Exception {
        String topic = "s3-outage";
        cluster.kafka().createTopic(topic, 1);
        Map<String, String> config = s3Config(topic);
        flushAt(config, 100, 500);
        config.put("retry.backoff.initial.ms", "250");
        config.put("retry.backoff.max.ms", "2000");
        produceVaried(cluster.bootstrapServers(), topic, 1, 300, 31);
        cluster.deploy("s3-outage", config);
        awaitChainNext(cluster, stores, "s3-outage", PARQUET, Map.of(0, 300L), WAIT);

        s3.stop();
        long recovered;
        try {
            produceVaried(cluster.bootstrapServers(), topic, 1, 500, 32); // arrive while S3 is away
            Thread.sleep(20_000);
            assertThat(cluster.taskState("s3-outage")).as("the task retries, it does not fail").isEqualTo("RUNNING");
        } finally {
            s3.restart();
        }
        long restarted = System.currentTimeMillis();
        assertBackupComplete("s3-outage", topic, 1);
        recovered = System.currentTimeMillis() - restarted;
        assertThat(recovered).as("recovered within twice the maximum backoff (plus the wait's polling)").isLessThan(2 * 2000 + 3000);

        MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
        javax.management.ObjectName task = jmx.queryNames(
                        new javax.management.ObjectName("kafka.connect:type=plugins,connector=s3-outage,task=0,mirror=s3-outage"), null)
                .iterator().next();
        long retries = ((Number) jmx.getAttribute(task, BlobSinkMetrics.RESTARTS_TOTAL)).longValue();
        System.out.printf("S3 outage of 20 s: chain complete %d ms after S3 was back, %d transient failures retried%n", recovered, retries);
        assertThat(retries).as("transient failures retried during the outage, with backoff (~20 s / 2 s)").isBetween(5L, 30L);
        assertThat(cluster.taskState("s3-outage")).isEqualTo("RUNNING");
        cluster.delete("s3-outage");
    }

    /** How S3 goes away in the busy-partitions outage. */
    enum Outage {
        /** Stopped: connections are refused, every request fails at once and its commit is retried. */
        STOPPED,
        /**
         * Frozen, as a SIGSTOP freezes an S3 server process: connections are accepted and requests hang unanswered (no
         * error, no refusal) until the thaw, then are served. The in-process S3 server cannot be sent SIGSTOP, so the task
         * reaches it through a {@link FreezableProxy}, which holds every byte in both directions while frozen and delivers
         * them at the thaw, as the woken process reads its sockets; the held requests and replies are counted
         * ({@link FreezableProxy#heldRequests()}, {@link FreezableProxy#heldReplies()}). Commits hang (30 s attempt timeout),
         * so it is the cap that holds flushes back.
         */
        FROZEN
    }

    /**
     * 12 partitions at up to 3,000 records/s, a 32 KiB cap, S3 away for 6 s once every partition has an object. The
     * premise first: during the outage the cap or a retry held flushes back (the task logged its transient failures), and
     * when frozen, requests were held unanswered and the server served none of the connector's calls until the thaw.
     * Then the result: the task RUNNING in every status sample, every record backed up exactly once.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(Outage.class)
    void anOutageWithManyBusyPartitionsAndASmallBufferCapKeepsTheTaskRunningAndLosesNothing(Outage outage) throws Exception {
        String topic = "s3-outage-busy-" + outage.name().toLowerCase(Locale.ROOT);
        int partitions = 12;
        cluster.kafka().createTopic(topic, partitions);
        Map<String, String> config = s3Config(topic);
        flushAt(config, 200, 500);
        config.put("retry.backoff.initial.ms", "250");
        config.put("retry.backoff.max.ms", "1000");
        config.put("buffer.max.bytes", "32768"); // about 300 records: partitions waiting for their commit or retry fill it
        try (FreezableProxy proxy = FreezableProxy.start(() -> new InetSocketAddress("127.0.0.1", s3.port()))) {
            if (outage == Outage.FROZEN) {
                config.put("s3.endpoint", "http://127.0.0.1:" + proxy.port());
            }
            cluster.deploy(topic, config);
            cluster.awaitRunning(topic, WAIT);
            StatusSampler states = StatusSampler.start(topic);
            AtomicBoolean producing = new AtomicBoolean(true);
            AtomicInteger produced = new AtomicInteger();
            Thread producer = new Thread(() -> produceBusy(topic, partitions, producing, produced));
            producer.start();
            String duringOutage;
            try {
                // The outage must meet flushes: every partition positioned and written to once (an outage while the
                // task still positions its partitions holds back the positioning, not a flush).
                Map<Integer, Long> once = new HashMap<>();
                for (int p = 0; p < partitions; p++) {
                    once.put(p, 1L);
                }
                awaitChainNext(cluster, stores, topic, PARQUET, once, WAIT);
                int logFrom = logs.getBuffer().length();
                if (outage == Outage.FROZEN) {
                    freezeFor6s(proxy, s3.watch(PREFIX + topic + "/"));
                } else {
                    s3.stop();
                    try {
                        Thread.sleep(6_000); // six times retry.backoff.max.ms, records flowing
                    } finally {
                        s3.restart();
                    }
                }
                duringOutage = logs.getBuffer().substring(logFrom);
                Thread.sleep(2_000);
            } finally {
                producing.set(false);
                producer.join();
                states.stop();
            }
            assertAFlushWasHeldBack(topic, duringOutage);
            assertThat(states.failure()).as("the task's failure during the outage").isNull();
            assertThat(states.samples()).as("task status samples through the outage (every 100 ms)").isGreaterThan(50);
            assertThat(states.states()).as("the task's states through the outage (sampled every 100 ms)").containsExactly("RUNNING");
            assertBackupComplete(topic, topic, partitions);
            assertThat(cluster.taskState(topic)).as("after it").isEqualTo("RUNNING");
            System.out.printf("S3 %s for 6 s with %d busy partitions and a 32 KiB buffer cap: %d records backed up exactly once%n",
                    outage.name().toLowerCase(Locale.ROOT), partitions, produced.get());
        } finally {
            cluster.delete(topic);
        }
    }

    /**
     * Freezes the proxy for 6 s and checks that the freeze held: requests were sent to the frozen server and held
     * unanswered (or, when every commit was sent before the freeze and the cap then held further flushes back, their
     * replies were held), and the server served no call on the connector's keys from shortly after the freeze (a request already
     * past the proxy then may still arrive) to the thaw.
     */
    private static void freezeFor6s(FreezableProxy proxy, AtomicInteger connectorCalls) throws InterruptedException {
        int heldBefore = proxy.heldRequests() + proxy.heldReplies();
        proxy.freeze();
        int served;
        int servedAtThaw;
        int held;
        try {
            Thread.sleep(200);
            served = connectorCalls.get();
            Thread.sleep(5_800);
            servedAtThaw = connectorCalls.get();
            held = proxy.heldRequests() + proxy.heldReplies() - heldBefore;
        } finally {
            proxy.thaw();
        }
        System.out.printf("S3 frozen for 6 s: %d request(s) or reply(ies) held until the thaw, %d call(s) on the connector's keys"
                + " served while frozen%n",
                held, servedAtThaw - served);
        // a request, or the reply to one already past the proxy when it froze (a commit that waits for it holds the cap)
        assertThat(held).as("requests to the frozen S3 server, or their replies, held until the thaw").isPositive();
        assertThat(servedAtThaw).as("calls on the connector's keys the S3 server served while frozen").isEqualTo(served);
    }

    /**
     * During the outage the connector's task held flushes back: the cap made a record wait for room past
     * retry.backoff.max.ms, a commit failed and waits for its retry, or the task's write failed and its batch is delivered
     * again after a pause (the task's lines carry Connect's connector context, {@code [<name>|task-0]}).
     */
    private static void assertAFlushWasHeldBack(String connector, String duringOutage) {
        List<String> retries = duringOutage.lines().filter(l -> l.contains("[" + connector + "|task-0]"))
                .filter(l -> l.contains("transient failure")).toList();
        long capWaits = retries.stream().filter(l -> l.contains("buffer.max.bytes (32768) is reached")).count();
        long commitRetries = retries.stream().filter(l -> l.contains("transient failure writing " + connector + "-")).count();
        System.out.printf("held back during the outage: %d wait(s) for room under the cap past retry.backoff.max.ms, %d commit"
                + " retry(ies), %d other retry(ies) of the task's write%n", capWaits, commitRetries,
                retries.size() - capWaits - commitRetries);
        assertThat(retries).as("flushes held back during the outage by the cap or a retry (the task's transient failures)")
                .isNotEmpty();
    }

    /** Up to about 3,000 records/s over the partitions until {@code producing} turns false. */
    private static void produceBusy(String topic, int partitions, AtomicBoolean producing, AtomicInteger produced) {
        Random random = new Random(61);
        try (KafkaProducer<byte[], byte[]> producer = BlobSinkTestSupport.producer(cluster.bootstrapServers())) {
            for (int i = 0; producing.get(); i++) {
                for (int p = 0; p < partitions; p++) {
                    producer.send(BlobSinkTestSupport.variedRecord(topic, p, i, random));
                }
                produced.addAndGet(partitions);
                if (i % 10 == 9) {
                    producer.flush();
                    Thread.sleep(40);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The task's status read every 100 ms from another thread: the states seen, how many reads answered, the first failure. */
    private static final class StatusSampler {
        private final Set<String> states = ConcurrentHashMap.newKeySet();
        private final AtomicInteger samples = new AtomicInteger();
        private final AtomicReference<String> failure = new AtomicReference<>();
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final Thread thread;

        private StatusSampler(String connector) {
            thread = new Thread(() -> {
                while (running.get()) {
                    try {
                        states.add(cluster.taskState(connector));
                        samples.incrementAndGet();
                        String trace = cluster.failureTrace(connector);
                        if (trace != null) {
                            failure.compareAndSet(null, trace);
                        }
                        Thread.sleep(100);
                    } catch (InterruptedException e) {
                        return;
                    } catch (RuntimeException e) {
                        // the REST API busy: the next sample
                    }
                }
            });
        }

        static StatusSampler start(String connector) {
            StatusSampler sampler = new StatusSampler(connector);
            sampler.thread.start();
            return sampler;
        }

        void stop() throws InterruptedException {
            running.set(false);
            thread.join();
        }

        Set<String> states() {
            return states;
        }

        int samples() {
            return samples.get();
        }

        String failure() {
            return failure.get();
        }
    }

    @Test
    void validateReportsMissingIdentitiesAndEncryptionPerField() {
        Map<String, String> config = s3Config("s3-validate");
        config.remove("s3.write.secret.access.key");
        config.put("s3.read.access.key.id", "");
        config.remove("encryption");
        Map<String, List<String>> errors = errors(cluster.validate(BlobSinkConnector.class.getName(), config));
        assertThat(errors.get("s3.write.secret.access.key")).singleElement().asString().contains("required with destination.type=s3");
        assertThat(errors.get("s3.read.access.key.id")).singleElement().asString().contains("required with destination.type=s3");
        assertThat(errors.get("encryption")).singleElement().asString().contains("encryption=none");
        assertThat(errors.get("s3.write.access.key.id")).isEmpty();
    }

    @Test
    void wrongCredentialsAndSwappedIdentitiesFailClearlyWithoutSecrets() {
        Map<String, String> wrong = s3Config("s3-creds");
        wrong.put("s3.read.secret.access.key", provided("wrong.secret"));
        ConfigInfos infos = cluster.validate(BlobSinkConnector.class.getName(), wrong);
        Map<String, List<String>> errors = errors(infos);
        assertThat(errors.get("s3.read.access.key.id")).singleElement().asString()
                .contains("does not accept the credentials of the read identity");
        SECRETS.forEach(secret -> assertThat(infos.toString()).as("validate output").doesNotContain(secret));

        Map<String, String> missingBucket = s3Config("s3-creds");
        missingBucket.put("s3.bucket", "no-such-bucket");
        assertThat(errors(cluster.validate(BlobSinkConnector.class.getName(), missingBucket)).get("s3.bucket")).singleElement()
                .asString().contains("bucket no-such-bucket does not exist");

        String topic = "s3-swapped";
        cluster.kafka().createTopic(topic, 1);
        produceVaried(cluster.bootstrapServers(), topic, 1, 10, 41);
        Map<String, String> swapped = s3Config(topic);
        swapped.put("s3.write.access.key.id", provided("read.access.key.id"));
        swapped.put("s3.write.secret.access.key", provided("read.secret.access.key"));
        swapped.put("s3.read.access.key.id", provided("write.access.key.id"));
        swapped.put("s3.read.secret.access.key", provided("write.secret.access.key"));
        assertThat(errors(cluster.validate(BlobSinkConnector.class.getName(), swapped)).get("s3.read.access.key.id")).singleElement()
                .asString().contains("S3 denied ListObjectsV2 s3://backups/kafka/").contains("to the read identity")
                .contains("s3:ListBucket and s3:GetObject");

        // validate() cannot try the write identity without writing: its first PutObject fails the task instead.
        Map<String, String> readOnlyWriter = s3Config(topic);
        readOnlyWriter.put("s3.write.access.key.id", provided("read.access.key.id"));
        readOnlyWriter.put("s3.write.secret.access.key", provided("read.secret.access.key"));
        cluster.deploy(topic, readOnlyWriter);
        String trace = cluster.awaitTaskFailure(topic, WAIT);
        assertThat(trace).contains("S3 denied PutObject s3://backups/kafka/s3-swapped/_meta/topic/").contains("the write identity")
                .contains("s3:PutObject");
        SECRETS.forEach(secret -> assertThat(trace).doesNotContain(secret));
        cluster.delete(topic);

        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> logs.toString().contains("S3 denied"));
        String captured = logs.toString();
        assertThat(captured).as("captured worker logs").isNotEmpty();
        SECRETS.forEach(secret -> assertThat(captured).as("worker logs").doesNotContain(secret));
    }

    private static Map<String, List<String>> errors(ConfigInfos infos) {
        Map<String, List<String>> errors = new HashMap<>();
        for (ConfigInfo info : infos.configs()) {
            errors.put(info.configValue().name(), info.configValue().errors());
        }
        return errors;
    }
}
