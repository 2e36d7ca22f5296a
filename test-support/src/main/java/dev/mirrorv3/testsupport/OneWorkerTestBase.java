package dev.mirrorv3.testsupport;

import java.nio.file.Path;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * An integration test class on one embedded Connect worker (with its broker), started before its first test and
 * stopped after its last, and a directory of the class's own (a filesystem destination's root, say).
 */
public abstract class OneWorkerTestBase {
    @RegisterExtension
    protected static final ConnectTestCluster cluster = ConnectTestCluster.perClass(1);

    @TempDir
    protected static Path root;
}
