package dev.mirrorv3.restore.cli.validate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.restore.cli.CliRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
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

    /** Validates the file offline, which must pass: exit status 0 and the file named ok; returns the run. */
    private static CliRun passesOffline(Path config) {
        CliRun r = CliRun.run("validate", "--offline", "--connector-config", config.toString());
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).isEqualTo(config + ": ok (offline)\n");
        return r;
    }

    @Test
    void aGoodConfigPassesOfflineAndOnline() throws Exception {
        Path good = file("good.json", "{\"name\":\"orders-backup\",\"config\":{" + GOOD + ",\"filesystem.root\":\"" + dir
                + "\",\"source.admin.bootstrap.servers\":\"${file:/etc/nonexistent/secret.properties:bootstrap}\"}}");
        passesOffline(good);
        CliRun online = CliRun.run("validate", "--connector-config", good.toString());
        assertThat(online.exitCode()).as(online.toString()).isEqualTo(1);
        assertThat(online.err()).contains("cannot resolve the config providers", "secret.properties");
    }

    @Test
    void aDeprecatedSettingNameIsAWarningNotAnError() throws Exception {
        Path old = file("old.json", "{\"name\":\"orders-backup\",\"config\":{" + GOOD + ",\"filesystem.root\":\"" + dir
                + "\",\"source.admin.bootstrap.servers\":\"k:9092\",\"source.admin.timeout.ms\":\"2000\"}}");
        CliRun r = passesOffline(old);
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
    @Test
    void connectsOwnConnectorLevelRulesAreCheckedOffline() throws Exception {
        String base = GOOD.replace("\"topics\":\"orders\",", "") + ",\"filesystem.root\":\"" + dir + "\","
                + "\"source.admin.bootstrap.servers\":\"k:9092\"";
        String tooLong = "a".repeat(250);
        Map<String, String> cases = new LinkedHashMap<>();
        cases.put("\"topics\":\"orders\",\"tasks.max\":\"abc\"",
                "tasks.max: Invalid value abc for configuration tasks.max: Not a number of type INT");
        cases.put("\"topics\":\"orders\",\"tasks.max\":\"0\"",
                "tasks.max: Invalid value 0 for configuration tasks.max: Value must be at least 1");
        cases.put("\"tasks.max\":\"1\"", "topics: Must configure one of topics or topics.regex");
        cases.put("\"topics\":\"bad topic!\"", "topics: Topic name is invalid: 'bad topic!' contains one or more characters other"
                + " than ASCII alphanumerics, '.', '_' and '-'");
        cases.put("\"topics\":\"orders,..\"", "topics: Topic name is invalid: '..' is not allowed");
        cases.put("\"topics\":\"" + tooLong + "\"", "topics: Topic name is invalid: the length of '" + tooLong + "' is longer than the"
                + " max allowed length 249");
        cases.put("\"topics\":\"orders, orders\",\"destination.name\":\"${topic}\"", "topics: topic orders is listed twice");
        cases.put("\"topics\":\"orders\",\"key.converter\":\"not a class!\"", "key.converter: 'not a class!' is not a class name");
        cases.put("\"topics\":\"@TOPIC@\"", "topics: @TOPIC@ is a placeholder nobody filled in");
        cases.put("\"topics\":\"orders\",\"destination.name\":\"${TOPIC}\"",
                "destination.name: ${TOPIC} is a placeholder nobody filled in");
        int i = 0;
        for (Map.Entry<String, String> c : cases.entrySet()) {
            Path f = file("case" + i++ + ".json", "{" + base + "," + c.getKey() + "}");
            CliRun r = CliRun.run("validate", "--offline", "--connector-config", f.toString());
            assertThat(r.exitCode()).as(c.getKey() + "\n" + r).isEqualTo(1);
            assertThat(r.err()).as(c.getKey()).contains(f + ": " + c.getValue());
        }
    }

    @Test
    void anUnfilledPlaceholderIsRefusedOnlineToo() throws Exception {
        Path f = file("template.json", "{" + GOOD + ",\"filesystem.root\":\"" + dir + "\","
                + "\"source.admin.bootstrap.servers\":\"@BOOTSTRAP_SERVERS@\"}");
        CliRun r = CliRun.run("validate", "--connector-config", f.toString());
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
        assertThat(r.err()).contains(f + ": source.admin.bootstrap.servers: @BOOTSTRAP_SERVERS@ is a placeholder nobody filled in"
                + " (the worker would take it literally)", f + ": source.admin.bootstrap.servers: cannot build an admin client for the"
                + " source cluster from @BOOTSTRAP_SERVERS@ (Invalid url in bootstrap.servers: @BOOTSTRAP_SERVERS@)");
        assertThat(r.err()).doesNotContain("error: ", "Failed to create new KafkaAdminClient");
    }

    @Test
    void anUnknownSettingIsAWarningWithTheNearestKnownName() throws Exception {
        Path f = file("typo.json", "{" + GOOD + ",\"filesystem.root\":\"" + dir + "\",\"source.admin.bootstrap.servers\":\"k:9092\","
                + "\"flush.max.record\":\"10\",\"consumer.overide.max.poll.records\":\"10\",\"colour\":\"blue\"}");
        CliRun r = passesOffline(f);
        assertThat(r.err()).isEqualTo(f + ": warning: colour is not a setting of this connector or of Connect, and a worker ignores"
                + " it: check its name in docs/configuration.md\n"
                + f + ": warning: consumer.overide.max.poll.records is not a setting of this connector or of Connect, and a worker"
                + " ignores it: did you mean consumer.override.max.poll.records?\n"
                + f + ": warning: flush.max.record is not a setting of this connector or of Connect, and a worker ignores it: did"
                + " you mean flush.max.records?\n");
    }
}
