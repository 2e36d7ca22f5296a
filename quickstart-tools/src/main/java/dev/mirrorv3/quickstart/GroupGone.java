package dev.mirrorv3.quickstart;

import java.util.List;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.common.errors.GroupIdNotFoundException;

/**
 * Waits until a consumer group has no member: after a sink connector is deleted, its task has closed its partitions
 * (Connect closes the task before its consumer leaves the group), so what the task writes at its close is written.
 * The connector's absence from the REST API says only that its config is gone; the task stops after that.
 *
 * <p>Usage: {@code GroupGone <bootstrap> <group> <timeout s>}; exits 1 naming the members left when they stay.
 */
public final class GroupGone {
    private GroupGone() {
    }

    public static void main(String[] args) throws Exception {
        Usage.exactly(args, 3, "GroupGone <bootstrap> <group> <timeout s>");
        String group = args[1];
        long deadline = System.nanoTime() + Long.parseLong(args[2]) * 1_000_000_000L;
        String members = "";
        try (TopicOffsets offsets = new TopicOffsets(args[0])) {
            while (System.nanoTime() < deadline) {
                try {
                    ConsumerGroupDescription d = offsets.admin().describeConsumerGroups(List.of(group)).describedGroups().get(group).get();
                    if (d.members().isEmpty()) {
                        return;
                    }
                    members = d.members().toString();
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof GroupIdNotFoundException) {
                        return;
                    }
                    members = "(not described: " + e.getCause() + ")";
                }
                Thread.sleep(200);
            }
        }
        System.out.println("group " + group + " still has members after " + args[2] + " s: " + members);
        System.exit(1);
    }
}
