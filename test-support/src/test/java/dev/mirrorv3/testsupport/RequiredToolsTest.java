package dev.mirrorv3.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

class RequiredToolsTest {
    @TempDir
    Path dir;

    @Test
    void aMissingToolIsASkipOnADeveloperMachineAndAFailureWhenAllToolsAreRequired() {
        String path = dir.toString();
        assertThatThrownBy(() -> RequiredTools.require("promtool", "to check the alert rules", "apt-get install prometheus", path, null))
                .isInstanceOf(TestAbortedException.class)
                .hasMessageContaining("promtool is not on PATH, needed to check the alert rules (apt-get install prometheus)")
                .hasMessageContaining("skipped");
        assertThatThrownBy(() -> RequiredTools.require("promtool", "to check the alert rules", "apt-get install prometheus", path, "1"))
                .isInstanceOf(AssertionFailedError.class)
                .hasMessage("promtool is not on PATH, needed to check the alert rules (apt-get install prometheus); "
                        + "REQUIRE_ALL_TOOLS=1 makes a missing tool a failure, not a skip");
    }

    @Test
    void aToolOnPathIsFoundWhateverIsRequired() throws Exception {
        Path tool = Files.createFile(dir.resolve("node"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        Files.createFile(dir.resolve("npm")); // not executable: not a tool
        String path = "/nonexistent:" + dir;
        assertThat(RequiredTools.require("node", "for the client test", "install Node 20", path, "1")).isEqualTo(tool);
        assertThat(RequiredTools.onPath("npm", path)).isEmpty();
    }
}
