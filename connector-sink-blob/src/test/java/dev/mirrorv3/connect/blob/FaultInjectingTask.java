package dev.mirrorv3.connect.blob;

import dev.mirrorv3.chain.store.Store;
import java.time.Clock;

/** The blob sink task with stores whose faults a test arms ({@link FaultInjectingStore}). */
final class FaultInjectingTask extends BlobSinkTask {
    private final Faults faults;

    FaultInjectingTask(Clock clock, Faults faults) {
        super(clock);
        this.faults = faults;
    }

    @Override
    protected Store createStore(BlobSinkConfig config, String destinationName) {
        return new FaultInjectingStore(super.createStore(config, destinationName), faults);
    }
}
