package dev.mirrorv3.restore.cli.validate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.restore.cli.CliRun;
import dev.mirrorv3.testsupport.KafkaTestBroker;
import dev.mirrorv3.testsupport.s3.S3MockServer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mirror-v3 validate} (online) of a blob sink asking for an Object Lock retention per object: it asks S3 whether
 * the bucket has Object Lock (GetObjectLockConfiguration with the read identity) and refuses the settings on a bucket
 * without it, naming the setting; on a bucket with it the config is valid. Adobe's S3Mock keeps a bucket's Object Lock
 * configuration; the source cluster is a real broker, so that a valid config passes as a whole.
 */
class ValidateObjectLockIT {
    @RegisterExtension
    static final S3MockServer S3MOCK = new S3MockServer();

    static KafkaTestBroker kafka;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() {
        S3MOCK.createBucket("locked", true);
        S3MOCK.createBucket("plain", false);
        kafka = KafkaTestBroker.start();
    }

    @AfterAll
    static void stop() {
        if (kafka != null) {
            kafka.close();
        }
    }

    private Path config(String bucket, String lockSettings) throws Exception {
        Path f = dir.resolve(bucket + ".json");
        Files.writeString(f, "{\"name\":\"orders-backup\",\"config\":{"
                + "\"connector.class\":\"dev.mirrorv3.connect.blob.BlobSinkConnector\",\"topics\":\"orders\","
                + "\"key.converter\":\"org.apache.kafka.connect.converters.ByteArrayConverter\","
                + "\"value.converter\":\"org.apache.kafka.connect.converters.ByteArrayConverter\","
                + "\"header.converter\":\"org.apache.kafka.connect.converters.ByteArrayConverter\","
                + "\"consumer.override.auto.offset.reset\":\"none\",\"consumer.override.isolation.level\":\"read_committed\","
                + "\"source.admin.bootstrap.servers\":\"" + kafka.bootstrapServers() + "\","
                + "\"destination.type\":\"s3\",\"s3.endpoint\":\"" + S3MOCK.endpoint() + "\",\"s3.region\":\"us-east-1\","
                + "\"s3.bucket\":\"" + bucket + "\",\"s3.prefix\":\"prod\",\"s3.path.style.access\":\"true\","
                + "\"s3.write.access.key.id\":\"writer\",\"s3.write.secret.access.key\":\"writer-secret\","
                + "\"s3.read.access.key.id\":\"reader\",\"s3.read.secret.access.key\":\"reader-secret\","
                + "\"encryption\":\"none\"" + lockSettings + "}}");
        return f;
    }

    @Test
    void theRetentionIsRefusedOnABucketWithoutObjectLockAndAcceptedOnOneWithIt() throws Exception {
        String lock = ",\"s3.object.lock.mode\":\"compliance\",\"s3.object.lock.retain.days\":\"30\"";
        Path plain = config("plain", lock);
        CliRun refused = CliRun.run("validate", "--connector-config", plain.toString());
        assertThat(refused.exitCode()).as(refused.toString()).isEqualTo(1);
        assertThat(refused.out()).isEmpty();
        assertThat(refused.err()).as(refused.toString()).isEqualTo(plain + ": s3.object.lock.mode: bucket plain does not have S3"
                + " Object Lock enabled (GetObjectLockConfiguration s3://plain answered HTTP 400): a retention per object"
                + " (s3.object.lock.mode, s3.object.lock.retain.days) needs a bucket created with Object Lock (or enabled on it);"
                + " enable it, or remove both settings\n");

        Path locked = config("locked", lock);
        CliRun accepted = CliRun.run("validate", "--connector-config", locked.toString());
        assertThat(accepted.exitCode()).as(accepted.toString()).isZero();
        assertThat(accepted.out()).isEqualTo(locked + ": ok\n");

        Path noLock = config("plain", "");
        CliRun without = CliRun.run("validate", "--connector-config", noLock.toString());
        assertThat(without.exitCode()).as("without the settings the bucket's Object Lock is not asked: " + without).isZero();
    }
}
