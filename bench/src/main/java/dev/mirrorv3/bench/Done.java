package dev.mirrorv3.bench;

/** When a timed run is over: polled by {@link TimedDeploy#awaitDone}; what it throws ends the run. */
@FunctionalInterface
interface Done {
    boolean done() throws Exception;
}
