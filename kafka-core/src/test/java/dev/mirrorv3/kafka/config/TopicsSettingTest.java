package dev.mirrorv3.kafka.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The topics setting read as a list: trimmed, empty entries skipped, none with topics.regex. */
class TopicsSettingTest {
    @Test
    void listedTopicsComeFromTheTopicsSetting() {
        assertThat(TopicsSetting.listed(Map.of("topics", " a, b ,,c"))).containsExactly("a", "b", "c");
        assertThat(TopicsSetting.listed(Map.of("topics.regex", "a.*"))).isEmpty();
        assertThat(TopicsSetting.parse(null)).isEmpty();
        assertThat(TopicsSetting.parse(" ")).isEmpty();
    }
}
