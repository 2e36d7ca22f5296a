# shellcheck shell=bash
# ./torture's fault bookkeeping: signals that count only when they landed, the faults each scenario's schedule plans,
# the checks that a fault hit what it was aimed at, and the task history that the final RUNNING check cannot see.
# Sourced by ./torture (docs/reliability.md, "What is counted and checked"); tested by quickstart-tools TortureFaultsTest.
# Nothing here starts a process (but the no-op behind s3_upload_caught's pause) or talks to Kafka: the callers pass pids, log
# files and status records.

FAULTS=0      # faults of the current scenario that landed
FAULT_MISS="" # why the last attempt at a fault missed (set by fault_missed)

fault_proc_state() { sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1; }

# fault_alive <pid>: the process exists and has not exited (a zombie has: it only waits for its parent).
fault_alive() {
    local state
    state="$(fault_proc_state "$1")"
    [ -n "$state" ] && [ "$state" != Z ] && [ "$state" != X ]
}

# fault_send <signal> <pid>: the signal to a live process; 1, with FAULT_MISS set, when there was none (gone, or a
# zombie, which kill still accepts).
fault_send() {
    fault_alive "$2" && kill -"$1" "$2" 2>/dev/null && return 0
    fault_missed "pid $2 was not running when SIG$1 was sent"
    return 1
}

# fault_kill9 <pid>: SIGKILL, then until the process is gone (its listening ports are free again for a restart).
# Returns 0 only when the fault landed: the process was alive when the signal was sent and is gone afterwards (or a
# zombie whose threads have all exited, whose sockets are closed); 1, with FAULT_MISS set, when there was no live
# process to kill or it outlived 20 s.
fault_kill9() {
    fault_send KILL "$1" || return 1
    fault_until 400 fault_gone "$1" && return 0
    fault_missed "pid $1 was still running 20 s after SIGKILL"
    return 1
}

# fault_freeze <pid>: SIGSTOP; 0 when it landed (the process was alive and is now stopped), else 1 with FAULT_MISS.
fault_freeze() {
    fault_send STOP "$1" || return 1
    fault_until 100 fault_stopped "$1" && return 0
    fault_missed "pid $1 did not stop within 5 s of SIGSTOP (state $(fault_proc_state "$1"))"
    return 1
}

# fault_gone <pid>: gone, or a zombie whose threads have all exited (until then its sockets may still be open).
fault_gone() {
    case "$(fault_proc_state "$1")" in
        '') return 0 ;;
        Z) [ "$(find "/proc/$1/task" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)" -le 1 ] ;;
        *) return 1 ;;
    esac
}
fault_stopped() { [ "$(fault_proc_state "$1")" = T ]; }
# fault_until <tries> <command...>: the command, every 50 ms, until it succeeds (0) or the tries are spent (1).
fault_until() {
    local i n="$1"; shift
    for ((i = 0; i < n; i++)); do "$@" && return 0; sleep 0.05; done
    return 1
}

fault_landed() { FAULTS=$((FAULTS + 1)); }
fault_missed() { FAULT_MISS="$*"; }

# fault_attempt <label> <step...>: runs a fault step (a function that injects one fault and waits for the recovery),
# again while its fault misses (the step returns 2 with FAULT_MISS set: the target was gone, or no longer held the
# task, or the fault hit an idle moment), at most FAULT_ATTEMPTS times. A step that keeps missing fails the scenario
# naming each miss: the verdict is about the product, never about a fault that did not land.
FAULT_ATTEMPTS=3
fault_attempt() {
    local label="$1" a rc misses=""; shift
    for ((a = 1; a <= FAULT_ATTEMPTS; a++)); do
        FAULT_MISS=""; rc=0
        "$@" || rc=$?
        [ "$rc" -eq 2 ] || return "$rc"
        misses="$misses; attempt $a: ${FAULT_MISS:-no reason given}"
        if [ "$a" -lt "$FAULT_ATTEMPTS" ]; then stack_log "$label: the fault missed (${FAULT_MISS:-no reason given}); trying again"; fi
    done
    echo "  $label: the fault missed $FAULT_ATTEMPTS times${misses}"
    return 1
}

# planned_faults <scenario> <cycles>: the faults the schedule plans (docs/reliability.md, "Scenarios"): two per cycle
# for kafka-sink (destination broker, then worker) and sidecar (notify burst, then bootstrap); sink-s3 kills the
# task's worker every cycle and, every other cycle (the first included), S3Proxy and the task's worker again while a
# second commit waits behind an upload; isolate places another writer's object once, then kills the task's worker
# every cycle.
planned_faults() {
    case "$1" in
        kafka-sink|sidecar) echo $(($2 * 2)) ;;
        sink-s3) echo $(($2 + ($2 + 1) / 2 * 2)) ;;
        isolate) echo $(($2 + 1)) ;;
        *) echo "$2" ;;
    esac
}

# faults_verdict <scenario> <landed> <planned>: a scenario passes only when exactly the planned faults landed.
faults_verdict() {
    [ "$2" -eq "$3" ] && return 0
    echo "  $1: $2 fault(s) landed, the schedule planned $3"
    return 1
}

