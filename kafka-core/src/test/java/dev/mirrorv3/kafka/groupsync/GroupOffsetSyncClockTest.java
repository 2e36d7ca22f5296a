package dev.mirrorv3.kafka.groupsync;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.kafka.groups.GroupSelection;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;

/**
 * A pass is stamped with the connector's clock, not the system's: the stamp feeds the last-sync timestamp metric, which
 * alerts on a standby whose groups stopped syncing. With no group to sync the pass asks the standby nothing, so an admin
 * client of an address nobody listens on will do.
 */
class GroupOffsetSyncClockTest {
    @Test
    void aPassIsStampedWithTheInjectedClock() throws Exception {
        Clock clock = Clock.fixed(Instant.ofEpochMilli(1_234_567_000L), ZoneOffset.UTC);
        try (Admin standby = Admin.create(Map.of("bootstrap.servers", "localhost:1"));
             GroupOffsetSync sync = new GroupOffsetSync(selection -> Map.of(), GroupSelection.of(".*", "", List.of()), standby,
                     "standby localhost:1", null, new GroupOffsetSync.Settings("clock", Duration.ofSeconds(1), clock))) {
            assertThat(sync.last().atMs()).as("no pass yet").isZero();
            assertThat(sync.syncOnce().atMs()).isEqualTo(1_234_567_000L);
            assertThat(sync.last().atMs()).isEqualTo(1_234_567_000L);
        }
    }
}
