package dev.mirrorv3.restore.cli.restore;

import dev.mirrorv3.testsupport.KafkaTestBroker;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** A class of restore tests into one real broker (per class), each test with its own directory for backups. */
abstract class RestoreIntoBrokerBase {
    @RegisterExtension
    static final KafkaTestBroker broker = KafkaTestBroker.perClass();

    @TempDir
    Path dir;

    /** Where the test's backups are. */
    Path root() {
        return dir.resolve("backups");
    }
}
