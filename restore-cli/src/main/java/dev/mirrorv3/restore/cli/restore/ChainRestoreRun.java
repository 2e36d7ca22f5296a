package dev.mirrorv3.restore.cli.restore;

import dev.mirrorv3.chain.restore.BackupVerifier;
import dev.mirrorv3.chain.restore.KeptObjects;
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
import dev.mirrorv3.restore.cli.Backup;
import dev.mirrorv3.restore.cli.ExecutionExceptionHandler;
import dev.mirrorv3.restore.cli.ProgressPrinter;
import dev.mirrorv3.restore.cli.report.RestoreEvidence;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * {@code mirror-v3 restore} of a chain: the verify pass of every partition (in parallel) and its summary, the checks of
 * --offsets, the disaster-recovery steps around the records, then the records produced into the empty target.
 */
final class ChainRestoreRun {
    /** The most objects decoded at once in the verify pass of one partition, whatever the cores: each takes memory. */
    private static final int VERIFY_READS = 8;

    private final RestoreRun run;
    private final RestoreOptions.PartitionHook hook;

    ChainRestoreRun(RestoreRun run, RestoreOptions.PartitionHook hook) {
        this.run = run;
        this.hook = hook;
    }

    int run(CutOptions cut) throws Exception {
        RestoreSettings s = run.settings();
        Backup b = run.backup();
        boolean produces = !s.verifyOnly() && !s.dr().dryRun;
        // what the produce pass will send is kept from the verify pass as far as memory allows, not read and decoded twice
        try (Store store = b.openStore(); KeptObjects kept = produces ? KeptObjects.inProcessBudget() : KeptObjects.none()) {
            List<Integer> partitions = run.partitions(store);
            RestoreCut restoreCut = cut.cut(partitions);
            RestoreEvidence evidence = run.evidence(restoreCut);
            BackupVerifier verifier = new BackupVerifier(store, b.envelope(), b.sourceTopic(), b.keys()).keeping(kept)
                    .readingAhead(readAhead(partitions.size()));
            Optional<List<VerifiedPartition>> verified = verify(verifier, partitions, restoreCut, evidence);
            if (verified.isEmpty()) {
                return run.checkFailed(evidence);
            }
            List<VerifiedPartition> ok = verified.get();
            DisasterRecovery recovery = run.recovery(store, restoreCut);
            if (!s.verifyOnly()) {
                try {
                    recovery.prepare(ok, s.acceptRetention(), s.acceptLogAppendTime());
                } catch (RestoreCheckException e) {
                    evidence.groupsSkipped(recovery.skipped()); // a refusal before anything is sent leaves its evidence too
                    throw run.failed(evidence, e);
                }
                evidence.groupsSkipped(recovery.skipped());
            }
            if (!produces) {
                recovery.dryRun(ok, verifier);
                return run.finish(evidence);
            }
            try {
                produce(verifier, ok, evidence, recovery);
            } catch (Exception e) {
                throw run.failed(evidence, e);
            }
            return run.finish(evidence);
        }
    }

