package dev.mirrorv3.connect.source;

import dev.mirrorv3.chain.restore.RestoreCut;
import dev.mirrorv3.kafka.config.ConfigFragment;
import dev.mirrorv3.kafka.config.Setting;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigException;

/**
 * The chain source's point-in-time settings, until.timestamp and until.offset, and their rules: each value parses as
 * chain-core's {@link RestoreCut} does, and an offset cut names every followed partition.
 */
final class RestoreCutSettings {
    static final String UNTIL_TIMESTAMP = "until.timestamp";
    static final String UNTIL_TIMESTAMP_DOC = """
            Follow only up to this time (a standby frozen at a point, e.g. for forensics): per partition \
            the longest prefix whose records are all stamped at or before it, ISO-8601 with an offset (2026-11-30T14:02:00Z) or \
            epoch ms. At the cut the task logs it, sets follow-cut-reached to 1 and stays RUNNING without sending more. Empty: \
            no cut.""";

    static final String UNTIL_OFFSET = "until.offset";
    static final String UNTIL_OFFSET_DOC = """
            Follow each listed backup partition only up to and including this backup offset, as \
            partition:offset pairs, e.g. 0:41999,1:40210. Without until.timestamp every followed partition needs one.""";

    private RestoreCutSettings() {
    }

    /** until.timestamp and until.offset in {@code group}. */
    static ConfigFragment fragment(String group) {
        return ConfigFragment.settings(group,
                Setting.of(UNTIL_TIMESTAMP, Type.STRING, "", Importance.LOW, Width.MEDIUM, "Until timestamp", UNTIL_TIMESTAMP_DOC)
                        .withValidator(timestampValidator()),
                Setting.of(UNTIL_OFFSET, Type.LIST, "", Importance.LOW, Width.MEDIUM, "Until offsets", UNTIL_OFFSET_DOC)
                        .withValidator(offsetsValidator()));
    }

    /**
     * The cut of the followed partitions.
     *
     * @throws ConfigException when until.offset names no offset for a followed partition and until.timestamp is empty
     */
    static RestoreCut followedCut(AbstractConfig config, List<Integer> followed) {
        RestoreCut cut = cut(config);
        untilOffsetProblem(cut, followed).ifPresent(problem -> {
            throw new ConfigException(UNTIL_OFFSET, config.getList(UNTIL_OFFSET), problem);
        });
        return cut;
    }

    /** The cut as configured, before the rule over the followed partitions. */
    static RestoreCut cut(AbstractConfig config) {
        String ts = config.getString(UNTIL_TIMESTAMP);
        return new RestoreCut(ts == null || ts.isBlank() ? null : RestoreCut.parseTimestamp(ts),
                RestoreCut.parseOffsets(config.getList(UNTIL_OFFSET)));
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
