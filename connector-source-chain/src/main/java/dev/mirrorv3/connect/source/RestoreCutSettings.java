package dev.mirrorv3.connect.source;

import dev.mirrorv3.chain.restore.RestoreCut;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/**
 * The rules of the chain source's point-in-time settings, until.timestamp and until.offset: each value parses as chain-core's
 * {@link RestoreCut} does, and an offset cut names every followed partition.
 */
final class RestoreCutSettings {
    private RestoreCutSettings() {
    }

    static ConfigDef.Validator timestampValidator() {
        return new ConfigDef.Validator() {
            @Override
            public void ensureValid(String name, Object value) {
                if (value != null && !value.toString().isBlank()) {
                    try {
                        RestoreCut.parseTimestamp(value.toString());
                    } catch (IllegalArgumentException e) {
                        throw new ConfigException(name, value, e.getMessage());
                    }
                }
            }

            @Override
            public String toString() {
                return "ISO-8601 with an offset or epoch ms, e.g. 2026-11-30T14:02:00Z; empty for none";
            }
        };
    }

    static ConfigDef.Validator offsetsValidator() {
        return new ConfigDef.Validator() {
            @Override
            public void ensureValid(String name, Object value) {
                try {
                    RestoreCut.parseOffsets(value == null ? List.of()
                            : ((List<?>) value).stream().map(Object::toString).toList());
                } catch (IllegalArgumentException e) {
                    throw new ConfigException(name, value, e.getMessage());
                }
            }

            @Override
            public String toString() {
                return "partition:offset pairs, e.g. 0:41999,1:40210; empty for none";
            }
        };
    }

    /**
     * The until.offset rule, checked by {@code validate()} and again by each task at start: without until.timestamp an
     * offset cut must name every followed partition (a partition without one would be followed on, past the point).
     */
    static Optional<String> untilOffsetProblem(RestoreCut cut, List<Integer> followed) {
        if (cut.untilTimestampMs() != null || cut.untilOffsets().isEmpty()) {
            return Optional.empty();
        }
        List<Integer> missing = followed.stream().filter(p -> !cut.untilOffsets().containsKey(p)).sorted().toList();
        return missing.isEmpty() ? Optional.empty() : Optional.of("names no offset for backup partitions " + missing
                + ", which this connector follows: give one for each, set until.timestamp too, or restrict 'partitions'");
    }
}
