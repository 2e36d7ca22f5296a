package dev.mirrorv3.quickstart;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * scripts/stack.sh's rebuild decision, run by bash as ./quickstart, ./torture and the benches source it, on a copy of
 * this repository's poms: the modules the stack is built from come from the reactor (the bundle's and quickstart-tools'
 * dependencies on other modules, transitively), so that a change in any of them alone, restore-engine or transforms
 * included, rebuilds the jars the stack runs, and a change only in tests or in a test-only module does not.
 */
class StackBuildTest {
    private static final Path REPO = Path.of("..").toAbsolutePath().normalize(); // module dir

    @TempDir
    Path copy;

    /** The root pom, every module's pom and scripts/stack.sh; a source file per module; built artifacts newer than all. */
    @BeforeEach
    void copyTheReactor() throws Exception {
        Files.createDirectories(copy.resolve("scripts"));
        Files.copy(REPO.resolve("scripts/stack.sh"), copy.resolve("scripts/stack.sh"));
        Files.copy(REPO.resolve("pom.xml"), copy.resolve("pom.xml"));
        String modules = bash("sed -n 's|.*<module>\\([^<]*\\)</module>.*|\\1|p' \"$STACK_REPO/pom.xml\"");
        for (String m : modules.split("\n")) {
            Files.createDirectories(copy.resolve(m).resolve("src/main/java"));
            Files.createDirectories(copy.resolve(m).resolve("src/test/java"));
            Files.copy(REPO.resolve(m).resolve("pom.xml"), copy.resolve(m).resolve("pom.xml"));
            Files.writeString(copy.resolve(m).resolve("src/main/java/Main.java"), "class Main {}\n");
            Files.writeString(copy.resolve(m).resolve("src/test/java/MainTest.java"), "class MainTest {}\n");
        }
        bash("find \"$STACK_REPO\" -type f -exec touch -d '2 hours ago' {} +;"
                + " for a in $(stack_artifacts); do mkdir -p \"$(dirname \"$a\")\"; touch -d '1 hour ago' \"$a\"; done");
    }

    @Test
    void theModulesComeFromTheReactorWithoutTestOnlyOnes() throws Exception {
        List<String> modules = List.of(bash("stack_build_modules").split("\n"));
        List<String> withTheCli = List.of(bash("STACK_EXTRA_MODULES=restore-cli stack_build_modules").split("\n"));

        assertThat(modules).containsOnlyOnce("bundle", "quickstart-tools", "chain-core", "kafka-support", "restore-engine", "transforms",
                "connector-sink-blob", "connector-sink-kafka", "connector-source-chain").doesNotContain("test-support", "config-docs",
                "bench", "restore-cli", "cache-sidecar");
        assertThat(withTheCli).contains("restore-cli", "restore-engine");
    }

    @Test
    void aChangeInAnyModuleTheStackIsBuiltFromRebuildsAndOneInATestDoesNot() throws Exception {
        assertThat(bash("stack_build_needed || echo 'up to date'")).isEqualTo("up to date\n");
        for (String changed : List.of("restore-engine/src/main/java/Main.java", "transforms/src/main/java/Main.java",
                "chain-core/src/main/java/Main.java", "connector-sink-kafka/pom.xml", "pom.xml")) {
            assertThat(bash("touch \"$STACK_REPO/" + changed + "\"; stack_build_needed || echo 'up to date';"
                    + " touch -d '2 hours ago' \"$STACK_REPO/" + changed + "\""))
                    .as("after a change in %s", changed).isEqualTo(changed + " changed since the last build\n");
        }
        for (String unchanged : List.of("restore-engine/src/test/java/MainTest.java", "test-support/src/main/java/Main.java",
                "bench/src/main/java/Main.java")) {
            assertThat(bash("touch \"$STACK_REPO/" + unchanged + "\"; stack_build_needed || echo 'up to date';"
                    + " touch -d '2 hours ago' \"$STACK_REPO/" + unchanged + "\""))
                    .as("after a change in %s", unchanged).isEqualTo("up to date\n");
        }
        assertThat(bash("STACK_EXTRA_MODULES=bench; touch \"$STACK_REPO/bench/src/main/java/Main.java\"; stack_build_needed"))
                .as("bench, which the benches add").isEqualTo("bench/src/main/java/Main.java changed since the last build\n");
    }

    @Test
    void aDependencyOnNoModuleOfTheReactorIsNamedAndRebuilds() throws Exception {
        Path pom = copy.resolve("transforms/pom.xml");
        Files.writeString(pom, Files.readString(pom).replace("<dependencies>", "<dependencies><!-- a <dependency> in a comment -->"
                + "<dependency><groupId>dev.mirrorv3</groupId><artifactId>gone</artifactId></dependency>"));
        bash("touch -d '2 hours ago' \"$STACK_REPO/transforms/pom.xml\"");

        assertThat(bash("stack_build_needed 2>&1")).isEqualTo("transforms/pom.xml depends on gone, which no module of the root pom"
                + " builds\nthe modules the stack is built from could not be derived from the poms (above)\n");
    }

    private String bash(String script) throws Exception {
        Process p = new ProcessBuilder("bash", "-c", "set -euo pipefail; source '" + copy.resolve("scripts/stack.sh") + "'; " + script)
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("bash finished").isTrue();
        assertThat(p.exitValue()).as("bash's exit status; it printed: %s", out).isZero();
        return out;
    }
}
