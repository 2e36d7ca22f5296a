package dev.mirrorv3.restore.cli;

import dev.mirrorv3.chain.restore.BackupVerifier;
import dev.mirrorv3.chain.restore.OffsetMode;
import dev.mirrorv3.chain.restore.Progress;
import dev.mirrorv3.chain.restore.RestoreCut;
import dev.mirrorv3.chain.restore.VerifiedPartition;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.kafka.Failures;
import dev.mirrorv3.kafka.LogOffsets;
import dev.mirrorv3.kafka.restore.RecordSizes;
import dev.mirrorv3.kafka.restore.RestoreCheckException;
import dev.mirrorv3.kafka.restore.RestoreOptions;
import dev.mirrorv3.kafka.restore.RestoreResult;
import dev.mirrorv3.kafka.restore.Restorer;
import dev.mirrorv3.kafka.restore.TargetTopic;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
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
final class RestoreCommand implements Callable<Integer> {
    /** The one clock of a restore: the evidence's times, the retention checks, the wait for a created topic. */
    private final Clock clock = Clock.systemUTC();

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
            description = {"The offset the chain must start at (default ${DEFAULT-VALUE}); a chain starting later is an error unless"
                    + " this says so, so objects removed from its head are never missed silently.", "e.g. --chain-start 500000"})
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
            + "LogAppendTime (every record restamped at restore time).")
    boolean acceptLogAppendTime;

    @Option(names = "--progress", paramLabel = "auto|bar|plain|none", defaultValue = "auto",
            description = "Progress on stderr: a bar per partition and in total on a terminal (auto), a plain line every 5 s"
                    + " otherwise.")
    ProgressPrinter.Mode progressMode;

    @Option(names = "--timeout-ms", paramLabel = "MS", defaultValue = "30000",
            description = "Timeout of one query to the target cluster (default ${DEFAULT-VALUE}).")
    long timeoutMs;

    private final RestoreOptions.PartitionHook hook;

    RestoreCommand(RestoreOptions.PartitionHook hook) {
        this.hook = hook;
    }

    @Override
    public Integer call() throws Exception {
        refuseFlagsThatWouldBeIgnored();
        if (dr.allTopics) {
            return AllTopicsRestore.run(spec, backup, topic, hook);
        }
        if (!verifyOnly && !dr.dryRun && (target.bootstrapServers == null || topic == null)) {
            throw new ParameterException(spec.commandLine(), "restore needs --bootstrap-servers and --topic (or --verify-only)");
        }
        if (originalOffsetHeader != null && originalOffsetHeader.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "--original-offset-header needs a name");
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Backup b = backup.load();
        if (SnapshotRestoreRun.applies(b)) { // compaction=log: snapshots, not a chain
            if (dr.groups != null) {
                throw new UsageException("--groups cannot restore the consumer groups of " + b.connector().name() + ": it backs up"
                        + " with compaction=log, and a snapshot is restored in key order at offsets 0, 1, 2, ..., so no offset of the"
                        + " restored topic stands for a backed-up group position. Restore without --groups, then set each group with"
                        + " kafka-consumer-groups.sh --reset-offsets --to-earliest (it reads the whole state again) or --to-latest."
                        + " Nothing was written");
            }
            return new SnapshotRestoreRun(b, out, err, clock).run(this);
        }
        try (Store store = b.openStore()) {
            List<Integer> partitions = partition != null ? List.of(partition) : store.partitions();
            if (partitions.isEmpty()) {
                throw new dev.mirrorv3.chain.ChainException(store.location(0).replaceAll("/0$", "")
                        + " holds no partition directories: no backup of " + b.sourceTopic() + " there (check filesystem.root and"
                        + " destination.name)");
            }
            RestoreCut restoreCut = cut.cut(partitions);
            RestoreEvidence evidence = new RestoreEvidence(b, offsets.cliName(), restoreCut, verifyOnly, clock);
            BackupVerifier verifier = new BackupVerifier(store, b.envelope(), b.sourceTopic(), b.keys());
            long verifyStart = System.nanoTime();
            List<PartitionVerification> verified = verifyAll(verifier, partitions, restoreCut, err);
            evidence.verifyDuration(Duration.ofNanos(System.nanoTime() - verifyStart).toMillis());
            List<VerifiedPartition> ok = new ArrayList<>();
            boolean failed = false;
            for (PartitionVerification v : verified) {
                if (v instanceof PartitionVerification.Passed passed) {
                    VerifiedPartition vp = passed.result();
                    printSummary(out, b, vp);
                    ok.add(vp);
                    evidence.verified(vp);
                } else if (v instanceof PartitionVerification.Failed f) {
                    err.println("error: partition " + f.partition() + ": " + Failures.describe(f.cause()));
                    evidence.failed(f.partition(), Failures.describe(f.cause()));
                    failed = true;
                }
            }
            if (partitions.size() > 1) {
                printTotal(out, ok);
            }
            out.flush();
            for (VerifiedPartition vp : ok) {
                var problem = vp.problemWith(offsets);
                if (problem.isPresent()) {
                    err.println("error: " + problem.get());
                    evidence.failed(vp.partition(), problem.get());
                    failed = true;
                }
            }
            err.flush();
            if (failed) {
                report.write(evidence, err);
                return ExitCodes.CHECK_FAILED;
            }
            DisasterRecovery recovery = new DisasterRecovery(dr, offsets, topic != null ? topic : b.sourceTopic(),
                    Duration.ofMillis(timeoutMs), store, b, restoreCut, out, clock);
            if (!verifyOnly) {
                recovery.prepare(ok, acceptRetention, acceptLogAppendTime);
            }
            if (verifyOnly || dr.dryRun) {
                recovery.dryRun(ok, verifier);
                return report.write(evidence, err) ? ExitCodes.OK : ExitCodes.CHECK_FAILED;
            }
            int code;
            try {
                code = produce(out, err, verifier, ok, evidence, recovery);
            } catch (Exception e) {
                evidence.restoreFailed(topic, target.bootstrapServers, e);
                report.write(evidence, err);
                throw e;
            }
            boolean written = report.write(evidence, err);
            return code != ExitCodes.OK ? code : written ? ExitCodes.OK : ExitCodes.CHECK_FAILED;
        }
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

    /** The verify pass of every partition, in parallel; the outcomes in partition order. */
    private List<PartitionVerification> verifyAll(BackupVerifier verifier, List<Integer> partitions, RestoreCut restoreCut,
            PrintWriter err) throws InterruptedException {
        Map<Integer, Long> unknown = new LinkedHashMap<>();
        partitions.forEach(p -> unknown.put(p, -1L));
        Progress progress = new Progress("verify", unknown);
        List<PartitionVerification> results = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(partitions.size(), Runtime.getRuntime().availableProcessors()));
        try (ProgressPrinter printer = ProgressPrinter.start(progressMode, err, progress)) {
            Map<Integer, Future<VerifiedPartition>> futures = new LinkedHashMap<>();
            for (int p : partitions) {
                futures.put(p, pool.submit(() -> verifier.verify(p, chainStart, restoreCut.finder(p), RecordSizes::batchOfOne,
                        n -> progress.add(p, n))));
            }
            for (Map.Entry<Integer, Future<VerifiedPartition>> f : futures.entrySet()) {
                try {
                    results.add(new PartitionVerification.Passed(f.getValue().get()));
                } catch (ExecutionException e) {
                    if (ExecutionExceptionHandler.exitCode(e.getCause()) < 0) {
                        throw new IllegalStateException("verify pass of partition " + f.getKey() + " failed", e.getCause());
                    }
                    results.add(new PartitionVerification.Failed(f.getKey(), e.getCause()));
                }
            }
        } finally {
            pool.shutdownNow();
        }
        results.sort(Comparator.comparingInt(PartitionVerification::partition));
        return results;
    }

    private int produce(PrintWriter out, PrintWriter err, BackupVerifier verifier, List<VerifiedPartition> partitions,
            RestoreEvidence evidence, DisasterRecovery recovery) throws Exception {
        Map<String, Object> client = target.clientConfig();
        Map<String, Object> adminConfig = new LinkedHashMap<>(client);
        adminConfig.putIfAbsent(AdminClientConfig.CLIENT_ID_CONFIG, "mirror-v3-restore-admin");
        adminConfig.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeoutMs);
        adminConfig.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) Math.min(timeoutMs, Integer.MAX_VALUE));
        Duration timeout = Duration.ofMillis(timeoutMs);
        try (LogOffsets offsetsOfTarget = new LogOffsets(Admin.create(adminConfig), timeout)) {
            recovery.beforeRecords(offsetsOfTarget, "target " + target.bootstrapServers);
            TargetTopic t = TargetTopic.inspect(offsetsOfTarget.admin(), topic, timeout);
            RestoreOptions options = new RestoreOptions(offsets, acceptRetention, acceptLogAppendTime, originalOffsetHeader,
                    clock, hook);
            Restorer restorer = new Restorer(verifier, offsetsOfTarget, t, client, options);
            try {
                restorer.preCheck(partitions);
            } catch (RestoreCheckException e) {
                recovery.deleteCreated(offsetsOfTarget);
                throw e;
            }
            Map<Integer, Long> totals = new TreeMap<>();
            partitions.forEach(vp -> totals.put(vp.partition(), vp.records()));
            Progress progress = new Progress("restore", totals);
            RestoreResult result;
            try (ProgressPrinter printer = ProgressPrinter.start(progressMode, err, progress)) {
                result = restorer.restore(partitions, progress);
            }
            out.println("restored: " + result.records() + " records into " + topic + " partitions " + result.recordsPerPartition().keySet()
                    + " (--offsets " + offsets.cliName() + ") in "
                    + String.format(java.util.Locale.ROOT, "%.1f", result.elapsedMs() / 1000.0)
                    + " s; batches of at most " + result.batchSizeMaxBytes() + " bytes, " + result.requests() + " produce requests");
            out.flush();
            evidence.restored(topic, target.bootstrapServers, result);
            recovery.afterRecords(offsetsOfTarget, "target " + target.bootstrapServers, partitions, verifier);
            evidence.groupsCommitted(recovery.groupSnapshotLocation(), recovery.committed(), recovery.withoutOffset());
            return ExitCodes.OK;
        }
    }

    private static void printSummary(PrintWriter out, Backup b, VerifiedPartition vp) {
        out.println("backup: " + vp.location() + " (connector " + b.connector().name() + ", destination " + b.destinationName() + ")");
        out.println("source: " + vp.topic() + "/" + vp.partition());
        out.println("objects: " + vp.objects().size());
        out.println("offsets: " + vp.firstOffset() + "-" + vp.lastOffset());
        out.println("records: " + vp.records());
        out.println("holes: " + vp.holes());
        CutOptions.printCut(out, vp);
        out.println();
    }

    private static void printTotal(PrintWriter out, List<VerifiedPartition> ok) {
        out.println("total: " + ok.size() + " partitions, " + ok.stream().mapToInt(vp -> vp.objects().size()).sum() + " objects, "
                + ok.stream().mapToLong(VerifiedPartition::records).sum() + " records, "
                + ok.stream().mapToLong(VerifiedPartition::holes).sum() + " holes");
    }
}