# task_stopped_in_log <worker log> <from line> <connector> <task>: the worker logged, from that line on, that it
# stopped or is stopping the task (a rebalance moving it away, or a task config update). A fault sent to that worker
# after such a line does not hit the task's holder.
task_stopped_in_log() {
    tail -n +"$2" "$1" 2>/dev/null | grep -qE "Stopping task $3-$4 \(|stopping tasks \[(.*, )?$3-$4(, .*)?\]"
}

# status_records <connector...>: reads Connect's status topic as "key<TAB>value" lines (ConsoleConsumer with
# print.key) and prints, as JSON lines {k, name, v}, the records of these connectors and their tasks in topic order:
# name is the connector ("c") or the task ("c-0"), v the state record, null for a tombstone (a deleted connector).
status_records() {
    local c prefixes=""
    for c in "$@"; do prefixes="$prefixes status-task-$c- status-connector-$c"; done
    jq -ncR --arg prefixes "$prefixes" '
        ($prefixes | split(" ") | map(select(length > 0))) as $p
        | def ours($k): any($p[]; . as $q | ($k == $q) or ($q | endswith("-")) and ($k | startswith($q)));
        inputs | split("\t") | select(length == 2 and ours(.[0]))
        | {k: .[0], name: (.[0] | ltrimstr("status-task-") | ltrimstr("status-connector-")),
           v: (.[1] | try fromjson catch null | if type == "object" then . else null end)}'
}

