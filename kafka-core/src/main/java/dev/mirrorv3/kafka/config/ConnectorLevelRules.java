package dev.mirrorv3.kafka.config;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.internals.Topic;

/**
 * Kafka Connect's own rules for the settings every connector config carries (tasks.max, topics, topics.regex, the
 * converters), re-stated here because the CLI ({@code mirror-v3 validate --offline}) must not depend on connect-runtime:
 * {@code org.apache.kafka.connect.runtime.ConnectorConfig} (tasks.max an int of at least 1, the converters classes),
 * {@code SinkConnectorConfig.validate} (exactly one of topics and topics.regex, no duplicate topic, not the DLQ topic)
 * and {@code SourceConnectorConfig}; a topic name is legal by Kafka's own {@link Topic#validate(String)}. Also unfilled
 * template placeholders, which a worker would take literally. The generated JSON Schemas ({@code ConfigSchemas}) take
 * their patterns from here, so the two agree (restore-cli's ConnectorLevelRulesTest compares the key names and the
 * tasks.max rule with connect-runtime's, and ValidateSchemaAgreementTest a corpus of configs with the schemas).
 */
public final class ConnectorLevelRules {
    /** Whether Connect runs the connector as a sink (topics/topics.regex) or a source. */
    public enum Kind { SINK, SOURCE }

    /** A value nobody filled in: a template's {@code @NAME@}, or a {@code ${...}} that is neither a config provider
     * reference ({@code ${provider:[path:]key}}, Kafka's ConfigTransformer) nor the connectors' own {@code ${topic}}. */
    public static final String UNFILLED_PLACEHOLDER = "@[A-Z][A-Z0-9_]*@|\\$\\{(?!topic\\})[^:}]*\\}";
    /** A fully qualified Java class name (what a CLASS setting such as key.converter takes). */
    public static final String CLASS_NAME = "^[A-Za-z_$][A-Za-z0-9_$]*(\\.[A-Za-z_$][A-Za-z0-9_$]*)*$";
    /** One topic name by {@link Topic#validate(String)}: its legal characters, at most 249 of them, not "." or "..". */
    private static final String TOPIC = "(?!\\.\\.?\\s*(,|$))[a-zA-Z0-9._-]{1,249}";
    /** A comma-separated list of legal topic names (Connect's LIST parsing trims around the commas), or nothing. */
    public static final String TOPIC_LIST = "^\\s*$|^\\s*" + TOPIC + "(\\s*,\\s*" + TOPIC + ")*\\s*$";

    static final List<String> CONNECTOR_KEYS = List.of("name", "connector.class", "connector.plugin.version", "tasks.max",
            "tasks.max.enforce", "key.converter", "key.converter.plugin.version", "value.converter", "value.converter.plugin.version",
            "header.converter", "header.converter.plugin.version", "transforms", "predicates", "config.action.reload",
            "errors.retry.timeout", "errors.retry.delay.max.ms", "errors.tolerance", "errors.log.enable", "errors.log.include.messages");
    static final List<String> SINK_KEYS = List.of("topics", "topics.regex", "errors.deadletterqueue.topic.name",
            "errors.deadletterqueue.topic.replication.factor", "errors.deadletterqueue.context.headers.enable");
    static final List<String> SOURCE_KEYS = List.of("topic.creation.groups", "exactly.once.support", "transaction.boundary",
            "transaction.boundary.interval.ms", "offsets.storage.topic");
    private static final List<String> CONVERTERS = List.of("key.converter", "value.converter", "header.converter");
    private static final Pattern UNFILLED = Pattern.compile(UNFILLED_PLACEHOLDER);
    private static final Pattern CLASS = Pattern.compile(CLASS_NAME);
    private static final int MAX_SUGGESTION_DISTANCE = 3;

    private ConnectorLevelRules() {
    }

    /** Connect's own connector-level setting names (ConnectorConfig's and SinkConnectorConfig's or SourceConnectorConfig's). */
    public static Set<String> connectKeys(Kind kind) {
        Set<String> keys = new LinkedHashSet<>(CONNECTOR_KEYS);
        keys.addAll(kind == Kind.SINK ? SINK_KEYS : SOURCE_KEYS);
        return keys;
    }

    /** Adds Connect's connector-level errors, and one per unfilled placeholder, to {@code checks}. */
    public static void validate(Map<String, String> props, Kind kind, ConnectorChecks checks) {
        props.forEach((key, value) -> {
            Matcher m = value == null ? null : UNFILLED.matcher(value);
            if (m != null && m.find()) {
                checks.error(key, m.group() + " is a placeholder nobody filled in (the worker would take it literally): put the"
                        + " value in, or a config provider reference such as ${file:/path/to/file.properties:" + key + "}");
            }
        });
        checkTasksMax(props, checks);
        for (String converter : CONVERTERS) {
            String cls = props.get(converter);
            if (cls != null && !CLASS.matcher(cls.trim()).matches()) {
                checks.error(converter, "'" + cls + "' is not a class name: set the converter's fully qualified class name, e.g. "
                        + ConnectorChecks.BYTE_ARRAY_CONVERTER);
            }
        }
        if (kind == Kind.SINK) {
            checkSinkTopics(props, checks);
        }
    }

