package dev.mirrorv3.quickstart;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * scripts/faults.sh, run by bash as ./torture sources it, on real processes: a fault counts only when it landed, a
 * scenario passes only with the faults its schedule planned, a fault that missed is tried again and then named, and
 * the checks that tell a landed fault from a missed one (docs/reliability.md, "What is counted and checked").
 */
class TortureFaultsTest {
    private static final Path SCRIPTS = Path.of("..", "scripts").toAbsolutePath().normalize(); // module dir

    @Test
    void aKillOfAProcessThatIsAlreadyGoneDoesNotCount() throws Exception {
        String out = bash("sleep 60 & p=$!; kill $p; wait $p || true;"
                + " if fault_kill9 $p; then fault_landed; fi; echo \"faults=$FAULTS miss=$FAULT_MISS\"");

        assertThat(out).isEqualTo("faults=0 miss=pid %s was not running when SIGKILL was sent\n".formatted(pidIn(out)));
    }

    @Test
    void aKillOfAZombieDoesNotCount() throws Exception {
        // sleep 0.1's parent execs sleep 30, which never reaps it: a process that has exited, which kill still accepts
        String out = bash("sh -c 'sleep 0.1 & echo $! > \"$0\"; exec sleep 30' \"$TMP/zombie\" & parent=$!;"
                + " while [ ! -s \"$TMP/zombie\" ] || [ \"$(fault_proc_state \"$(cat \"$TMP/zombie\")\")\" != Z ]; do sleep 0.05; done;"
                + " z=$(cat \"$TMP/zombie\"); kill -KILL $z && echo 'kill accepts it';"
                + " if fault_kill9 $z; then fault_landed; fi; kill $parent; echo \"faults=$FAULTS\"");

        assertThat(out).isEqualTo("kill accepts it\nfaults=0\n");
    }

    @Test
    void aKillOfALiveProcessCountsOnceItIsGone() throws Exception {
        String out = bash("sleep 60 & p=$!; disown $p; if fault_kill9 $p; then fault_landed; fi;"
                + " echo \"faults=$FAULTS state=[$(fault_proc_state $p)]\"");

        assertThat(out).isIn("faults=1 state=[]\n", "faults=1 state=[Z]\n");
    }

    @Test
    void aFreezeCountsOnlyWhenTheProcessStopped() throws Exception {
        String out = bash("sleep 60 & p=$!; disown $p; if fault_freeze $p; then fault_landed; fi; echo \"state=$(fault_proc_state $p)\";"
                + " kill -KILL $p; wait $p || true; if fault_freeze $p; then fault_landed; fi; echo \"faults=$FAULTS\"");

        assertThat(out).isEqualTo("state=T\nfaults=1\n");
    }

    @Test
    void theScheduleOfEachScenario() throws Exception {
        String out = bash("for s in sink-fs zombie kafka-sink sidecar sink-s3 isolate; do echo \"$s $(planned_faults $s 3)\"; done;"
                + " echo \"long sink-s3 $(planned_faults sink-s3 10)\"");

        assertThat(out).isEqualTo("sink-fs 3\nzombie 3\nkafka-sink 6\nsidecar 6\nsink-s3 7\nisolate 4\nlong sink-s3 20\n");
    }

    @Test
    void aScenarioPassesOnlyWithThePlannedFaults() throws Exception {
        String out = bash("faults_verdict sink-s3 5 5 && echo pass; faults_verdict sink-s3 4 5 || echo fail;"
                + " faults_verdict zombie 4 3 || echo fail");

        assertThat(out).isEqualTo("pass\n  sink-s3: 4 fault(s) landed, the schedule planned 5\nfail\n"
                + "  zombie: 4 fault(s) landed, the schedule planned 3\nfail\n");
    }

    @Test
    void aMissedFaultIsTriedAgainAndNamedWhenItKeepsMissing() throws Exception {
        String out = bash("n=0; twice() { n=$((n + 1)); if [ $n -le 2 ]; then fault_missed \"miss $n\"; return 2; fi; fault_landed; };"
                + " fault_attempt 'step A' twice >/dev/null && echo \"A passed after $n attempts, faults=$FAULTS\";"
                + " always() { fault_missed 'the task had moved'; return 2; };"
                + " fault_attempt 'step B' always | grep -v 'trying again$' || echo 'B failed';"
                + " m=0; broken() { m=$((m + 1)); return 1; }; fault_attempt 'step C' broken || echo \"C failed after $m attempt\"");

        assertThat(out).isEqualTo("A passed after 3 attempts, faults=1\n"
                + "  step B: the fault missed 3 times; attempt 1: the task had moved; attempt 2: the task had moved;"
                + " attempt 3: the task had moved\nB failed\nC failed after 1 attempt\n");
    }

