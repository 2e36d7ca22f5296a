package dev.mirrorv3.restore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mirrorv3.testsupport.Archives;
import dev.mirrorv3.testsupport.BundledNotices;
import dev.mirrorv3.testsupport.GeneratedDocs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI archive (mirror-v3-cli-&lt;version&gt;.zip) as an operator or docker/Dockerfile installs it: bin/mirror-v3 and
 * lib/ with the jars, LICENSE and NOTICE (whose CLI section lists the notices of every jar in lib/); and the
 * Dockerfile's ENTRYPOINT and JAVA_OPTS, run against the unpacked archive (no image can be built here) with this JVM's
 * java, which is what the image's JRE 17 stands for, also with the verify CronJob example's arguments.
 */
class CliArchiveIT {
    private static final Path DOCKERFILE = Path.of("..", "docker", "Dockerfile");
    private static final Path REPO_NOTICE = Path.of("..", "NOTICE");
    private static final String NOTICES_START = "==== begin: notices of the CLI archive's jars ====";
    private static final String NOTICES_END = "==== end: notices of the CLI archive's jars ====";
    private static final String IMAGE_HOME = "/opt/mirror-v3/";
    private static final Pattern ENTRYPOINT = Pattern.compile("(?m)^ENTRYPOINT (\\[.*\\])$");
    private static final Pattern JAVA_OPTS = Pattern.compile("(?m)^ENV JAVA_OPTS=\"([^\"]*)\"$");

    @TempDir
    Path unpacked;

    private Path unzip() throws IOException {
        Path zip = Path.of(System.getProperty("cli.zip"));
        return Archives.unzip(zip, unpacked).resolve(zip.getFileName().toString().replaceFirst("\\.zip$", ""));
    }

    @Test
    void holdsTheLauncherTheJarsTheLicenseAndTheNoticesOfEveryJar() throws IOException {
        Path root = unzip();
        assertThat(root.resolve("bin/mirror-v3")).isExecutable();
        List<String> lib;
        try (Stream<Path> jars = Files.list(root.resolve("lib"))) {
            lib = jars.map(p -> p.getFileName().toString()).sorted().toList();
        }
        assertThat(lib).anyMatch(n -> n.startsWith("restore-cli-")).anyMatch(n -> n.startsWith("kafka-clients-"))
                .anyMatch(n -> n.startsWith("picocli-")).anyMatch(n -> n.startsWith("log4j-core-"))
                .noneMatch(n -> n.endsWith("-all.jar")).noneMatch(n -> n.startsWith("junit") || n.startsWith("connect-runtime"));
        GeneratedDocs.checkSection(REPO_NOTICE, NOTICES_START, NOTICES_END, BundledNotices.section(root.resolve("lib")),
                "CLI jars' notices");
        assertThat(root.resolve("LICENSE")).hasSameTextualContentAs(Path.of("..", "LICENSE"));
        if (!GeneratedDocs.updatingDocs()) {
            assertThat(root.resolve("NOTICE")).as("NOTICE in the zip").hasSameTextualContentAs(REPO_NOTICE);
        }
    }

    @Test
    void theDockerfilesEntrypointRunsTheArchiveOnAnOfficialJre17() throws Exception {
        Path root = unzip();
        Entrypoint image = entrypoint(root);

        Run help = run(image.command(), image.javaOpts(), "--help");
        assertThat(help.exitCode).as(help.toString()).isZero();
        assertThat(help.out).as(help.toString()).contains("Usage: mirror-v3", "restore", "status", "validate", "decrypt");

        Path example = Path.of("..", "examples", "blob-sink-s3.json").toAbsolutePath().normalize();
        Run valid = run(image.command(), image.javaOpts(), "validate", "--offline", "--connector-config", example.toString());
        assertThat(valid.exitCode).as(valid.toString()).isZero();
        assertThat(valid.out).as(valid.toString()).isEqualTo(example + ": ok (offline)\n");

        Path broken = unpacked.resolve("broken.json");
        Files.writeString(broken, Files.readString(example, StandardCharsets.UTF_8).replace("\"s3.bucket\"", "\"s3.bucket.typo\""),
                StandardCharsets.UTF_8);
        Run invalid = run(image.command(), image.javaOpts(), "validate", "--offline", "--connector-config", broken.toString());
        assertThat(invalid.exitCode).as(invalid.toString()).isEqualTo(1);
        assertThat(invalid.err).as(invalid.toString()).contains(broken + ": ", "s3.bucket");
    }

