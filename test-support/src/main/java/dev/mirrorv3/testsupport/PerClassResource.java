package dev.mirrorv3.testsupport;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A cluster a test class registers as a JUnit extension ({@code @RegisterExtension static final}): started before the
 * class's first test, closed after its last. Outside JUnit, the subclasses' static {@code start} starts one directly.
 */
public abstract class PerClassResource implements AutoCloseable, BeforeAllCallback, AfterAllCallback {

    /** Starts the cluster (once per instance). */
    abstract void startCluster();

    @Override
    public void beforeAll(ExtensionContext context) {
        startCluster();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        close();
    }

    @Override
    public abstract void close();
}
