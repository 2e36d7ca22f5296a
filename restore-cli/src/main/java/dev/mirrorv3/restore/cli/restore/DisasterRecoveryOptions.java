package dev.mirrorv3.restore.cli.restore;

import picocli.CommandLine.Option;

/** restore's disaster-recovery options: the topic and the consumer groups from the backed-up metadata. */
final class DisasterRecoveryOptions {
    @Option(names = "--create-topic", description = {"Create the target topic from the backed-up topic metadata (the newest"
            + " _meta/topic snapshot): its partitions and the configs set on the source topic. Refused when the topic exists,"
            + " when the cluster has fewer brokers than the replication factor, or when its retention.ms/retention.bytes would"
            + " delete restored records (unless --accept-retention). Configs that cannot work on the target are adjusted, each"
            + " with a note: throttled-replica lists dropped, min.insync.replicas lowered to the replication factor,"
            + " message.timestamp.* limits the records break dropped, remote.storage.enable dropped without tiered storage."})
    boolean createTopic;

    @Option(names = "--replication-factor", paramLabel = "N",
            description = "With --create-topic: the replication factor (default the backed-up one).")
    Integer replicationFactor;

    @Option(names = "--all-topics", description = {"Restore every topic of a connector that backs up several (destination.name"
            + " with $${topic}), each into a topic of its own name, in parallel, with one summary. Not with --topic or"
            + " --source-topic."})
    boolean allTopics;

    @Option(names = "--groups", paramLabel = "REGEX", description = {"After the records of a partition are restored and verified,"
            + " commit the committed offsets of the consumer groups matching REGEX from the newest _meta/groups snapshot of the"
            + " backup's topic (one of a topic deleted and created again under the same name is skipped and named): preserve"
            + " applies them clamped into the target's range (max(log start, min(committed, high watermark))), renumber"
            + " translates them exactly (new offset = records before the committed offset). Groups with active members on the"
            + " target are refused.", "e.g. --groups '.*'"})
    String groups;

    @Option(names = "--groups-exclude", paramLabel = "REGEX",
            description = "Consumer groups not restored even when --groups matches them (exclude wins); only with --groups.")
    String groupsExclude;

    @Option(names = "--dry-run", description = "Verify, then show the topic that --create-topic would create and the group offsets"
            + " --groups would commit (as the restored topic will hold them), without creating, producing or committing anything.")
    boolean dryRun;

    boolean any() {
        return createTopic || groups != null || allTopics || dryRun;
    }
}
