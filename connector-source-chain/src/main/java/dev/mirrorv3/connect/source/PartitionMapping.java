package dev.mirrorv3.connect.source;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/**
 * Which target partition each backup partition goes to: {@code partition.mapping}'s pairs, and the same-numbered
 * partition for every one it does not list. Two backup partitions must never share a target partition: two tasks would
 * then write into it, each at offsets the other takes, and the target would hold records of both before
 * {@code commitRecord} sees the shifted offsets.
 */
final class PartitionMapping {
    private final Map<Integer, Integer> pairs;

    private PartitionMapping(Map<Integer, Integer> pairs) {
        this.pairs = Map.copyOf(pairs);
    }

    /** partition.mapping's pairs, e.g. 0:3,1:4, as {@link #parse} reads them. */
    static ConfigDef.Validator validator() {
        return new ConfigDef.Validator() {
            @Override
            public void ensureValid(String name, Object value) {
                parse(name, value == null ? List.of() : (List<?>) value);
            }

            @Override
            public String toString() {
                return "backup:target partition pairs, e.g. 0:3,1:4";
            }
        };
    }

    /** @throws ConfigException on {@code name} for a pair that is not two partition numbers, or a partition mapped twice */
    static PartitionMapping parse(String name, List<?> pairs) {
        Map<Integer, Integer> mapping = new TreeMap<>();
        for (Object o : pairs) {
            String s = o.toString().trim();
            String[] parts = s.split(":");
            try {
                if (parts.length != 2) {
                    throw new NumberFormatException();
                }
                int from = Integer.parseInt(parts[0].trim());
                int to = Integer.parseInt(parts[1].trim());
                if (from < 0 || to < 0) {
                    throw new NumberFormatException();
                }
                if (mapping.put(from, to) != null) {
                    throw new ConfigException(name, pairs, "backup partition " + from + " is mapped twice");
                }
            } catch (NumberFormatException e) {
                throw new ConfigException(name, pairs, "'" + s + "' is not a backup:target partition pair; use e.g. 0:3,1:4");
            }
        }
        return new PartitionMapping(mapping);
    }

    int target(int backupPartition) {
        return pairs.getOrDefault(backupPartition, backupPartition);
    }

    /**
     * The first two backup partitions, among {@code followed} and those {@code partition.mapping} lists, that would go to
     * one target partition, as an error message naming both, the target partition and what to change; empty if none.
     */
    Optional<String> sharedTarget(Collection<Integer> followed) {
        TreeSet<Integer> partitions = new TreeSet<>(followed);
        partitions.addAll(pairs.keySet());
        Map<Integer, Integer> byTarget = new HashMap<>();
        for (int p : partitions) {
            Integer other = byTarget.putIfAbsent(target(p), p);
            if (other != null) {
                return Optional.of(message(other, p));
            }
        }
        return Optional.empty();
    }

    private String message(int a, int b) {
        int kept = pairs.containsKey(a) ? b : a; // at most one of them keeps its number
        String change = pairs.containsKey(kept)
                ? "map one of them to another target partition in " + ChainSourceConfig.PARTITION_MAPPING
                : "add " + kept + ":<a target partition no other backup partition goes to> to " + ChainSourceConfig.PARTITION_MAPPING;
        return "backup partitions " + a + " and " + b + " would both go to target partition " + target(a) + " (" + how(a) + "; "
                + how(b) + "), and each target partition takes one backup partition: " + change + ", or leave one of them out of"
                + " " + ChainSourceConfig.PARTITIONS + " and " + ChainSourceConfig.PARTITION_MAPPING;
    }

    private String how(int p) {
        return pairs.containsKey(p) ? ChainSourceConfig.PARTITION_MAPPING + " sends " + p + " to " + pairs.get(p)
                : p + " is not in " + ChainSourceConfig.PARTITION_MAPPING + ", so it keeps its number";
    }
}
