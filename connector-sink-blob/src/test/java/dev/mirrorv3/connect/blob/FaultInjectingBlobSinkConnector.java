package dev.mirrorv3.connect.blob;

import org.apache.kafka.connect.connector.Task;

/** The blob sink with a store whose faults a test controls through {@link Faults} (same JVM as the worker). */
public class FaultInjectingBlobSinkConnector extends BlobSinkConnector {
    @Override
    public Class<? extends Task> taskClass() {
        return FaultInjectingBlobSinkTask.class;
    }

    public static class FaultInjectingBlobSinkTask extends BlobSinkTask {
        @Override
        protected dev.mirrorv3.chain.store.Store createStore(BlobSinkConfig config, String destinationName) {
            return new FaultInjectingStore(super.createStore(config, destinationName), Faults.forDestination(destinationName));
        }
    }
}
