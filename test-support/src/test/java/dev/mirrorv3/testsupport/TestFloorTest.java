package dev.mirrorv3.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * .ci/test-count, which ./test runs after {@code mvn verify}: the tests executed (tests - skipped in the Surefire and
 * Failsafe XML reports) per module and kind against the floors of .ci/test-floor. A module or a kind of tests that
 * dropped out fails the run naming itself; reports older than the run do not count; update records a run's counts.
 * Run on a copy of the script with made-up reports; also checks that the repository's floor file parses and names
 * every module that has tests.
 */
class TestFloorTest {
    private static final Path REPO = Path.of("..").toAbsolutePath().normalize(); // module dir

    @TempDir
    Path copy;

    @BeforeEach
    void copyTheScript() throws Exception {
        Files.createDirectories(copy.resolve(".ci"));
        Files.copy(REPO.resolve(".ci/test-count"), copy.resolve(".ci/test-count"));
        Files.writeString(copy.resolve(".ci/test-floor"), "# floors\nalpha unit 3\nalpha it 2\nbeta unit 1  # a comment\ntotal 6\n");
    }

    @Test
    void aRunAtTheFloorsPasses() throws Exception {
        report("alpha", "surefire", "A", 2, 0);
        report("alpha", "surefire", "B", 2, 1); // one skipped: not executed
        report("alpha", "failsafe", "C", 2, 0);
        report("beta", "surefire", "D", 1, 0);

        Run run = run("check");

        assertThat(run.exit()).as(run.out()).isZero();
        assertThat(run.out()).contains("alpha                      it           2      2\n",
                "alpha                      unit         3      3\n", "total                                   6      6\n");
    }

    @Test
    void aKindOfTestsThatDroppedOutFailsTheRunNamingItsModule() throws Exception {
        report("alpha", "surefire", "A", 3, 0);
        report("beta", "surefire", "D", 1, 0);

        String out = runFails("check");

        assertThat(out).contains("alpha (it tests): 0 executed, the floor is 2; no report at all: the module's tests did not run",
                "total: 4 tests executed, the floor is 6", "lower the floor in .ci/test-floor (or run `.ci/test-count update`");
    }

    @Test
    void reportsOlderThanTheRunAreNotCounted() throws Exception {
        report("alpha", "surefire", "A", 3, 0);
        report("alpha", "failsafe", "C", 2, 0);
        Path stale = report("beta", "surefire", "D", 1, 0);
        Files.setLastModifiedTime(stale, FileTime.from(Instant.now().minusSeconds(3600)));

        String out = runFails("check", "--since", Long.toString(Instant.now().minusSeconds(60).getEpochSecond()));

        assertThat(out).contains("beta (unit tests): 0 executed, the floor is 1; no report at all");
    }

    @Test
    void fewerTestsThanTheFloorAndAModuleWithoutAFloorAreNamed() throws Exception {
        report("alpha", "surefire", "A", 2, 0);
        report("alpha", "failsafe", "C", 2, 0);
        report("beta", "surefire", "D", 1, 0);
        report("gamma", "surefire", "E", 4, 0);

        String out = runFails("check");

        assertThat(out).contains("alpha (unit tests): 2 executed, the floor is 3\n",
                "gamma                      unit         4      -  (no floor recorded: add it to .ci/test-floor)");
    }

    @Test
    void updateRecordsTheRunsCounts() throws Exception {
        report("alpha", "surefire", "A", 5, 1);
        report("beta", "failsafe", "C", 7, 0);

        Run run = run("update");

        assertThat(run.exit()).as(run.out()).isZero();
        assertThat(Files.readAllLines(copy.resolve(".ci/test-floor")).stream().filter(l -> !l.startsWith("#")).toList())
                .containsExactly("alpha unit 4", "beta it 7", "total 11");
        assertThat(run("check").exit()).isZero();
    }

    @Test
    void theRepositorysFloorsParseAndNameEveryModuleThatHasTests() throws Exception {
        Path floors = REPO.resolve(".ci/test-floor");
        List<String> modules = Files.readAllLines(floors).stream().map(l -> l.split("#", 2)[0].trim()).filter(l -> !l.isEmpty())
                .map(l -> l.split("\\s+")[0]).toList();
        assertThat(modules).as("lines of %s", floors).contains("total");
        try (var dirs = Files.list(REPO)) {
            List<String> withTests = dirs.filter(d -> Files.isDirectory(d.resolve("src/test/java")) && Files.exists(d.resolve("pom.xml")))
                    .map(d -> d.getFileName().toString()).toList();
            assertThat(modules).as("modules with a floor in %s", floors).containsAll(withTests);
        }
        Files.copy(floors, copy.resolve(".ci/test-floor"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertThat(run("check").out()).as("the repository's floors parse").contains("total ");
    }

    private Path report(String module, String plugin, String name, int tests, int skipped) throws Exception {
        Path dir = Files.createDirectories(copy.resolve(module).resolve("target").resolve(plugin + "-reports"));
        return Files.writeString(dir.resolve("TEST-" + name + ".xml"), "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\""
                + name + "\" time=\"1.0\" tests=\"" + tests + "\" errors=\"0\" skipped=\"" + skipped + "\" failures=\"0\"></testsuite>\n");
    }

    private record Run(int exit, String out) {
    }

    /** Runs the script, which must fail (exit status 1, as a floor that is not met makes it); returns what it printed. */
    private String runFails(String... args) throws Exception {
        Run run = run(args);
        assertThat(run.exit()).isEqualTo(1);
        return run.out();
    }

    private Run run(String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("python3", copy.resolve(".ci/test-count").toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("test-count finished").isTrue();
        return new Run(p.exitValue(), out);
    }
}
