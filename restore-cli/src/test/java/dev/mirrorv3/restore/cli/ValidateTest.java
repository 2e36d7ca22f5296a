package dev.mirrorv3.restore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code validate}: the connector's own checks per field, offline and online (no Kafka running). */
class ValidateTest {
    @TempDir
    Path dir;

    private static final String GOOD = "\"connector.class\":\"dev.mirrorv3.connect.blob.BlobSinkConnector\",\"topics\":\"orders\","
            + "\"key.converter\":\"org.apache.kafka.connect.converters.ByteArrayConverter\","
            + "\"value.converter\":\"org.apache.kafka.connect.converters.ByteArrayConverter\","
            + "\"header.converter\":\"org.apache.kafka.connect.converters.ByteArrayConverter\","
            + "\"consumer.override.auto.offset.reset\":\"none\",\"consumer.override.isolation.level\":\"read_committed\"";

    private Path file(String name, String json) throws Exception {
        Path f = dir.resolve(name);
        Files.writeString(f, json);
        return f;
    }

    @Test
    void aGoodConfigPassesOfflineAndOnline() throws Exception {
        Path good = file("good.json", "{\"name\":\"orders-backup\",\"config\":{" + GOOD + ",\"filesystem.root\":\"" + dir
                + "\",\"source.admin.bootstrap.servers\":\"${file:/etc/nonexistent/secret.properties:bootstrap}\"}}");
        CliRun offline = CliRun.run("validate", "--offline", "--connector-config", good.toString());
        assertThat(offline.exitCode()).as(offline.toString()).isZero();
        assertThat(offline.out()).isEqualTo(good + ": ok (offline)\n");
        CliRun online = CliRun.run("validate", "--connector-config", good.toString());
        assertThat(online.exitCode()).as(online.toString()).isEqualTo(1);
        assertThat(online.err()).contains("cannot resolve the config providers", "secret.properties");
    }

    @Test
    void aDeprecatedSettingNameIsAWarningNotAnError() throws Exception {
        Path old = file("old.json", "{\"name\":\"orders-backup\",\"config\":{" + GOOD + ",\"filesystem.root\":\"" + dir
                + "\",\"source.admin.bootstrap.servers\":\"k:9092\",\"source.admin.timeout.ms\":\"2000\"}}");
        CliRun r = CliRun.run("validate", "--offline", "--connector-config", old.toString());
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).isEqualTo(old + ": ok (offline)\n");
        assertThat(r.err()).isEqualTo(old + ": warning: source.admin.timeout.ms is deprecated: rename it to admin.timeout.ms (same"
                + " meaning; the old name still works)\n");
    }

    @Test
    void badConfigsAreReportedPerField() throws Exception {
        Path bad = file("bad.json", "{\"connector.class\":\"dev.mirrorv3.connect.blob.BlobSinkConnector\",\"topics\":\"a,b\","
                + "\"key.converter\":\"org.apache.kafka.connect.json.JsonConverter\",\"format\":\"xml\",\"flush.max.records\":\"0\","
                + "\"filesystem.root\":\"relative/dir\",\"errors.tolerance\":\"all\",\"transforms\":\"x\","
                + "\"source.admin.bootstrap.servers\":\"localhost:1\"}");
        Path good = file("good.json", "{" + GOOD + ",\"filesystem.root\":\"" + dir + "\",\"source.admin.bootstrap.servers\":\"k:9092\"}");
        CliRun r = CliRun.run("validate", "--offline", "--connector-config", bad.toString(), good.toString());
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
        assertThat(r.out()).isEqualTo(good + ": ok (offline)\n");
        assertThat(r.err()).contains(
                bad + ": consumer.override.auto.offset.reset: set consumer.override.auto.offset.reset=none",
                bad + ": consumer.override.isolation.level: set consumer.override.isolation.level=read_committed",
                bad + ": key.converter: the backup keeps the records' exact bytes",
                bad + ": value.converter: ",
                bad + ": format: ",
                bad + ": flush.max.records: ",
                bad + ": filesystem.root: must be an absolute path",
                bad + ": errors.tolerance: ",
                bad + ": transforms: ",
                bad + ": topics: several topics would share one chain directory");
        assertThat(r.err()).doesNotContain("cannot reach the source cluster");
    }

    @Test
    void onlineChecksReachTheSourceClusterWithinTheirTimeout() throws Exception {
        Path f = file("down.json", "{" + GOOD + ",\"filesystem.root\":\"" + dir + "\",\"source.admin.bootstrap.servers\":\"localhost:1\"}");
        long start = System.nanoTime();
        CliRun r = CliRun.run("validate", "--connector-config", f.toString());
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
        assertThat(r.err()).contains("source.admin.bootstrap.servers: cannot reach the source cluster at localhost:1 within 5 s");
        assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(20_000);
        Path other = file("other.json", "{\"connector.class\":\"io.example.OtherSink\"}");
        CliRun o = CliRun.run("validate", "--offline", "--connector-config", other.toString());
        assertThat(o.exitCode()).isEqualTo(1);
        assertThat(o.err()).contains("io.example.OtherSink is not a mirror-v3 connector");
    }

    @Test
    void anUnreachableS3EndpointIsOneLineOfOurs() throws Exception {
        Path f = file("s3.json", "{" + GOOD + ",\"destination.type\":\"s3\",\"s3.endpoint\":\"https://s3.invalid\","
                + "\"s3.region\":\"eu-central-1\",\"s3.bucket\":\"acme-kafka-backups\",\"s3.prefix\":\"prod\","
                + "\"s3.write.access.key.id\":\"w\",\"s3.write.secret.access.key\":\"ws\",\"s3.read.access.key.id\":\"r\","
                + "\"s3.read.secret.access.key\":\"rs\",\"encryption\":\"none\",\"source.admin.bootstrap.servers\":\"localhost:1\"}");
        CliRun r = CliRun.run("validate", "--connector-config", f.toString());
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
        // .invalid never resolves (RFC 6761); virtual-hosted style puts the bucket in front of the endpoint's host
        assertThat(r.err().lines().filter(l -> l.startsWith(f + ": s3.")).toList()).as(r.toString()).containsExactly(f
                + ": s3.endpoint: cannot reach s3://acme-kafka-backups/prod: unknown host acme-kafka-backups.s3.invalid (one"
                + " ListObjectsV2 within 5 s; check s3.endpoint, s3.region and the network to it)");
        assertThat(r.err()).doesNotContain("SDK", "UnknownHostException", "See cause");
    }
}
