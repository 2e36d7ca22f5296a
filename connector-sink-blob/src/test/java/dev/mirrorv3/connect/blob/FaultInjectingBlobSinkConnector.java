package dev.mirrorv3.connect.blob;

import org.apache.kafka.connect.connector.Task;

/** The blob sink with a store whose faults a test controls through {@link Faults} (same JVM as the worker). */
public class FaultInjectingBlobSinkConnector extends BlobSinkConnector {
    @Override
    public Class<? extends Task> taskClass() {
        return FaultInjectingBlobSinkTask.class;
    }

    public static class FaultInjectingBlobSinkTask extends BlobSinkTask {
        private volatile String name = "";

        @Override
        public void start(java.util.Map<String, String> props) {
            name = props.getOrDefault("name", "");
            super.start(props);
        }

        /** Records each close() for tests that act while it runs (Faults of the destination named after the connector). */
        @Override
        protected void closePositioned(java.util.Collection<org.apache.kafka.common.TopicPartition> partitions) {
            java.util.Set<Integer> ps = new java.util.TreeSet<>();
            partitions.forEach(tp -> ps.add(tp.partition()));
            Faults faults = Faults.forDestination(name);
            faults.closeStarted.add(ps);
            try {
                super.closePositioned(partitions);
            } finally {
                faults.closeEnded.add(ps);
            }
        }

        /** Holds one put() when the test asks for it: Connect's consumer is not polled meanwhile, as during any slow put(). */
        @Override
        protected void write(java.util.Collection<org.apache.kafka.connect.sink.SinkRecord> records) {
            Faults faults = Faults.forDestination(name);
            java.util.concurrent.CountDownLatch hold = records.isEmpty() ? null : faults.holdNextPut.getAndSet(null);
            if (hold != null) {
                faults.putHeld.countDown();
                try {
                    hold.await(2, java.util.concurrent.TimeUnit.MINUTES);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            super.write(records);
        }

        @Override
        protected dev.mirrorv3.chain.store.Store createStore(BlobSinkConfig config, String destinationName) {
            return new FaultInjectingStore(super.createStore(config, destinationName), Faults.forDestination(destinationName));
        }
    }
}
