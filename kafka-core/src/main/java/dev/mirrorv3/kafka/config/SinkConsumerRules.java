package dev.mirrorv3.kafka.config;

import java.util.Map;
import org.apache.kafka.common.config.ConfigException;

/**
 * The rules both sinks put on what reaches them through Connect's sink consumer: every committed record, once, with its
 * exact bytes. One implementation and one message per rule, so that the blob sink and the Kafka sink refuse the same
 * configs alike (docs/design.md, the position rule: the consumer settings that would hide a violation are required).
 * A fragment with rules and no settings of its own: a sink lists it last, so its rules run after the other fragments'
 * and before the connector's own. topics.regex is refused at start too: Connect starts a stored config without
 * calling validate().
 *
 * @param sink the sink's name in messages, e.g. "Kafka sink"
 * @param output what the sink writes, e.g. "copy" or "backup"
 */
public record SinkConsumerRules(String sink, String output) implements ConfigFragment {
    private static final String TOPICS_REGEX = "topics.regex";

    @Override
    public void define(SettingsTable table) {
    }

    @Override
    public void validate(Map<String, String> props, ConnectorChecks checks, boolean offline) {
        validate(checks, sink, output);
    }

    static void validate(ConnectorChecks checks, String sink, String output) {
        checks.requireSetting("consumer.override.auto.offset.reset", "none", "without it Connect's sink consumer uses"
                + " 'earliest' and would silently jump over records that retention removed before they reached the " + output
                + "; with 'none' a lost position fails the task");
        checks.requireSetting("consumer.override.isolation.level", "read_committed", "only committed records belong in the "
                + output + "; with read_uncommitted, aborted records would be written as if they had been committed");
        checks.refuseErrorsToleranceAll("errors.tolerance=all would skip records, and a skipped record is a hole in the "
                + output + " that the source does not have. Remove errors.tolerance or set it to none");
        checks.requireByteArrayConverters("the " + output + " keeps the records' exact bytes");
        checks.refuseTransforms("no transform may run in front of the " + sink + ": a changed record would not be the"
                + " source's, and a dropped one would be a hole. Remove transforms");
        refuseTopicsRegex(checks, sink);
    }

    @Override
    public void refuseAtStart(Map<String, String> props) {
        if (!props.getOrDefault(TOPICS_REGEX, "").isBlank()) {
            throw new ConfigException(topicsRegexRefused(sink));
        }
    }

    /**
     * topics.regex is refused until its matches are seeded and watched: with auto.offset.reset=none a partition needs a
     * committed offset before the task's open() can seek (GroupOffsetSeeder), and the tasks seed, and the connector
     * watches partition counts and topic ids, only for the topics listed in {@code topics} (docs/decisions.md).
     */
    private static void refuseTopicsRegex(ConnectorChecks checks, String sink) {
        if (!checks.value(TOPICS_REGEX).isBlank()) {
            checks.error(TOPICS_REGEX, topicsRegexRefused(sink));
        }
    }

    private static String topicsRegexRefused(String sink) {
        return "topics.regex is not supported by the " + sink + ": its tasks give their consumer group a committed offset, and the"
                + " connector watches for new partitions and re-created topics, only for the topics listed in 'topics'; with"
                + " consumer.override.auto.offset.reset=none a topic matched by the regex (a new one included) would fail the task"
                + " with NoOffsetForPartitionException. Remove topics.regex and list the topics in 'topics'";
    }
}