    @Test
    void aTaskStopInTheWorkerLogAfterTheAimMeansTheFaultMissedIt() throws Exception {
        String out = bash("log=\"$TMP/connect.log\";"
                + " echo '[t] INFO Stopping task zz-backup-0 (org.apache.kafka.connect.runtime.Worker)' > \"$log\";"
                + " echo '[t] INFO Stopping task zz-backup-10 (org.apache.kafka.connect.runtime.Worker)' >> \"$log\";"
                + " task_stopped_in_log \"$log\" 2 zz-backup 0 || echo 'not after line 2';"
                + " task_stopped_in_log \"$log\" 1 zz-backup 0 && echo 'from line 1';"
                + " echo '[t] INFO Handling task config update by stopping tasks [other-1, zz-backup-0], which will be"
                + " restarted' >> \"$log\";"
                + " task_stopped_in_log \"$log\" 3 zz-backup 0 && echo 'config update'");

        assertThat(out).isEqualTo("not after line 2\nfrom line 1\nconfig update\n");
    }

    @Test
    void aTaskThatFailedAndWasRevivedIsReportedButNotAZombieReportingLate() throws Exception {
        String out = bash("printf '%s\\t%s\\n'"
                + " status-task-a-0 '{\"state\":\"RUNNING\",\"trace\":null,\"worker_id\":\"h:1\",\"generation\":3}'"
                + " status-task-a-0 '{\"state\":\"FAILED\",\"trace\":\"org.x.Boom: broken\\n\\tat x\","
                + "\"worker_id\":\"h:1\",\"generation\":3}'"
                + " status-task-a-0 '{\"state\":\"RUNNING\",\"trace\":null,\"worker_id\":\"h:2\",\"generation\":4}'"
                + " status-task-z-0 '{\"state\":\"RUNNING\",\"trace\":null,\"worker_id\":\"h:1\",\"generation\":5}'"
                + " status-task-z-0 '{\"state\":\"RUNNING\",\"trace\":null,\"worker_id\":\"h:2\",\"generation\":7}'"
                + " status-task-z-0 '{\"state\":\"FAILED\",\"trace\":\"zombie\",\"worker_id\":\"h:1\",\"generation\":5}'"
                + " status-task-other-0 '{\"state\":\"FAILED\",\"trace\":\"not ours\",\"worker_id\":\"h:1\","
                + "\"generation\":9}'"
                + " status-connector-a '{\"state\":\"FAILED\",\"trace\":\"connector\",\"worker_id\":\"h:3\","
                + "\"generation\":2}'"
                + " status-task-a-1 '' > \"$TMP/status\";"
                + " task_failures a z < \"$TMP/status\"; echo '--'; task_failures z < \"$TMP/status\"; echo '--'");

        assertThat(out).isEqualTo("a-0 FAILED on h:1 (generation 3): org.x.Boom: broken\n"
                + "a FAILED on h:3 (generation 2): connector\n--\n--\n");
    }

    @Test
    void anUnassignedOfAnOlderGenerationWrittenLastIsStaleButOneOfTheCurrentGenerationIsNot() throws Exception {
        String out = bash("printf '%s\\t%s\\n'"
                + " status-connector-m '{\"state\":\"RUNNING\",\"trace\":null,\"worker_id\":\"h:1\",\"generation\":3}'"
                + " status-connector-m '{\"state\":\"RUNNING\",\"trace\":null,\"worker_id\":\"h:2\",\"generation\":5}'"
                + " status-connector-m '{\"state\":\"UNASSIGNED\",\"trace\":null,\"worker_id\":\"h:1\",\"generation\":4}'"
                + " status-task-m-0 '{\"state\":\"RUNNING\",\"trace\":null,\"worker_id\":\"h:2\",\"generation\":5}'"
                + " status-connector-n '{\"state\":\"RUNNING\",\"trace\":null,\"worker_id\":\"h:1\",\"generation\":3}'"
                + " status-connector-n '{\"state\":\"UNASSIGNED\",\"trace\":null,\"worker_id\":\"h:1\",\"generation\":4}'"
                + " status-connector-gone '{\"state\":\"RUNNING\",\"trace\":null,\"worker_id\":\"h:2\",\"generation\":5}'"
                + " status-connector-gone '{\"state\":\"UNASSIGNED\",\"trace\":null,\"worker_id\":\"h:1\",\"generation\":4}'"
                + " status-connector-gone '' > \"$TMP/status\";"
                + " stale_unassigned m n gone < \"$TMP/status\"; echo '--';"
                + " not_running m '{\"connector\":{\"state\":\"UNASSIGNED\"},\"tasks\":[{\"id\":0,\"state\":\"RUNNING\"},"
                + "{\"id\":1,\"state\":\"FAILED\"}]}';"
                + " not_running n '{\"connector\":{\"state\":\"RUNNING\"},\"tasks\":[]}'");

        assertThat(out).isEqualTo("m UNASSIGNED on h:1 (generation 4) written after RUNNING on h:2 (generation 5)\n--\n"
                + "m\nm-1\nn: no task\n");
    }

