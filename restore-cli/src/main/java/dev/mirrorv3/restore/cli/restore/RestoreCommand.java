package dev.mirrorv3.restore.cli.restore;

import dev.mirrorv3.chain.restore.OffsetMode;
import dev.mirrorv3.kafka.restore.RestoreOptions;
import dev.mirrorv3.restore.cli.Backup;
import dev.mirrorv3.restore.cli.BackupOptions;
import dev.mirrorv3.restore.cli.ProgressPrinter;
import dev.mirrorv3.restore.cli.TargetOptions;
import dev.mirrorv3.restore.cli.UsageException;
import dev.mirrorv3.restore.cli.report.ReportOptions;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.function.BiFunction;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code mirror-v3 restore}: verify a backup, then produce it into an empty topic (existing, or created with --create-topic). */
@Command(name = "restore",
        mixinStandardHelpOptions = true,
        description = {"Reads a blob sink connector's backup back into a Kafka topic: first the verify pass (list and validate the"
                + " chain, read and check every object, print the summary), then, unless --verify-only, the records in order into"
                + " the same-numbered partitions of an empty topic (existing, or created with --create-topic), every delivery"
                + " checked to be at the offset it was sent for. Restore creates a topic only with --create-topic (from the"
                + " backed-up topic metadata), never deletes one and does not resume: after a failed restore, delete the topic,"
                + " create it again and restore again. --groups then commits the backed-up consumer-group offsets."},
        footerHeading = "%nExamples:%n",
        footer = {"  # Is the backup complete, and can it be restored with its offsets? (the scheduled check)",
                "  mirror-v3 restore --connector-config orders-backup.json --offsets preserve --verify-only",
                "",
                "  # Restore every partition, each record at its original offset, into the empty topic orders",
                "  mirror-v3 restore --connector-config orders-backup.json --offsets preserve \\",
                "      --bootstrap-servers kafka:9092 --topic orders",
                "",
                "  # The topic as it was at 14:02 UTC (per partition the prefix stamped at or before it), with a report",
                "  mirror-v3 restore --connector-config orders-backup.json --offsets preserve --until-timestamp 2026-11-30T14:02:00Z \\",
                "      --bootstrap-servers kafka:9092 --topic orders-1402 --report orders-1402.json",
                "",
                "  # A compacted topic (holes): records at 0, 1, 2, ..., old offsets in a header; partition 3 only",
                "  mirror-v3 restore --connect-url http://connect:8083 --connector user-states-backup --offsets renumber \\",
                "      --original-offset-header mirror-v3.offset --partition 3 --bootstrap-servers kafka:9092 --topic user-states",
                "",
                "Exit codes: 0 ok, 1 a check failed (the message says which), 2 usage."})
