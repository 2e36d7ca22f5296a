package dev.mirrorv3.bench;

import java.util.Map;
import java.util.Optional;

/**
 * One poll of a timed blob sink run, judged by the store's listing rather than by the product's own metric: the run is
 * done when every partition's listed chain ends at its high watermark (the last object's {@code to} offset is the high
 * watermark - 1), and the product's {@code destination-offset-verified} metric, read just before that listing, must
 * not claim more than the listing shows. A metric ahead of the store would stop the clock before the records are
 * durable, so it fails the run instead of inflating its rate.
 */
record ListingVerdict(boolean done, Optional<String> metricAhead) {

    /**
     * @param metric     the metric per partition, read before the listing (a partition without one claims nothing)
     * @param listedNext per partition the next offset after the listed chain's last object (the log-start offset when
     *                   the chain is empty)
     * @param hw         the high watermarks the run must reach
     */
    static ListingVerdict judge(Map<Integer, Long> metric, Map<Integer, Long> listedNext, Map<Integer, Long> hw) {
        StringBuilder ahead = new StringBuilder();
        boolean done = true;
        for (Map.Entry<Integer, Long> e : hw.entrySet()) {
            int p = e.getKey();
            Long listed = listedNext.get(p);
            Long claimed = metric.get(p);
            if (claimed != null && (listed == null || claimed > listed)) {
                ahead.append(ahead.length() == 0 ? "" : "; ").append("partition ").append(p)
                        .append(": destination-offset-verified ").append(claimed).append(listed == null
                                ? ", the listing has no chain for it" : ", the listing's chain ends before offset " + listed);
            }
            done &= e.getValue().equals(listed);
        }
        return new ListingVerdict(done, ahead.length() == 0 ? Optional.empty() : Optional.of(ahead.toString()));
    }
}
