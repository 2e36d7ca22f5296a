package dev.mirrorv3.restore.cli.restore;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** A class of restore tests, each test with its own directory for backups. */
abstract class BackupsDirTestBase {
    @TempDir
    Path dir;

    /** Where the test's backups are. */
    Path root() {
        return dir.resolve("backups");
    }
}