public final class RestoreCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    BackupOptions backup;

    @Mixin
    TargetOptions target;

    @Mixin
    CutOptions cut;

    @Mixin
    ReportOptions report;

    @Mixin
    DisasterRecoveryOptions dr;

    @Option(names = "--topic", paramLabel = "TOPIC", description = {"The target topic: it must exist (unless --create-topic creates it),"
            + " have the backup's partitions and be empty (high watermark 0).", "e.g. --topic orders"})
    String topic;

    @Option(names = "--offsets", required = true, paramLabel = "preserve|renumber",
            description = {"preserve: every record at its original offset (the chain must start at 0 and have no hole; the first"
                    + " hole is named otherwise). renumber: the records at 0, 1, 2, ... in their original order (for compacted"
                    + " or transactional topics, whose chains have holes). A compaction=log backup (snapshots) is restored with"
                    + " renumber only:"
                    + " the newest snapshot (or the newest at or before --until-offset/--until-timestamp), in key order."})
    OffsetMode offsets;

    @Option(names = "--verify-only", description = "Stop after the verify pass; exit 1 if the backup cannot be restored with --offsets.")
    boolean verifyOnly;

    @Option(names = "--chain-start", paramLabel = "OFFSET", defaultValue = "0",
            description = {"Where the chain must start. Default ${DEFAULT-VALUE}: at offset 0 or at its recorded start (where prune"
                    + " left it); another offset: at or before it. A chain starting elsewhere is an error, so objects removed from"
                    + " its head by anything but prune are never missed silently. Refused on a compaction=log backup (snapshots"
                    + " have no chain start).", "e.g. --chain-start 500000"})
    long chainStart;

    @Option(names = "--partition", paramLabel = "N",
            description = "Restore only this partition of the backup (into partition N); default all of them, in parallel.")
    Integer partition;

    @Option(names = "--original-offset-header", paramLabel = "NAME",
            description = {"Add each record's backed-up offset (decimal text) as a header of this name, so consumers can map old"
                    + " offsets to new ones (renumber).", "e.g. --original-offset-header mirror-v3.offset"})
    String originalOffsetHeader;

    @Option(names = "--accept-retention", description = "Restore even though the target's retention.ms would delete the oldest"
            + " restored records soon after the restore.")
    boolean acceptRetention;

    @Option(names = "--accept-log-append-time", description = "Restore even though the target has message.timestamp.type="
            + "LogAppendTime (every record restamped at restore time); without it such a target is refused, a chain's restore and a"
            + " snapshot's alike.")
    boolean acceptLogAppendTime;

    @Option(names = "--progress", paramLabel = "auto|bar|plain|none", defaultValue = "auto",
            description = "Progress on stderr: a bar per partition and in total on a terminal (auto), a plain line every 5 s"
                    + " otherwise.")
    ProgressPrinter.Mode progressMode;

    @Option(names = "--timeout-ms", paramLabel = "MS", defaultValue = "30000",
            description = "Timeout of one query to the target cluster (default ${DEFAULT-VALUE}).")
    long timeoutMs;

    private final RestoreOptions.PartitionHook hook;
    private final BiFunction<PrintWriter, PrintWriter, CommandLine> newCommandLine;

    /**
     * @param newCommandLine a new {@code mirror-v3} command line writing to the given out and err (Main's, with its
     *     settings): --all-topics runs each topic's restore on one of its own
     */
    public RestoreCommand(RestoreOptions.PartitionHook hook, BiFunction<PrintWriter, PrintWriter, CommandLine> newCommandLine) {
        this.hook = hook;
        this.newCommandLine = newCommandLine;
    }

    /** This restore is one topic of --all-topics: its evidence goes to {@code collector} ({@link ReportOptions#collectInto}). */
    void collectEvidence(java.util.function.Consumer<dev.mirrorv3.restore.cli.report.RestoreEvidence> collector) {
        report.collectInto(collector);
    }

    @Override
    public Integer call() throws Exception {
        refuseFlagsThatWouldBeIgnored();
        if (dr.allTopics) {
            return AllTopicsRestore.run(spec, backup, topic, newCommandLine, report, verifyOnly);
        }
        if (!verifyOnly && !dr.dryRun && (target.bootstrapServers == null || topic == null)) {
            throw new ParameterException(spec.commandLine(), "restore needs --bootstrap-servers and --topic (or --verify-only)");
        }
        if (originalOffsetHeader != null && originalOffsetHeader.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "--original-offset-header needs a name");
        }
        Backup b = backup.load();
        RestoreSettings settings = new RestoreSettings(offsets, topic, Duration.ofMillis(timeoutMs), verifyOnly, partition, chainStart,
                acceptRetention, acceptLogAppendTime, originalOffsetHeader, progressMode, dr);
        RestoreRun run = new RestoreRun(b, settings, target, report, spec.commandLine().getOut(), spec.commandLine().getErr(),
                Clock.systemUTC());
        if (b.snapshots() && spec.commandLine().getParseResult().hasMatchedOption("--chain-start")) {
            throw new UsageException(String.format(SnapshotRestoreRun.CHAIN_START_REFUSED, "connector " + b.connector().name()));
        }
        return b.snapshots() ? new SnapshotRestoreRun(run).run(cut) : new ChainRestoreRun(run, hook).run(cut); // compaction=log: snapshots
    }

    /** Every flag works on every backup kind or is refused here, before anything is read or written (docs/restore-cli.md). */
    private void refuseFlagsThatWouldBeIgnored() {
        if (dr.groupsExclude != null && dr.groups == null) {
            throw new ParameterException(spec.commandLine(), "--groups-exclude only narrows --groups: pass --groups too, e.g."
                    + " --groups '.*' --groups-exclude '" + dr.groupsExclude + "'");
        }
        if (verifyOnly && (dr.groups != null || dr.createTopic)) {
            throw new ParameterException(spec.commandLine(), "--verify-only reads the backup and writes nothing: not with "
                    + (dr.createTopic ? "--create-topic" : "--groups") + "; use --dry-run to see the topic and the group offsets a"
                    + " restore would create and commit");
        }
        if (dr.replicationFactor != null && !dr.createTopic) {
            throw new ParameterException(spec.commandLine(), "--replication-factor is the replication factor of the topic"
                    + " --create-topic creates: pass --create-topic too, or leave it out to restore into an existing topic");
        }
    }
}
