package dev.mirrorv3.connect.blob;

import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.testsupport.ConnectTestCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the blob sink's integration tests that remove a worker with a task on it share: two workers per test class,
 * each giving a stopping task one second (so that a task blocked in a commit lives on as a zombie), a filesystem
 * destination, Parquet envelopes.
 */
abstract class BlobSinkTwoWorkerBase {
    static final Duration WAIT = Duration.ofSeconds(90);
    static final EnvelopeSettings PARQUET = EnvelopeSettings.parquetBytes();

    @RegisterExtension
    static final ConnectTestCluster cluster = ConnectTestCluster.perClass(2, Map.of("task.shutdown.graceful.timeout.ms", "1000"));

    @TempDir
    static Path root;
}
