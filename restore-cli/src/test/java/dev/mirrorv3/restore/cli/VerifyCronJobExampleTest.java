package dev.mirrorv3.restore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.ParseResult;

/** examples/kubernetes/verify-cronjob.yaml runs a read-only verify that the CLI accepts as it is written there. */
class VerifyCronJobExampleTest {
    @Test
    void theCronJobsArgumentsAreAVerifyOnlyRunThatReportsItsResult() throws Exception {
        JsonNode job = new ObjectMapper(new YAMLFactory())
                .readTree(Path.of("..", "examples", "kubernetes", "verify-cronjob.yaml").toFile());
        assertThat(job.path("kind").asText()).isEqualTo("CronJob");
        JsonNode container = job.at("/spec/jobTemplate/spec/template/spec/containers/0");
        List<String> args = new ArrayList<>();
        container.path("args").forEach(a -> args.add(a.asText()));
        ParseResult parsed = Main.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()), null)
                .parseArgs(args.toArray(String[]::new));
        ParseResult restore = parsed.subcommand();
        assertThat(restore.commandSpec().name()).isEqualTo("restore");
        assertThat(restore.hasMatchedOption("--verify-only")).isTrue();
        assertThat(restore.hasMatchedOption("--pushgateway") || restore.hasMatchedOption("--metrics-file")).isTrue();
        assertThat(restore.hasMatchedOption("--bootstrap-servers")).as("verify never touches Kafka").isFalse();
        assertThat(container.path("securityContext").path("readOnlyRootFilesystem").asBoolean()).isTrue();
    }
}
