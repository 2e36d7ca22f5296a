package dev.mirrorv3.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Fails the build when a class under any module's {@code src/test/java} holds tests (JUnit {@code @Test},
 * {@code @ParameterizedTest}, {@code @RepeatedTest}, {@code @TestFactory}, jqwik {@code @Property}/{@code @Example}) but
 * its name matches neither Surefire's nor Failsafe's default includes: such a class compiles and never runs. The one
 * exception is a {@code *Bench} class: a benchmark kept out of the suite on purpose and run by hand by its name
 * ({@code -Dtest=EnvelopeThroughputBench}), as docs/performance.md shows. A class both match (an IT named Test*) fails
 * too: Surefire would run it without the module's Failsafe settings.
 */
class TestDiscoveryTest {
    /** Surefire's default includes: Test*, *Test, *Tests, *TestCase. */
    private static final Pattern SUREFIRE = Pattern.compile("(Test.*|.*Test|.*Tests|.*TestCase)\\.java");
    /** Failsafe's default includes: IT*, *IT, *ITCase. */
    private static final Pattern FAILSAFE = Pattern.compile("(IT.*|.*IT|.*ITCase)\\.java");
    /** Benchmarks run by hand, never by the suite. */
    private static final Pattern BENCH = Pattern.compile(".*Bench\\.java");
    private static final Pattern HOLDS_TESTS = Pattern.compile(
            "^\\s*@(Test|ParameterizedTest|RepeatedTest|TestFactory|TestTemplate|Property|Example)\\b", Pattern.MULTILINE);

    @Test
    void everyClassHoldingTestsIsPickedUpBySurefireOrFailsafe() {
        Path root = repositoryRoot();
        List<Path> sources = testSources(root);
        assertThat(sources).as("test sources found under %s", root).isNotEmpty();
        List<String> neverRun = sources.stream()
                .filter(p -> HOLDS_TESTS.matcher(read(p)).find())
                .filter(p -> !SUREFIRE.matcher(p.getFileName().toString()).matches()
                        && !FAILSAFE.matcher(p.getFileName().toString()).matches()
                        && !BENCH.matcher(p.getFileName().toString()).matches())
                .map(p -> root.relativize(p).toString())
                .toList();
        assertThat(neverRun)
                .as("classes with tests that neither Surefire (*Test, Test*, *Tests, *TestCase) nor Failsafe (*IT, IT*, *ITCase)"
                        + " would run: rename them")
                .isEmpty();
    }

    @Test
    void noClassIsPickedUpByBothSurefireAndFailsafe() {
        Path root = repositoryRoot();
        List<String> runTwice = testSources(root).stream()
                .filter(p -> SUREFIRE.matcher(p.getFileName().toString()).matches()
                        && FAILSAFE.matcher(p.getFileName().toString()).matches())
                .map(p -> root.relativize(p).toString())
                .toList();
        assertThat(runTwice)
                .as("classes whose names both Surefire (Test*, *Test, *Tests, *TestCase) and Failsafe (IT*, *IT, *ITCase) match:"
                        + " Surefire runs them too, without the module's Failsafe settings; rename them (an IT must not start"
                        + " with Test)")
                .isEmpty();
    }

    @Test
    void theCheckSeesAMisnamedClass() {
        assertThat(HOLDS_TESTS.matcher("class X {\n    @Property(tries = 10)\n    void p() {}\n}").find()).isTrue();
        assertThat(SUREFIRE.matcher("EnvelopeRoundTripProperties.java").matches()).isFalse();
        assertThat(FAILSAFE.matcher("EnvelopeRoundTripProperties.java").matches()).isFalse();
        assertThat(SUREFIRE.matcher("EnvelopeRoundTripPropertiesTest.java").matches()).isTrue();
        assertThat(FAILSAFE.matcher("RestoreIT.java").matches()).isTrue();
        assertThat(SUREFIRE.matcher("TestJvmSettingsIT.java").matches()).isTrue();
        assertThat(FAILSAFE.matcher("TestJvmSettingsIT.java").matches()).isTrue();
        assertThat(BENCH.matcher("EnvelopeThroughputBench.java").matches()).isTrue();
    }

    private static Path repositoryRoot() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.exists(dir.resolve("test-support").resolve("pom.xml"))) {
            dir = dir.getParent();
        }
        assertThat(dir).as("repository root above %s", Path.of("").toAbsolutePath()).isNotNull();
        return dir;
    }

    private static List<Path> testSources(Path root) {
        List<Path> found = new ArrayList<>();
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                    String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
                    boolean skip = !dir.equals(root) && (name.startsWith(".") || name.equals("target") || name.equals("node_modules"));
                    return skip ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    if (file.toString().endsWith(".java") && file.toString().contains("/src/test/java/")) {
                        found.add(file);
                    }
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return found;
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
