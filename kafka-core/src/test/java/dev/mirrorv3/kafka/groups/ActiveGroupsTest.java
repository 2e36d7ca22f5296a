package dev.mirrorv3.kafka.groups;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.DescribeConsumerGroupsResult;
import org.apache.kafka.clients.admin.MemberAssignment;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.NotCoordinatorException;
import org.apache.kafka.common.internals.KafkaFutureImpl;
import org.junit.jupiter.api.Test;

/** The guard's decisions from group states; describing real groups is exercised against brokers by the connectors' ITs. */
class ActiveGroupsTest {

    @Test
    void onlyEmptyAndDeadAreInactive() {
        for (GroupState s : GroupState.values()) {
            assertThat(ActiveGroups.isActive(s)).as(s.name()).isEqualTo(s != GroupState.EMPTY && s != GroupState.DEAD);
        }
    }

    @Test
    void skipsActiveAndUndescribableGroupsAndCountsThem() throws Exception {
        Map<String, Object> cluster = new HashMap<>();
        cluster.put("idle", GroupState.EMPTY);
        cluster.put("gone", GroupState.DEAD);
        cluster.put("live", GroupState.STABLE);
        cluster.put("joining", GroupState.PREPARING_REBALANCE);
        cluster.put("unknown", new GroupIdNotFoundException("unknown"));
        cluster.put("secret", new GroupAuthorizationException("no Describe"));
        ActiveGroups guard = new ActiveGroups(fakeAdmin(cluster), Duration.ofSeconds(5), "destination test");

        Set<String> free = guard.inactive(cluster.keySet());

        assertThat(free).containsExactlyInAnyOrder("idle", "gone", "unknown");
        assertThat(guard.skippedLast()).isEqualTo(3);
        assertThat(guard.lastSkipped()).containsExactly("joining", "live", "secret");
        guard.inactive(List.of("live"));
        assertThat(guard.skippedLast()).isEqualTo(1);
        assertThat(guard.skippedTotal()).isEqualTo(4);
    }

    @Test
    void transientFailureDecidesNothing() {
        ActiveGroups guard = new ActiveGroups(fakeAdmin(Map.of("g", new NotCoordinatorException("moving"))), Duration.ofSeconds(5), "d");
        assertThatThrownBy(() -> guard.inactive(List.of("g"))).isInstanceOf(NotCoordinatorException.class);
    }

    /** An Admin that answers describeConsumerGroups only: each group's state, or the failure of its future. */
    private static Admin fakeAdmin(Map<String, Object> cluster) {
        return (Admin) Proxy.newProxyInstance(Admin.class.getClassLoader(), new Class<?>[]{Admin.class}, (proxy, method, args) -> {
            if (!method.getName().equals("describeConsumerGroups")) {
                throw new UnsupportedOperationException(method.getName());
            }
            @SuppressWarnings("unchecked") Collection<String> groups = (Collection<String>) args[0];
            Map<String, KafkaFuture<ConsumerGroupDescription>> futures = new HashMap<>();
            for (String g : groups) {
                KafkaFutureImpl<ConsumerGroupDescription> f = new KafkaFutureImpl<>();
                Object v = cluster.get(g);
                if (v instanceof RuntimeException e) {
                    f.completeExceptionally(e);
                } else {
                    GroupState s = (GroupState) v;
                    List<MemberDescription> members = ActiveGroups.isActive(s)
                            ? List.of(new MemberDescription("m1", "client-1", "/127.0.0.1", new MemberAssignment(Set.of()))) : List.of();
                    f.complete(new ConsumerGroupDescription(g, false, members, "range", GroupType.CLASSIC, s, null, Set.of(),
                            java.util.Optional.empty(), java.util.Optional.empty()));
                }
                futures.put(g, f);
            }
            return new DescribeConsumerGroupsResult(futures);
        });
    }
}
