package dev.mirrorv3.bench;

import dev.mirrorv3.chain.ChainException;
import dev.mirrorv3.chain.read.ChainReader;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.quickstart.BlobSinkSettings;
import dev.mirrorv3.quickstart.WaitCaughtUp;
import java.nio.file.Path;
import java.util.Map;
import javax.management.MBeanServerConnection;

/**
 * Done when the store's listing shows every record and every partition's metric, read first, is not ahead of it
 * ({@link ListingVerdict}): an honest metric can only be at or behind the listing taken after it.
 */
final class ListedChain implements SinkCheck, AutoCloseable {
    private final Store store;
    private final ChainReader reader;
    private final VerifiedOffsets metric;
    private final TopicRange range;
    private Map<Integer, Long> lastMetric = Map.of();
    private Map<Integer, Long> lastListed = Map.of();
    private String problem = "no listing yet";
    private String unchecked = "";
    private long comparisons;

    private ListedChain(Store store, ChainReader reader, VerifiedOffsets metric, TopicRange range) {
        this.store = store;
        this.reader = reader;
        this.metric = metric;
        this.range = range;
    }

    /**
     * Opens the blob sink's store (before the clock starts: an S3 client's set-up is not the run's) and lists it once,
     * untimed: the store client's first request (connection, class loading) is not the run's either.
     */
    static ListedChain open(MBeanServerConnection mbs, Path configFile, String connector, String topic, TopicRange range)
            throws Exception {
        BlobSinkSettings settings = BlobSinkSettings.load(configFile, connector);
        Store store = settings.store();
        ListedChain chain = new ListedChain(store, settings.reader(store), new VerifiedOffsets(mbs, connector, topic), range);
        try {
            chain.listed();
        } catch (ChainException e) {
            // judged during the run
        }
        return chain;
    }

    private Map<Integer, Long> listed() throws Exception {
        return WaitCaughtUp.chainNextOffsets(reader, range.highWatermarks().keySet(), range.logStart());
    }

    @Override
    public boolean done() throws Exception {
        Map<Integer, Long> claimed = metric.read();
        Map<Integer, Long> listed;
        try {
            listed = listed();
        } catch (ChainException e) {
            // an upload in progress can show in a listing (S3Proxy lists <key>-<uuid> until it completes): poll again
            problem = "the chain does not validate: " + e.getMessage();
            return false;
        }
        lastMetric = claimed;
        lastListed = listed;
        problem = "";
        comparisons++;
        ListingVerdict v = ListingVerdict.judge(claimed, listed, range.highWatermarks());
        unchecked = v.unchecked().isEmpty() ? "" : "; no destination-offset-verified metric for partition(s) " + v.unchecked();
        if (v.metricAhead().isPresent()) {
            throw new MetricAheadException(v.metricAhead().get() + " (metric " + claimed + ", listing " + listed + ")");
        }
        return v.done();
    }

    @Override
    public String lag() {
        return "the store's listing: chain next offsets " + lastListed + (problem.isEmpty() ? "" : " (" + problem + ")")
                + "; destination-offset-verified " + lastMetric + " (from the worker's JMX; none means the task registered"
                + " no metrics)" + unchecked + "; high watermarks " + range.highWatermarks();
    }

    String summary() {
        return "the store's listing shows every record (chain next offsets " + lastListed + "); destination-offset-verified"
                + " then " + lastMetric + ", held against the listing in " + comparisons + " looks and never ahead of it";
    }

    @Override
    public void close() {
        store.close();
    }
}