    @Test
    void offsetsAndShares() throws Exception {
        String out = bash("printf 't:0:100\\nt:1:250\\nt:2:0\\n' | sum_offsets; echo;"
                + " echo \"$(share_percent 349 1000) $(share_percent 1000 1000) $(share_percent 5 0)\";"
                + " sidecar_applied '{\"ready\":\"warming\",\"mirrors\":["
                + "{\"source\":{\"assigned\":true,\"end_offset\":99,\"last_applied_offset\":-1}},"
                + "{\"source\":{\"assigned\":true,\"end_offset\":49,\"last_applied_offset\":0}}]}';"
                + " sidecar_applied '{\"ready\":\"warming\",\"mirrors\":[{\"status\":\"source_unassigned\","
                + "\"source\":{\"assigned\":false}}]}'");

        assertThat(out).isEqualTo("350\n34 100 0\n1 150\n0 0\n");
    }

    @Test
    void onlyTheRetryOfTheCommitWhosePutWasCutOffIsEvidence() throws Exception {
        String object = "2/00000000000000003810-00000000000000004521.parquet";
        String commit = "[2026-12-03 10:43:59,712] WARN transient failure writing s3-topic-2: paused, keeping its 129 buffered"
                + " record(s) and re-issuing the commit in 1000 ms (attempt 1), the other partitions go on: cannot reach S3 to"
                + " PutObject s3://b/torture/s3-backup/" + object + ": Unable to execute HTTP request: Connection refused"
                + " (SDK Attempt Count: 3)";
        String other = "[2026-12-03 10:43:59,720] WARN transient failure writing s3-topic-1: paused, keeping its 12 buffered"
                + " record(s) and re-issuing the commit in 1000 ms (attempt 1), the other partitions go on: cannot reach S3 to"
                + " PutObject s3://b/torture/s3-backup/1/00000000000000000000-00000000000000000099.parquet: Connection refused";
        String listing = "[2026-12-03 10:43:59,750] WARN transient failure writing s3-topic-0: paused, keeping its 5 buffered"
                + " record(s) and re-issuing the commit in 1000 ms (attempt 1), the other partitions go on: cannot reach S3 to"
                + " ListObjectsV2 s3://b/torture/s3-backup/0/: Connection refused";
        String task = "[2026-12-03 10:43:59,800] WARN transient failure, keeping 46552 buffered bytes and retrying in 1000 ms"
                + " (attempt 1): cannot reach S3 to ListObjectsV2 s3://b/torture/s3-backup/2: Connection refused";
        String out = bash("log=\"$TMP/connect.log\"; printf '%s\\n' '" + other + "' '" + listing + "' '" + commit + "' '" + task
                + "' > \"$log\";"
                + " kill=$(date -d '2026-12-03 10:43:59.500' +%s%3N);"
                + " s3_commit_cut_off \"$log\" 1 s3-backup $kill " + object + ";"
                + " echo \"[$(s3_commit_cut_off \"$log\" 4 s3-backup $kill " + object + ")]\";" // the task-level retry is no commit's
                + " echo \"[$(s3_commit_cut_off \"$log\" 1 s3-backup $kill 0/00000000000000000000-00000000000000000099.parquet)]\";"
                + " echo \"[$(s3_commit_cut_off \"$log\" 1 other-backup $kill " + object + ")]\";"
                + " echo \"[$(s3_commit_cut_off \"$log\" 1 s3-backup $((kill - 4000)) " + object + ")]\";"
                + " echo \"[$(s3_commit_cut_off \"$log\" 1 s3-backup $((kill + 2000)) " + object + ")]\";"
                + " s3_commits_retried \"$log\" 1 s3-backup");

        assertThat(out).isEqualTo("s3-topic-2: PutObject s3://b/torture/s3-backup/" + object + "\n"
                + "[]\n[]\n[]\n[]\n[]\n"
                + "ListObjectsV2 s3://b/torture/s3-backup/0/\n"
                + "PutObject s3://b/torture/s3-backup/1/00000000000000000000-00000000000000000099.parquet\n"
                + "PutObject s3://b/torture/s3-backup/" + object + "\n");
    }

