package dev.mirrorv3.connect.blob;

import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.testsupport.ConnectTestCluster;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What the blob sink's integration tests on a Connect worker share: one worker per test class, the destinations
 * (filesystem and S3) a parameterised test runs on ({@code @MethodSource("stores")}), Parquet envelopes.
 */
abstract class BlobSinkWorkerBase {
    static final EnvelopeSettings PARQUET = EnvelopeSettings.parquetBytes();

    @RegisterExtension
    static final ConnectTestCluster cluster = ConnectTestCluster.perClass(1);

    @RegisterExtension
    static final TestDestinations destinations = new TestDestinations();

    static Stream<TestDestination> stores() {
        return destinations.all();
    }
}
