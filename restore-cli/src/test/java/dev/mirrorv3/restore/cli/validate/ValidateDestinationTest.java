package dev.mirrorv3.restore.cli.validate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.restore.cli.CliRun;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code validate} of a connector with several destinations: every destination checked, each problem on its prefixed
 * key; {@code --destination NAME} reports that destination's problems and the connector's, not the others'.
 */
class ValidateDestinationTest {
    @TempDir
    Path dir;

    private static final String BYTES = "org.apache.kafka.connect.converters.ByteArrayConverter";

    /** A tee whose offsite (S3) destination lacks its bucket; {@code extra} is added to the config. */
    private Path tee(String extra) throws Exception {
        Path f = dir.resolve("tee.json");
        Files.writeString(f, "{\"name\":\"orders-backup\",\"config\":{\"connector.class\":\"dev.mirrorv3.connect.blob.BlobSinkConnector\","
                + "\"topics\":\"orders\",\"key.converter\":\"" + BYTES + "\",\"value.converter\":\"" + BYTES + "\",\"header.converter\":\""
                + BYTES + "\",\"consumer.override.auto.offset.reset\":\"none\",\"consumer.override.isolation.level\":\"read_committed\","
                + "\"source.admin.bootstrap.servers\":\"k:9092\",\"destinations\":\"local,offsite\","
                + "\"destinations.local.filesystem.root\":\"" + dir.resolve("local") + "\","
                + "\"destinations.offsite.destination.type\":\"s3\",\"destinations.offsite.s3.region\":\"eu-central-1\","
                + "\"destinations.offsite.s3.write.access.key.id\":\"w\",\"destinations.offsite.s3.write.secret.access.key\":\"ws\","
                + "\"destinations.offsite.s3.read.access.key.id\":\"r\",\"destinations.offsite.s3.read.secret.access.key\":\"rs\","
                + "\"destinations.offsite.encryption\":\"none\"" + extra + "}}");
        return f;
    }

    @Test
    void everyDestinationIsCheckedWithItsProblemsOnItsPrefixedKeys() throws Exception {
        Path f = tee("");
        CliRun r = CliRun.run("validate", "--offline", "--connector-config", f.toString());
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
        assertThat(r.err()).isEqualTo(f + ": destinations.offsite.s3.bucket: required with destination.type=s3: the bucket that holds"
                + " the backup's chains\n");
    }

    @Test
    void destinationLimitsTheProblemsToThatDestinationsAndTheConnectors() throws Exception {
        Path f = tee("");
        CliRun local = CliRun.run("validate", "--offline", "--destination", "local", "--connector-config", f.toString());
        assertThat(local.exitCode()).as(local.toString()).isZero();
        assertThat(local.out()).isEqualTo(f + ": ok (offline)\n");

        CliRun offsite = CliRun.run("validate", "--offline", "--destination", "offsite", "--connector-config", f.toString());
        assertThat(offsite.exitCode()).as(offsite.toString()).isEqualTo(1);
        assertThat(offsite.err()).contains(f + ": destinations.offsite.s3.bucket: required with destination.type=s3");

        Path both = tee(",\"transforms\":\"x\",\"destinations.local.format\":\"xml\"");
        CliRun connector = CliRun.run("validate", "--offline", "--destination", "offsite", "--connector-config", both.toString());
        assertThat(connector.err()).as("the connector's own settings stay checked").contains(both + ": transforms: ")
                .contains("destinations.offsite.s3.bucket").doesNotContain("destinations.local.format");
    }

    @Test
    void aDestinationTheConnectorLacksIsAProblemNamingItsDestinations() throws Exception {
        Path f = tee("");
        CliRun r = CliRun.run("validate", "--offline", "--destination", "elsewhere", "--connector-config", f.toString());
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
        assertThat(r.err()).startsWith(f + ": --destination elsewhere: the connector has no destination elsewhere: it writes [local,"
                + " offsite]\n");

        Path single = dir.resolve("single.json");
        Files.writeString(single, Files.readString(f).replace("\"destinations\":\"local,offsite\",", "")
                .replaceAll("\"destinations\\.[^\"]*\":\"[^\"]*\",?", "").replace(",}}", ",\"filesystem.root\":\"" + dir + "\"}}"));
        CliRun one = CliRun.run("validate", "--offline", "--destination", "local", "--connector-config", single.toString());
        assertThat(one.exitCode()).as(one.toString()).isEqualTo(1);
        assertThat(one.err()).isEqualTo(single + ": --destination local: the connector has one destination and no destinations"
                + " setting: do not name one (found local)\n");
    }
}
