package dev.mirrorv3.bench;

import dev.mirrorv3.quickstart.TopicOffsets;
import java.util.Map;

/** A source topic's partitions as a run starts: their high watermarks and log-start offsets, and the records between. */
record TopicRange(Map<Integer, Long> highWatermarks, Map<Integer, Long> logStart) {

    static TopicRange of(TopicOffsets offsets, String topic) throws Exception {
        return new TopicRange(offsets.highWatermarks(topic), offsets.logStartOffsets(topic));
    }

    long records() {
        long records = 0;
        for (int p : highWatermarks.keySet()) {
            records += highWatermarks.get(p) - logStart.get(p);
        }
        return records;
    }
}