    /**
     * The verify pass with its summary; the partitions that passed, or empty when a partition failed or cannot be restored
     * with --offsets (each said on stderr and in the evidence).
     */
    private Optional<List<VerifiedPartition>> verify(BackupVerifier verifier, List<Integer> partitions, RestoreCut restoreCut,
            RestoreEvidence evidence) throws InterruptedException {
        PrintWriter out = run.out();
        PrintWriter err = run.err();
        long verifyStart = System.nanoTime();
        List<PartitionVerification> verified = verifyAll(verifier, partitions, restoreCut);
        evidence.verifyDuration(Duration.ofNanos(System.nanoTime() - verifyStart).toMillis());
        List<VerifiedPartition> ok = new ArrayList<>();
        boolean failed = false;
        for (PartitionVerification v : verified) {
            if (v instanceof PartitionVerification.Passed passed) {
                VerifiedPartition vp = passed.result();
                printSummary(out, run.backup(), vp);
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
            var problem = vp.problemWith(run.settings().offsets());
            if (problem.isPresent()) {
                err.println("error: " + problem.get());
                evidence.failed(vp.partition(), problem.get());
                failed = true;
            }
        }
        err.flush();
        return failed ? Optional.empty() : Optional.of(ok);
    }

    /** The verify pass of every partition, in parallel; the outcomes in partition order. */
    private List<PartitionVerification> verifyAll(BackupVerifier verifier, List<Integer> partitions, RestoreCut restoreCut)
            throws InterruptedException {
        Map<Integer, Long> unknown = new LinkedHashMap<>();
        partitions.forEach(p -> unknown.put(p, -1L));
        Progress progress = new Progress("verify", unknown);
        List<PartitionVerification> results = new ArrayList<>();
        long chainStart = run.settings().chainStart();
        ExecutorService pool = Executors.newFixedThreadPool(verifyThreads(partitions.size()));
        try (ProgressPrinter printer = ProgressPrinter.start(run.settings().progress(), run.err(), progress)) {
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

    /** Partitions verified at once: one per core. */
    private static int verifyThreads(int partitions) {
        return Math.min(partitions, Runtime.getRuntime().availableProcessors());
    }

    /**
     * Objects each partition reads ahead in the verify pass: the cores (at most {@value #VERIFY_READS}) shared among the
     * partitions verified at once, so that about as many objects are decoded at once as there are cores.
     */
    private static int readAhead(int partitions) {
        int cores = Math.min(Runtime.getRuntime().availableProcessors(), VERIFY_READS);
        return Math.max(1, cores / Math.max(1, verifyThreads(partitions)));
    }

    private void produce(BackupVerifier verifier, List<VerifiedPartition> partitions, RestoreEvidence evidence,
            DisasterRecovery recovery) throws Exception {
        RestoreSettings s = run.settings();
        String topic = s.topic();
        String cluster = "target " + run.target().bootstrapServers;
        try (LogOffsets offsetsOfTarget = run.openTarget()) {
            recovery.beforeRecords(offsetsOfTarget, cluster);
            RestoreOptions options = new RestoreOptions(s.offsets(), s.acceptRetention(), s.acceptLogAppendTime(),
                    s.originalOffsetHeader(), run.clock(), hook);
            Restorer restorer = recovery.checkBeforeRecords(offsetsOfTarget, () -> {
                Restorer r = new Restorer(verifier, offsetsOfTarget, TargetTopic.inspect(offsetsOfTarget.admin(), topic, s.timeout()),
                        run.target().clientConfig(), options);
                r.preCheck(partitions);
                return r;
            });
            Map<Integer, Long> totals = new TreeMap<>();
            partitions.forEach(vp -> totals.put(vp.partition(), vp.records()));
            Progress progress = new Progress("restore", totals);
            RestoreResult result;
            try (ProgressPrinter printer = ProgressPrinter.start(s.progress(), run.err(), progress)) {
                result = restorer.restore(partitions, progress);
            }
            run.out().println("restored: " + result.records() + " records into " + topic + " partitions "
                    + result.recordsPerPartition().keySet() + " (--offsets " + s.offsets().cliName() + ") in "
                    + String.format(Locale.ROOT, "%.1f", result.elapsedMs() / 1000.0)
                    + " s; batches of at most " + result.batchSizeMaxBytes() + " bytes, " + result.requests() + " produce requests");
            run.out().flush();
            evidence.restored(topic, run.target().bootstrapServers, result);
            recovery.afterRecords(offsetsOfTarget, cluster, partitions, verifier);
            evidence.groupsCommitted(recovery.groupSnapshotLocation(), recovery.committed(), recovery.withoutOffset());
        }
    }

    private static void printSummary(PrintWriter out, Backup b, VerifiedPartition vp) {
        out.println("backup: " + vp.location() + " (connector " + b.connector().name() + ", destination " + b.destinationName() + ")");
        out.println("source: " + vp.topic() + "/" + vp.partition());
        out.println("objects: " + vp.objects().size());
        out.println("offsets: " + vp.firstOffset() + "-" + vp.lastOffset());
        out.println("records: " + vp.records());
        out.println("holes: " + vp.holes());
        out.println("manifests: " + vp.manifests());
        CutOptions.printCut(out, vp);
        out.println();
    }

    private static void printTotal(PrintWriter out, List<VerifiedPartition> ok) {
        out.println("total: " + ok.size() + " partitions, " + ok.stream().mapToInt(vp -> vp.objects().size()).sum() + " objects, "
                + ok.stream().mapToLong(VerifiedPartition::records).sum() + " records, "
                + ok.stream().mapToLong(VerifiedPartition::holes).sum() + " holes");
    }
}
