package dev.mirrorv3.testsupport;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * A tool outside the JVM that a test runs ({@code promtool}, {@code node}): on a developer machine without it the test is
 * skipped, and the skip says what to install; with {@code REQUIRE_ALL_TOOLS=1} in the environment (set by {@code .ci/run},
 * inherited by every test JVM) the test fails naming the tool instead, so that CI never passes a check it did not run.
 */
public final class RequiredTools {
    /** The environment variable that turns a missing tool from a skip into a failure. */
    public static final String REQUIRE_ALL_TOOLS = "REQUIRE_ALL_TOOLS";

    private RequiredTools() {
    }

    /**
     * The tool's path on {@code PATH}; when it is missing, a skip (or with {@code REQUIRE_ALL_TOOLS=1} a failure) naming
     * the tool, what the test needs it for and how to install it.
     */
    public static Path require(String tool, String purpose, String install) {
        return require(tool, purpose, install, System.getenv("PATH"), System.getenv(REQUIRE_ALL_TOOLS));
    }

    static Path require(String tool, String purpose, String install, String path, String requireAll) {
        Optional<Path> found = onPath(tool, path);
        if (found.isPresent()) {
            return found.get();
        }
        String message = tool + " is not on PATH, needed " + purpose + " (" + install + ")";
        if ("1".equals(requireAll)) {
            return Assertions.fail(message + "; " + REQUIRE_ALL_TOOLS + "=1 makes a missing tool a failure, not a skip");
        }
        return Assumptions.abort(message + ": skipped (" + REQUIRE_ALL_TOOLS + "=1, as CI sets it, would fail instead)");
    }

    /** The first executable named {@code tool} in the directories of {@code path}. */
    static Optional<Path> onPath(String tool, String path) {
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, tool);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }
}
