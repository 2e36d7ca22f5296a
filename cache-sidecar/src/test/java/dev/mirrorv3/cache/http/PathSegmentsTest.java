package dev.mirrorv3.cache.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class PathSegmentsTest {

    @Test
    void decodesPercentEscapesPerSegmentAndKeepsPlus() {
        assertThat(PathSegments.split("/cache/v1/raw/a%2Fb")).containsExactly("cache", "v1", "raw", "a/b");
        assertThat(PathSegments.split("/cache/v1/raw/plus+key")).containsExactly("cache", "v1", "raw", "plus+key");
        assertThat(PathSegments.split("/raw/bl%C3%A5")).containsExactly("raw", "blå");
        assertThat(PathSegments.split("/raw/")).containsExactly("raw", "");
        assertThat(PathSegments.split("/")).containsExactly("");
    }

    @Test
    void malformedEscapesAreRejected() {
        assertThat(PathSegments.split("/raw/%zz")).isNull();
        assertThat(PathSegments.split("/raw/%4")).isNull();
    }

    @Test
    void partitionAndExitCodeParsing() {
        assertThat(HttpApi.parsePartition("12")).isEqualTo(12);
        assertThat(HttpApi.parsePartition("x")).isEqualTo(-1);
        assertThat(HttpApi.parsePartition("-1")).isEqualTo(-1);
        assertThat(HttpApi.exitCode("255")).isEqualTo(255);
        assertThat(HttpApi.exitCode("256")).isEqualTo(-1);
        assertThat(List.of(HttpApi.exitCode("0"))).containsExactly(0);
    }
}