    /**
     * examples/kubernetes/verify-cronjob.yaml as the image runs it: the Dockerfile's ENTRYPOINT followed by the CronJob's
     * args (its volumes mapped to temp directories, its Pushgateway to a local stand-in) verifies a real backup, pushes
     * the result and writes the report.
     */
    @Test
    void theVerifyCronJobsArgumentsRunThroughTheImagesEntrypoint() throws Exception {
        assertThat(VerifyCronJob.container().has("command")).as("the CronJob runs the image's ENTRYPOINT").isFalse();
        Entrypoint image = entrypoint(unzip());
        try (VerifyCronJob.Pushgateway pushgateway = new VerifyCronJob.Pushgateway()) {
            VerifyCronJob.Run cronJob = VerifyCronJob.prepare(unpacked.resolve("cronjob"), pushgateway.url());

            Run r = run(image.command(), image.javaOpts(), cronJob.args().toArray(String[]::new));

            assertThat(r.exitCode).as("the CronJob's run " + cronJob.args() + "\n" + r).isZero();
            VerifyCronJobExampleTest.assertVerifiedAndPushed(cronJob, r.out, pushgateway.requests());
        }
    }

    /** examples/kubernetes/verify-all-topics-cronjob.yaml as the image runs it: every topic verified, pushed and reported. */
    @Test
    void theVerifyAllTopicsCronJobsArgumentsRunThroughTheImagesEntrypoint() throws Exception {
        Entrypoint image = entrypoint(unzip());
        try (VerifyCronJob.Pushgateway pushgateway = new VerifyCronJob.Pushgateway()) {
            VerifyCronJob.AllTopicsRun cronJob = VerifyCronJob.prepareAllTopics(unpacked.resolve("cronjob-all-topics"), pushgateway.url());
            for (String topic : cronJob.topics()) {
                TestBackups.write(cronJob.root(), topic, 0, 0, TestBackups.records(topic, 0, 0, 299, o -> true), 100);
            }

            Run r = run(image.command(), image.javaOpts(), cronJob.args().toArray(String[]::new));

            assertThat(r.exitCode).as("the CronJob's run " + cronJob.args() + "\n" + r).isZero();
            VerifyCronJobExampleTest.assertAllTopicsVerifiedAndPushed(cronJob, r.out, pushgateway.requests(), null);
        }
    }

    /** The Dockerfile's exec-form ENTRYPOINT, its image paths mapped into the unpacked archive, and its JAVA_OPTS. */
    private record Entrypoint(List<String> command, String javaOpts) {
    }

    private static Entrypoint entrypoint(Path root) throws IOException {
        String dockerfile = Files.readString(DOCKERFILE, StandardCharsets.UTF_8);
        assertThat(dockerfile).containsPattern("(?m)^FROM eclipse-temurin:17-jre$").contains("COPY . " + IMAGE_HOME);
        Matcher entry = ENTRYPOINT.matcher(dockerfile);
        Matcher opts = JAVA_OPTS.matcher(dockerfile);
        assertThat(entry.find()).as("an exec-form ENTRYPOINT in " + DOCKERFILE).isTrue();
        assertThat(opts.find()).as("ENV JAVA_OPTS=\"…\" in " + DOCKERFILE).isTrue();
        List<String> command = new ArrayList<>();
        for (String word : new ObjectMapper().readValue(entry.group(1), String[].class)) {
            command.add(word.startsWith(IMAGE_HOME) ? root.resolve(word.substring(IMAGE_HOME.length())).toString() : word);
        }
        return new Entrypoint(command, opts.group(1));
    }

    private record Run(int exitCode, String out, String err) {
        @Override
        public String toString() {
            return "exit " + exitCode + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    /** The command with the image's JAVA_OPTS and this JVM's java as the image's JRE. */
    private Run run(List<String> command, String javaOpts, String... args) throws Exception {
        List<String> all = new ArrayList<>(command);
        all.addAll(Arrays.asList(args));
        ProcessBuilder pb = new ProcessBuilder(all);
        pb.environment().put("JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString());
        pb.environment().put("JAVA_OPTS", javaOpts);
        pb.redirectOutput(unpacked.resolve("out.txt").toFile()).redirectError(unpacked.resolve("err.txt").toFile());
        Process p = pb.start();
        if (!p.waitFor(2, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", all) + " did not end within 2 minutes");
        }
        return new Run(p.exitValue(), Files.readString(unpacked.resolve("out.txt"), StandardCharsets.UTF_8),
                Files.readString(unpacked.resolve("err.txt"), StandardCharsets.UTF_8));
    }
}
