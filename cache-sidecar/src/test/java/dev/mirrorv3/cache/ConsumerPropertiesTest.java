package dev.mirrorv3.cache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.cache.config.CacheConfig;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The consumer settings a cache reads its topic with: the bootstrap defaults, and what a user may override. */
class ConsumerPropertiesTest {

    private static Properties forCache(Map<String, String> properties) {
        return ConsumerProperties.forCache(new CacheConfig("c", true, "kafka:9092", "t", List.of(), null, "latest",
                properties, null));
    }

    @Test
    void aBootstrapReadsLargePollsThroughASocketBufferAsLargeAsTheConsumerPerfToolsOwn() {
        Properties p = forCache(Map.of());
        assertThat(p.getProperty("max.poll.records"))
                .isEqualTo(String.valueOf(ConsumerProperties.defaultMaxPollRecords(Runtime.getRuntime().maxMemory())));
        assertThat(p.getProperty("max.partition.fetch.bytes")).isEqualTo(String.valueOf(8 << 20));
        assertThat(p.getProperty("receive.buffer.bytes")).isEqualTo(String.valueOf(2 << 20));
        assertThat(p.getProperty("enable.auto.commit")).isEqualTo("false");
        assertThat(p.getProperty("auto.offset.reset")).isEqualTo("earliest");
        assertThat(p.getProperty("allow.auto.create.topics")).isEqualTo("false");
        assertThat(p).doesNotContainKey("group.id");
    }

    @Test
    void pollsGrowWithTheHeapBetween500And10000Records() {
        assertThat(ConsumerProperties.defaultMaxPollRecords(16L << 20)).isEqualTo(500);
        assertThat(ConsumerProperties.defaultMaxPollRecords(128L << 20)).isEqualTo(3355);
        assertThat(ConsumerProperties.defaultMaxPollRecords(256L << 20)).isEqualTo(6710);
        assertThat(ConsumerProperties.defaultMaxPollRecords(1L << 30)).isEqualTo(10_000);
        assertThat(ConsumerProperties.defaultMaxPollRecords(Long.MAX_VALUE)).isEqualTo(10_000);
    }

    @Test
    void theUsersPropertiesOverrideTheDefaults() {
        Properties p = forCache(Map.of("max.poll.records", "500", "receive.buffer.bytes", "-1",
                "max.partition.fetch.bytes", "1048576"));
        assertThat(p.getProperty("max.poll.records")).isEqualTo("500");
        assertThat(p.getProperty("receive.buffer.bytes")).isEqualTo("-1");
        assertThat(p.getProperty("max.partition.fetch.bytes")).isEqualTo("1048576");
    }
}
