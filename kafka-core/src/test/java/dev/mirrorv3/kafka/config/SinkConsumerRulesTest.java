package dev.mirrorv3.kafka.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.Config;
import org.junit.jupiter.api.Test;

/** The sinks' consumer rules: each setting that would let a record be skipped, changed or jumped over is one error on it. */
class SinkConsumerRulesTest {
    private static final String BYTES = ConnectorChecks.BYTE_ARRAY_CONVERTER;

    private static Map<String, String> good() {
        Map<String, String> props = new HashMap<>();
        props.put("consumer.override.auto.offset.reset", "none");
        props.put("consumer.override.isolation.level", "read_committed");
        props.put("key.converter", BYTES);
        props.put("value.converter", BYTES);
        props.put("header.converter", BYTES);
        return props;
    }

    private static Map<String, List<String>> errors(Map<String, String> props) {
        Config config = new Config(new ArrayList<>());
        SinkConsumerRules.validate(new ConnectorChecks(props, config), "Kafka sink", "copy");
        return ConfigErrors.byName(config);
    }

    @Test
    void aConfigThatDeliversEveryCommittedRecordWithItsBytesPasses() {
        assertThat(errors(good())).isEmpty();
        Map<String, String> upperCase = good();
        upperCase.put("consumer.override.isolation.level", "READ_COMMITTED");
        upperCase.put("errors.tolerance", "none");
        upperCase.put("transforms", " ");
        assertThat(errors(upperCase)).isEmpty();
    }

    @Test
    void eachRuleIsOneErrorOnItsSettingSayingWhatToSet() {
        Map<String, String> props = good();
        props.remove("consumer.override.auto.offset.reset");
        props.put("consumer.override.isolation.level", "read_uncommitted");
        props.put("errors.tolerance", "ALL");
        props.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
        props.remove("header.converter");
        props.put("transforms", "route");
        Map<String, List<String>> errors = errors(props);
        assertThat(errors).containsOnlyKeys("consumer.override.auto.offset.reset", "consumer.override.isolation.level",
                "errors.tolerance", "value.converter", "header.converter", "transforms");
        assertThat(errors).allSatisfy((key, messages) -> assertThat(messages).hasSize(1));
        assertThat(errors.get("consumer.override.auto.offset.reset").get(0))
                .startsWith("set consumer.override.auto.offset.reset=none (found nothing): ")
                .contains("retention removed before they reached the copy");
        assertThat(errors.get("consumer.override.isolation.level").get(0))
                .startsWith("set consumer.override.isolation.level=read_committed (found read_uncommitted): ")
                .contains("aborted records");
        assertThat(errors.get("errors.tolerance").get(0)).contains("a hole in the copy", "Remove errors.tolerance");
        assertThat(errors.get("value.converter").get(0)).isEqualTo("the copy keeps the records' exact bytes: set"
                + " value.converter=" + BYTES + " (found org.apache.kafka.connect.json.JsonConverter)");
        assertThat(errors.get("header.converter").get(0)).contains("the worker's default is not seen here");
        assertThat(errors.get("transforms").get(0)).startsWith("no transform may run in front of the Kafka sink")
                .endsWith("Remove transforms");
    }

    /** With auto.offset.reset=none a topic matched by the regex would have no committed offset: its task would fail. */
    @Test
    void topicsRegexIsRefusedSayingToListTheTopics() {
        Map<String, String> props = good();
        props.put("topics.regex", "orders-.*");
        Map<String, List<String>> errors = errors(props);
        assertThat(errors).containsOnlyKeys("topics.regex");
        assertThat(errors.get("topics.regex")).singleElement().asString()
                .startsWith("topics.regex is not supported by the Kafka sink")
                .contains("NoOffsetForPartitionException", "list the topics in 'topics'");
        Map<String, String> blank = good();
        blank.put("topics.regex", " ");
        assertThat(errors(blank)).as("an empty topics.regex is Connect's default").isEmpty();
    }
}
