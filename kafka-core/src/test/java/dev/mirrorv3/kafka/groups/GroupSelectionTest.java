package dev.mirrorv3.kafka.groups;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class GroupSelectionTest {
    @Test
    void includeSelectsWholeIds() {
        GroupSelection s = GroupSelection.of("billing-.*", "", List.of());
        assertThat(s.selected("billing-eu")).isTrue();
        assertThat(s.selected("my-billing-eu")).isFalse();
    }

    @Test
    void excludeWinsOverInclude() {
        GroupSelection s = GroupSelection.of(".*", "billing-test.*|tmp", List.of());
        assertThat(s.selected("billing-eu")).isTrue();
        assertThat(s.selected("billing-test-1")).isFalse();
        assertThat(s.selected("tmp")).isFalse();
        assertThat(GroupSelection.of("tmp", "tmp", List.of()).selected("tmp")).isFalse();
    }

    @Test
    void ownAndInternalGroupsAreNeverSelected() {
        GroupSelection s = GroupSelection.of(".*", null, List.of("connect-mirror"));
        assertThat(s.selected("connect-mirror")).isFalse();
        assertThat(s.selected("__internal")).isFalse();
        assertThat(s.selected("connect-other")).isTrue();
    }

    @Test
    void badPatternNamesIt() {
        assertThatThrownBy(() -> GroupSelection.of("(", "", List.of())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("include pattern '('");
    }
}
