package dev.mirrorv3.bench;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * One look at a blob sink run's store, judged by its listing rather than by the product's own metric: the store holds
 * every record when every partition's listed chain ends at its high watermark (the last object's {@code to} offset is
 * the high watermark - 1), and the product's {@code destination-offset-verified} metric, read just before that
 * listing, must not claim more than the listing shows. A metric ahead of the store fails the run. A partition without
 * a metric is {@link #unchecked()}: it is never done, so that "the metric was never ahead" cannot hold because nothing
 * was compared.
 *
 * @param done        the listing shows every record and every partition's metric was held against it
 * @param metricAhead the partitions whose metric claims more than the listing shows, if any
 * @param unchecked   the partitions that had no metric to hold against the listing
 */
record ListingVerdict(boolean done, Optional<String> metricAhead, Set<Integer> unchecked) {

    /**
     * @param metric     the metric per partition, read before the listing
     * @param listedNext per partition the next offset after the listed chain's last object (the log-start offset when
     *                   the chain is empty)
     * @param hw         the high watermarks the run must reach
     */
    static ListingVerdict judge(Map<Integer, Long> metric, Map<Integer, Long> listedNext, Map<Integer, Long> hw) {
        StringBuilder ahead = new StringBuilder();
        Set<Integer> unchecked = new TreeSet<>();
        boolean listed = true;
        for (Map.Entry<Integer, Long> e : hw.entrySet()) {
            int p = e.getKey();
            Long next = listedNext.get(p);
            Long claimed = metric.get(p);
            if (claimed == null) {
                unchecked.add(p);
            } else if (next == null || claimed > next) {
                ahead.append(ahead.length() == 0 ? "" : "; ").append("partition ").append(p)
                        .append(": destination-offset-verified ").append(claimed).append(next == null
                                ? ", the listing has no chain for it" : ", the listing's chain ends before offset " + next);
            }
            listed &= e.getValue().equals(next);
        }
        return new ListingVerdict(listed && unchecked.isEmpty() && ahead.length() == 0,
                ahead.length() == 0 ? Optional.empty() : Optional.of(ahead.toString()), Set.copyOf(unchecked));
    }
}