    @Test
    void onlyACommitEncodedBehindTheFrozenUploadAndNeitherCreatedNorAbandonedIsEvidence() throws Exception {
        String frozen = "00000000000000001000-00000000000000001999.parquet";
        String next = "00000000000000002000-00000000000000002999.parquet";
        String loc = "s3://b/torture/s3-backup/";
        String before = "[2026-12-06 18:00:00,000] INFO flushed batch path=" + loc + "1/" + frozen + " from=1000 to=1999";
        String encoded = "[2026-12-06 18:00:01,000] INFO encoded " + loc + "1/" + next + " (1000 records) while " + frozen
                + " is written: it is created once that one is durable (dev.mirrorv3.chain.write.ChainWriter) [pool-1]";
        String elsewhere = "[2026-12-06 18:00:01,100] INFO encoded " + loc + "2/" + next + " (1000 records) while " + frozen
                + " is written: it is created once that one is durable";
        String created = "[2026-12-06 18:00:02,000] INFO flushed batch path=" + loc + "1/" + next + " from=2000 to=2999";
        String abandoned = "[2026-12-06 18:00:02,000] INFO abandoned the commit of " + loc + "1/" + next + " (1000 records,"
                + " encoded while " + frozen + " was written): that commit failed";
        String out = bash("log=\"$TMP/connect.log\"; printf '%s\\n' '" + before + "' '" + encoded + "' '" + elsewhere + "' > \"$log\";"
                + " s3_overlap_waiting \"$log\" 1 s3-backup 1/" + frozen + ";"
                + " echo \"[$(s3_overlap_waiting \"$log\" 3 s3-backup 1/" + frozen + ")]\";" // logged before the aim
                + " echo \"[$(s3_overlap_waiting \"$log\" 1 s3-backup 1/" + next + ")]\";" // behind another object
                + " echo \"[$(s3_overlap_waiting \"$log\" 1 other-backup 1/" + frozen + ")]\";"
                + " cp \"$log\" \"$log.2\"; echo '" + created + "' >> \"$log\"; echo '" + abandoned + "' >> \"$log.2\";"
                + " echo \"[$(s3_overlap_waiting \"$log\" 1 s3-backup 1/" + frozen + ")]\";"
                + " echo \"[$(s3_overlap_waiting \"$log.2\" 1 s3-backup 1/" + frozen + ")]\";"
                + " echo \"[$(s3_overlap_waiting \"$TMP/none.log\" 1 s3-backup 1/" + frozen + ")]\"");

        assertThat(out).isEqualTo("1/" + next + "\n[]\n[]\n[]\n[]\n[]\n[]\n");
    }

    @Test
    void s3proxyIsFrozenInTheMiddleOfAnUploadOnlyWhileTheUploadIsThere() throws Exception {
        String upload = "1/00000000000000000000-00000000000000000099.parquet-0f8e3c1a-2b4d-4e6f-8a9b-0c1d2e3f4a5b";
        // a process in place of S3Proxy; an upload of an object appears after a moment (and one of a meta object, ignored)
        String out = bash("mkdir -p \"$TMP/chain/1\" \"$TMP/chain/_meta\"; sleep 60 & p=$!; disown $p;"
                + " touch \"$TMP/chain/_meta/id-0f8e3c1a-2b4d-4e6f-8a9b-0c1d2e3f4a5b\";"
                + " (sleep 0.5; touch \"$TMP/chain/" + upload + "\") &"
                + " if u=$(s3_upload_caught $p \"$TMP/chain\" 10); then echo \"caught $u, state $(fault_proc_state $p)\"; fi;"
                + " kill -CONT $p; rm \"$TMP/chain/" + upload + "\";"
                + " s3_upload_caught $p \"$TMP/chain\" 1 || echo \"none within 1 s, state $(fault_proc_state $p)\"; kill -KILL $p");

        assertThat(out).isEqualTo("caught " + upload + ", state T\nnone within 1 s, state S\n");
    }

    private static String pidIn(String out) {
        return out.replaceAll("(?s).*pid (\\d+) .*", "$1");
    }

    private static String bash(String script) throws Exception {
        Process p = new ProcessBuilder("bash", "-c", "set -euo pipefail; TMP=$(mktemp -d); trap 'rm -rf \"$TMP\"' EXIT;"
                + " source '" + SCRIPTS.resolve("stack.sh") + "'; source '" + SCRIPTS.resolve("faults.sh") + "'; " + script)
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("bash finished").isTrue();
        assertThat(p.exitValue()).as("bash's exit status; it printed: %s", out).isZero();
        return out;
    }
}
