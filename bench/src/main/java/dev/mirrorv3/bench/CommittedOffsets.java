package dev.mirrorv3.bench;

import dev.mirrorv3.quickstart.TopicOffsets;
import java.util.Map;

/**
 * The clock of every timed sink run, whatever the sink: the connector's consumer group ({@code connect-<name>}) has
 * committed every partition's high watermark, read from the broker by an admin client. Connect commits what the task's
 * {@code preCommit} reports (the blob sink: what is durable; FileStreamSink: what it flushed to its file; the discard
 * sink: what it was given), so the same condition is read the same way for every sink, and never from a sink's metric.
 */
final class CommittedOffsets implements SinkCheck {
    private final TopicOffsets offsets;
    private final String group;
    private final String topic;
    private final Map<Integer, Long> hw;
    private Map<Integer, Long> last = Map.of();

    CommittedOffsets(TopicOffsets offsets, String connector, String topic, Map<Integer, Long> hw) {
        this.offsets = offsets;
        this.group = "connect-" + connector;
        this.topic = topic;
        this.hw = hw;
    }

    @Override
    public boolean done() {
        try {
            last = offsets.committed(group, topic);
        } catch (Exception e) {
            // a slow answer under load: poll again until the run's timeout
            return false;
        }
        return last.equals(hw);
    }

    /** The committed offsets the last look read (partition to offset; a partition without a commit is absent). */
    Map<Integer, Long> last() {
        return last;
    }

    @Override
    public String lag() {
        return "group " + group + " committed " + last + " of the high watermarks " + hw;
    }
}