    /** ConnectorConfig: tasks.max is an INT, at least 1 (its default 1 applies when it is not set). */
    private static void checkTasksMax(Map<String, String> props, ConnectorChecks checks) {
        String raw = props.get("tasks.max");
        if (raw == null) {
            return;
        }
        try {
            ConfigDef.Range.atLeast(1).ensureValid("tasks.max", ConfigDef.parseType("tasks.max", raw, ConfigDef.Type.INT));
        } catch (ConfigException e) {
            checks.error("tasks.max", e.getMessage());
        }
    }

    /** SinkConnectorConfig.validate and Kafka's topic name rules. */
    private static void checkSinkTopics(Map<String, String> props, ConnectorChecks checks) {
        String topicsValue = props.getOrDefault("topics", "").trim();
        List<String> topics = topicsValue.isEmpty() ? List.of() : List.of(topicsValue.split("\\s*,\\s*", -1));
        String regex = props.getOrDefault("topics.regex", "").trim();
        if (topics.isEmpty() && regex.isEmpty()) {
            checks.error("topics", "Must configure one of topics or topics.regex: list the topics to read in 'topics'");
        } else if (!topics.isEmpty() && !regex.isEmpty()) {
            checks.error("topics", "topics and topics.regex are mutually exclusive options, but both are set: keep one of them");
        }
        Set<String> seen = new HashSet<>();
        for (String topic : topics) {
            try {
                Topic.validate(topic);
            } catch (InvalidTopicException e) {
                checks.error("topics", e.getMessage() + " (legal: ASCII letters, digits, '.', '_' and '-', at most 249 characters,"
                        + " not '.' or '..')");
                continue;
            }
            if (!seen.add(topic)) {
                checks.error("topics", "topic " + topic + " is listed twice: list each topic once");
            }
        }
        if (!regex.isEmpty()) {
            try {
                Pattern.compile(regex);
            } catch (PatternSyntaxException e) {
                checks.error("topics.regex", "not a valid regular expression: " + e.getDescription() + " at index " + e.getIndex());
            }
        }
        String dlq = props.getOrDefault("errors.deadletterqueue.topic.name", "").trim();
        if (!dlq.isEmpty() && topics.contains(dlq)) {
            checks.error("errors.deadletterqueue.topic.name", "The DLQ topic '" + dlq + "' may not be included in the list of topics"
                    + " ('topics=" + topicsValue + "') consumed by the connector");
        }
    }

    /**
     * Settings neither the connector, nor Connect, nor a pass-through prefix knows: a worker ignores them silently, so a
     * misspelled name is a setting that does not apply. One warning each, by name, with the nearest known name (edit
     * distance).
     *
     * @param connectorKeys the connector's own setting names (its ConfigDef's)
     * @param passThrough prefixes of settings handed to clients or plugins as they are, e.g. {@code consumer.override.}
     */
    public static List<String> unknownKeys(Map<String, String> props, Collection<String> connectorKeys, List<String> passThrough,
            Kind kind) {
        Set<String> known = new LinkedHashSet<>(connectorKeys);
        known.addAll(connectKeys(kind));
        List<String> warnings = new ArrayList<>();
        for (String key : new TreeSet<>(props.keySet())) { // sorted: the settings may come in any order
            if (known.contains(key) || passThrough.stream().anyMatch(key::startsWith)) {
                continue;
            }
            String suggestion = nearest(key, known, passThrough);
            warnings.add(key + " is not a setting of this connector or of Connect, and a worker ignores it"
                    + (suggestion == null ? ": check its name in docs/configuration.md" : ": did you mean " + suggestion + "?"));
        }
        return warnings;
    }

    /** The known name, or a prefix with the rest of {@code key}, nearest to {@code key}; null when none is near. */
    private static String nearest(String key, Collection<String> known, List<String> prefixes) {
        String best = null;
        int bestDistance = MAX_SUGGESTION_DISTANCE + 1;
        for (String k : known) {
            int d = distance(key, k);
            if (d < bestDistance) {
                best = k;
                bestDistance = d;
            }
        }
        for (String prefix : prefixes) {
            for (int cut = Math.max(1, prefix.length() - 2); cut <= Math.min(key.length() - 1, prefix.length() + 2); cut++) {
                int d = distance(key.substring(0, cut), prefix);
                if (d < bestDistance) {
                    best = prefix + key.substring(cut);
                    bestDistance = d;
                }
            }
        }
        return best;
    }

    /** Levenshtein distance. */
    static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] t = previous;
            previous = current;
            current = t;
        }
        return previous[b.length()];
    }
}