# task_failures <connector...>: reads Connect's status topic (as status_records) and prints each FAILED state of the
# connectors or their tasks that was current when written: a FAILED with a generation below one the same key already
# had comes from a worker that no longer held the task (a woken zombie reporting late), and Connect ignores it too. A
# task that failed and was then revived by a rebalance shows up here although the final status says RUNNING.
task_failures() {
    status_records "$@" | jq -nr '
        reduce (inputs | select(.v != null)) as $r
            ({max: {}, out: []};
             (.max[$r.k] // -1) as $seen
             | (if $r.v.state == "FAILED" and ($r.v.generation // 0) >= $seen then
                    .out += ["\($r.name) FAILED on \($r.v.worker_id // "?") (generation \($r.v.generation // "?")): \(($r.v.trace // "") | split("\n")[0] | .[0:300])"]
                else . end)
             | .max[$r.k] = ([$seen, ($r.v.generation // 0)] | max))
        | .out[]'
}

# stale_unassigned <connector...>: reads Connect's status topic (as status_records) and prints the connectors or tasks
# whose last record is an UNASSIGNED of an older generation than a RUNNING already written for them: a worker that
# lost the connector or task in a rebalance wrote UNASSIGNED, and that write landed after the new holder's RUNNING
# (both delayed while the broker holding the status topic was down). The REST API then shows UNASSIGNED for a
# connector or task that runs; Kafka Connect's KafkaStatusBackingStore ignores such writes for tasks only (KAFKA-12525).
stale_unassigned() {
    status_records "$@" | jq -nr '
        reduce inputs as $r
            ({};
             if $r.v == null then del(.[$r.k])
             else (.[$r.k].top // null) as $top
                 | .[$r.k].last = $r.v | .[$r.k].name = $r.name
                 | (if $top == null or ($r.v.generation // 0) >= ($top.generation // 0) then .[$r.k].top = $r.v else . end)
             end)
        | to_entries[]
        | select(.value.last.state == "UNASSIGNED" and .value.top.state == "RUNNING"
                 and (.value.last.generation // 0) < (.value.top.generation // 0))
        | "\(.value.name) UNASSIGNED on \(.value.last.worker_id // "?") (generation \(.value.last.generation // "?")) written after"
          + " RUNNING on \(.value.top.worker_id // "?") (generation \(.value.top.generation // "?"))"'
}

# not_running <connector> <its REST status JSON>: the connector ("name") and tasks ("name-id") that are not RUNNING, and
# "name: no task" when it has none.
not_running() {
    jq -r --arg c "$1" '(if .connector.state != "RUNNING" then [$c] else [] end)
        + [.tasks[] | select(.state != "RUNNING") | "\($c)-\(.id)"]
        + (if (.tasks | length) == 0 then ["\($c): no task"] else [] end) | .[]' <<<"$2"
}

# sum_offsets: the sum of the offsets in GetOffsetShell's "topic:partition:offset" lines (a topic's high watermarks).
sum_offsets() { awk -F: 'NF >= 3 && $NF ~ /^[0-9]+$/ { s += $NF } END { printf "%d", s }'; }

# share_percent <part> <whole>: part as a whole percentage of whole, rounded down (0 when whole is 0).
share_percent() { if [ "$2" -gt 0 ]; then echo $(($1 * 100 / $2)); else echo 0; fi; }

# sidecar_applied <readiness JSON>: "<offsets applied> <offsets to catch up>" summed over the partitions, from the
# sidecar's /q/health/ready answer (per partition: last_applied_offset, -1 before any record; end_offset, the last
# offset when it started).
sidecar_applied() {
    jq -r '[.mirrors[]?.source | select(.assigned == true)]
        | "\(map(.last_applied_offset + 1 | if . < 0 then 0 else . end) | add // 0) \(map(.end_offset + 1 | if . < 0 then 0 else . end) | add // 0)"' \
        <<<"$1" 2>/dev/null || echo "0 0"
}

# s3_upload_caught <pid> <chain dir> <timeout s>: watches S3Proxy's filesystem backend for an object's PUT in progress
# (the "<partition>/<object>.parquet-<uuid>" file it writes the body to before the rename) and freezes S3Proxy (SIGSTOP)
# the moment one appears; if the upload is still there once the process is stopped, S3Proxy is frozen in the middle of
# that PUT: prints its path relative to the chain dir ("<partition>/<object>.parquet-<uuid>") and returns 0. An upload
# renamed in between is let go (SIGCONT) and the watch goes on. 1, S3Proxy running, when none was caught in time. The
# watch is a shell glob (no process per look), with a 1 ms pause: an upload lasts a few milliseconds.
s3_upload_caught() {
    local pid="$1" dir="$2" deadline=$((SECONDS + $3)) uploads pause
    exec {pause}<> <(:)
    while [ $SECONDS -lt $deadline ]; do
        uploads=("$dir"/[0-9]*/*.parquet-????????-????-????-????-????????????)
        if [ -e "${uploads[0]}" ]; then
            kill -STOP "$pid" 2>/dev/null || break
            fault_until 100 fault_stopped "$pid" || { kill -CONT "$pid" 2>/dev/null; break; }
            if [ -e "${uploads[0]}" ]; then
                exec {pause}>&-
                echo "${uploads[0]#"$dir"/}"
                return 0
            fi
            kill -CONT "$pid" 2>/dev/null || true
        fi
        read -r -t 0.001 -u "$pause" || true
    done
    exec {pause}>&-
    return 1
}

# s3_commit_cut_off <worker log> <from line> <chain name> <kill ms> <object>: the retry of that object's commit (the blob
# sink's "transient failure writing <partition>: paused ... re-issuing the commit ... PutObject s3://.../<chain>/<object>",
# <object> as "<partition>/<name>.parquet") that the worker logged from that line on, within 3 s of the kill of S3Proxy
# (epoch ms): a PUT cut off by the kill fails at once. Prints "<partition>: PutObject <location>", nothing when none.
# A retry of another commit (one refused after the kill, or a listing's) is not evidence that the kill cut this one off.
s3_commit_cut_off() {
    local line ts ms
    while IFS= read -r line; do
        ts="$(sed -n 's/^\[\([0-9-]* [0-9:]*\),\([0-9]*\)\].*/\1.\2/p' <<<"$line")"
        ms="$(date -d "$ts" +%s%3N 2>/dev/null)" || continue
        if [ "$ms" -ge $(($4 - 1000)) ] && [ "$ms" -le $(($4 + 3000)) ]; then
            printf '%s: %s\n' "$(sed 's/.*transient failure writing \([^:]*\):.*/\1/' <<<"$line")" \
                "$(grep -oE "PutObject s3://[^ ]*/$3/$5" <<<"$line" | head -1)"
            return 0
        fi
    done < <(tail -n +"$2" "$1" 2>/dev/null | grep -F "transient failure writing" | grep -F "re-issuing the commit" \
        | grep -F "PutObject s3://" | grep -F "/$3/$5" | head -20)
}

# s3_commits_retried <worker log> <from line> <chain name>: the objects whose commits the worker retried from that line
# on, as "<operation> <location>" lines: what a miss names when the retry seen was not of the PUT that was cut off.
s3_commits_retried() {
    tail -n +"$2" "$1" 2>/dev/null | grep -F "transient failure writing" | grep -F "re-issuing the commit" \
        | grep -oE "[A-Za-z0-9]+ s3://[^ ]*/$3/[^ ]*" | sed 's/:$//' | sort -u
}

# s3_overlap_waiting <worker log> <from line> <chain name> <object>: the chain's next object that the worker logged, from
# that line on, as encoded behind <object> ("<partition>/<name>.parquet", a commit still running) and waiting for it
# (the blob sink's "encoded s3://.../<chain>/<partition>/<next> (N records) while <name> is written", docs/blob-sink.md
# "Pipelined flush"), neither created ("flushed batch path=...") nor abandoned ("abandoned the commit of ...") since.
# Prints "<partition>/<next>", nothing when there is none: read from a killed worker's log, a commit that waited behind
# the running one when the kill landed.
s3_overlap_waiting() {
    local lines part="${4%%/*}" name="${4#*/}" next
    lines="$(tail -n +"$2" "$1" 2>/dev/null)" || true
    next="$(grep -oE "encoded s3://[^ ]*/$3/$part/[^ ]+ \([0-9]+ records\) while ${name//./\\.} is written" <<<"$lines" \
        | tail -1 | sed -E "s#^encoded s3://[^ ]*/$3/($part/[^ ]+) .*#\1#")" || true
    [ -n "$next" ] || return 0
    grep -qE "(flushed batch path=|abandoned the commit of )[^ ]*/$3/${next//./\\.} " <<<"$lines" || echo "$next"
}
