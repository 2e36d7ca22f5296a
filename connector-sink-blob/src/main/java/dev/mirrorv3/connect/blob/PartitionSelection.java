package dev.mirrorv3.connect.blob;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;

/** The setting {@code partitions}: which of the assigned partitions the task backs up (empty: all of them). */
record PartitionSelection(Set<Integer> allowed) {
    static PartitionSelection of(Collection<Integer> allowed) {
        return new PartitionSelection(new HashSet<>(allowed)); // logged as the set the task always logged
    }

    /** The partitions of {@code assigned} this task backs up, and those it leaves paused. */
    Split split(Collection<TopicPartition> assigned) {
        List<TopicPartition> mine = new ArrayList<>();
        List<TopicPartition> others = new ArrayList<>();
        for (TopicPartition tp : assigned) {
            (allowed.isEmpty() || allowed.contains(tp.partition()) ? mine : others).add(tp);
        }
        return new Split(mine, others);
    }

    record Split(List<TopicPartition> mine, List<TopicPartition> others) {
    }
}
