# shellcheck shell=bash
# Shared by bench/run-* and bench/cache-sidecar/run (sourced, not run): the machine's load average, numbers parsed
# from tool output, the summary of per-round results with the medians, their spread and the ratios, and the run's
# record in its runs file.
#
# Results are lines `RESULT <run>-r<round> <records> <seconds> <records/s> [...]` (the benchmark drivers print
# them; a warm-up round's are `WARMUP <run>-w<round> ...`, kept in the record and in no median). The spread of a set
# of rounds is (max - min) / median. A ratio is computed per round (the runs of one round are interleaved, so they
# share that round's machine) and reported as the ratio of the medians beside the per-round ratios; it is withheld
# when the per-round ratios spread more than BENCH_MAX_SPREAD percent (default 30), and flagged as not a result with
# fewer than 3 rounds (a spread needs them). A result is judged against its goal in bench/goals.txt. The Java side
# (bench module, dev.mirrorv3.bench.results) computes all of it and writes the runs files, which docs/performance.md
# and the component pages are generated from.

BENCH_MAX_SPREAD="${BENCH_MAX_SPREAD:-30}"
BENCH_MIN_ROUNDS=3
BENCH_REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BENCH_GOALS="$BENCH_REPO/bench/goals.txt"

# bench_load <start|end>: one line with the load average (1, 5 and 15 minutes) and the number of cores.
bench_load() {
    printf 'load average at %s: %s (1, 5, 15 min; %s cores)\n' "$1" "$(cut -d' ' -f1-3 /proc/loadavg)" "$(nproc)"
}

# bench_number <what> <value> [unit ERE]: prints the value when it is a non-negative number (followed by a unit
# matching the ERE, if given, e.g. 'us|ms|s'), otherwise stops the benchmark naming what could not be parsed (a
# figure is never printed as "nan" or empty).
bench_number() {
    if [[ "$2" =~ ^[0-9]+([.][0-9]+)?([eE][-+]?[0-9]+)?(${3:-})$ ]]; then
        printf '%s\n' "$2"
    else
        printf 'error: could not parse %s (got "%s"); no figure is reported\n' "$1" "$2" >&2
        exit 1
    fi
}

# bench_column <header line> <figures line> <column name>: the figure under that name in a tool's comma-separated
# output (e.g. Kafka's ConsumerPerformance), found by name so that a changed column order cannot shift it; empty when
# the name is missing (bench_number then stops the benchmark).
bench_column() {
    awk -F', *' -v header="$1" -v want="$3" '
        BEGIN { n = split(header, names, ", *"); for (i = 1; i <= n; i++) if (names[i] == want) c = i }
        { print (c ? $c : "") }' <<<"$2"
}

# bench_order <round> <run...>: the runs of one round, in the order that round runs them. The runs form a Latin
# square over the rounds: round r starts at the r-th run and wraps around, so over as many rounds as runs each run
# holds each position once and none always comes first or last.
bench_order() {
    local round="$1" n i; shift
    n=$#
    local runs=("$@")
    for ((i = 0; i < n; i++)); do printf '%s ' "${runs[$(((round - 1 + i) % n))]}"; done
    echo
}

# The median of a[1..n], for the awk programs below.
BENCH_AWK_MEDIAN='
    function sort(a, n,    i, j, v) {
        for (i = 2; i <= n; i++) { v = a[i]; for (j = i - 1; j >= 1 && a[j] > v; j--) a[j + 1] = a[j]; a[j + 1] = v }
    }
    function median(a, n,    b, i) {
        for (i = 1; i <= n; i++) b[i] = a[i]
        sort(b, n)
        return n % 2 ? b[(n + 1) / 2] : (b[n / 2] + b[n / 2 + 1]) / 2
    }'

# bench_median <results file> <run> <field>: the median over the rounds of one field of that run's RESULT lines
# (field 5 is the rate; a driver may append its own fields after it, e.g. latencies).
bench_median() {
    awk -v run="$2" -v f="$3" "$BENCH_AWK_MEDIAN"'
    $1 == "RESULT" && $2 ~ ("^" run "-r[0-9]+$") { v[++n] = $f }
    END { if (n) printf "%.2f\n", median(v, n) }' "$1"
}

# bench_cp: the classpath of the bench module's Java side (the summaries, the runs files): BENCH_CP when the caller
# has it, else bench/target's jar and classpath, built first (mvn package, tests skipped; never install) when missing or
# older than bench/src/main or bench/pom.xml.
bench_cp() {
    if [ -n "${BENCH_CP:-}" ]; then printf '%s\n' "$BENCH_CP"; return 0; fi
    local jar="$BENCH_REPO/bench/target/bench-0.1.0.jar" cp="$BENCH_REPO/bench/target/bench.classpath"
    if [ ! -e "$jar" ] || [ ! -e "$cp" ] || [ -n "$(find "$BENCH_REPO/bench/src/main" "$BENCH_REPO/bench/pom.xml" -newer "$jar" -print -quit)" ]; then
        echo "building the bench module (mvn -B -ntp -q -pl bench -am package -DskipTests)" >&2
        (cd "$BENCH_REPO" && mvn -B -ntp -q -pl bench -am package -DskipTests >&2) || { echo "error: building the bench module failed" >&2; return 1; }
    fi
    printf '%s:%s\n' "$jar" "$(cat "$cp")"
}

# bench_report_java <mode> <options...>: dev.mirrorv3.bench.results.BenchReport (summary, failed, pool) with the goals
# of bench/goals.txt, the one table the benches judge by and the docs render.
bench_report_java() {
    local mode="$1" cp; shift
    cp="$(bench_cp)" || return 2
    BENCH_MAX_SPREAD="$BENCH_MAX_SPREAD" java -Xmx256m -cp "$cp" dev.mirrorv3.bench.results.BenchReport "$mode" --goals "$BENCH_GOALS" "$@"
}

# bench_spread <results file> <run> <field>: the spread ((max - min) / median, whole percent) of one field of that run's
# RESULT lines over the rounds; 0 with one round.
bench_spread() {
    awk -v run="$2" -v f="$3" "$BENCH_AWK_MEDIAN"'
    $1 == "RESULT" && $2 ~ ("^" run "-r[0-9]+$") { v[++n] = $f; if (n == 1 || $f < lo) lo = $f; if (n == 1 || $f > hi) hi = $f }
    END { m = n ? median(v, n) : 0; printf "%d\n", (m > 0 ? 100 * (hi - lo) / m + 0.5 : 0) }' "$1"
}

# bench_summary <results file> <runs in display order> [<goal id or ->|<numerator run>|<denominator run>|<label> ...]
# Prints per run the median records/s, MB/s (for a run named ...-<n>B), seconds, the spread and each round's records/s,
# then each ratio (numerator records/s over denominator records/s): per round, the ratio of the medians and the spread
# of the per-round ratios, judged against its goal (bench/goals.txt) when it is a result. Returns 3 when a ratio was
# withheld or flagged, 0 otherwise. BENCH_UNIT_LONG=requests: the results count requests, not records.
bench_summary() {
    local results="$1" order="$2" spec args=(); shift 2
    for spec in "$@"; do if [ -n "$spec" ]; then args+=(--ratio "$spec"); fi; done
    if [ "${BENCH_UNIT_LONG:-records}" = requests ]; then args+=(--request-results "$results"); else args+=(--results "$results"); fi
    bench_report_java summary --order "$order" "${args[@]}"
}

# bench_pool <goal id or ->|<numerator run>|<denominator run>|<label> <runs file...>: the ratio pooled over every run
# recorded in the files (bench/results/<bench>.jsonl, or the text runs file the cache sidecar bench kept before it),
# none left out: each round's ratio, their median, quartiles and range, and each run's ratio of medians and exit status.
# The spread rule holds for the pool: per-round ratios that spread more than BENCH_MAX_SPREAD are withheld (status 3),
# as are fewer than 3 of them. BENCH_UNIT_LONG (default records) names what is counted.
bench_pool() {
    local spec="$1"; shift
    bench_report_java pool --ratio "$spec" --unit-long "${BENCH_UNIT_LONG:-records}" "$@"
}

# bench_command <script> <arguments...>: the command as run, for the runs file: the environment settings that change
# what a bench measures (every exported BENCH_* but ports, BENCH_CP and BENCH_RESULTS_DIR; JAVA_OPTS and SIDECAR_HEAP),
# then the script's path from the repository's root and its arguments, each quoted as the shell needs.
bench_command() {
    local script="$1" v out=""; shift
    for v in $(compgen -e | grep -E '^(BENCH_[A-Z0-9_]+|JAVA_OPTS|SIDECAR_HEAP)$' | sort); do
        case "$v" in *_PORT|BENCH_CP|BENCH_RESULTS_DIR) continue ;; esac
        out+="$v=$(printf '%q' "${!v}") "
    done
    out+="$(realpath --relative-to="$BENCH_REPO" "$script")"
    for v in "$@"; do out+=" $(printf '%q' "$v")"; done
    printf '%s\n' "$out"
}

# bench_start <bench> <script> <arguments...>: opens the run's record: its id, start, commit, load and command, and the
# runs file it goes to, ${BENCH_RESULTS_DIR:-bench/results}/<bench>.jsonl. Every run is recorded, none selected:
# bench_report writes a finished one, bench_on_exit (call it first in the EXIT trap) one that stopped before.
# BENCH_SETTINGS and BENCH_NOTES (arrays) go into the record as they are when it is written.
bench_start() {
    BENCH_NAME="$1"; shift
    BENCH_COMMAND="$(bench_command "$@")"
    BENCH_RUN_ID="$(date -u +%Y%m%dT%H%M%SZ)-$$"
    BENCH_STARTED="$(date -u +%FT%TZ)"
    BENCH_LOAD_START="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || true)"
    BENCH_COMMIT="$(git -C "$BENCH_REPO" describe --always --dirty 2>/dev/null || echo unknown)"
    BENCH_RECORD="${BENCH_RESULTS_DIR:-$BENCH_REPO/bench/results}/$BENCH_NAME.jsonl"
    BENCH_REPORTED=""
    BENCH_RESULTS_FILE=""
    BENCH_ROUNDS_ASKED=0
    BENCH_WARMUP_ASKED=0
    BENCH_SETTINGS=()
    BENCH_NOTES=()
}

# The options that put a run's record together (bench_report, bench_on_exit).
bench_record_options() {
    local s
    printf '%s\0' --record "$BENCH_RECORD" --bench "$BENCH_NAME" --command "$BENCH_COMMAND" --id "$BENCH_RUN_ID" \
        --started "$BENCH_STARTED" --commit "$BENCH_COMMIT" --load-start "$BENCH_LOAD_START" --rounds "$BENCH_ROUNDS_ASKED" \
        --warmup-rounds "$BENCH_WARMUP_ASKED"
    for s in ${BENCH_SETTINGS[@]+"${BENCH_SETTINGS[@]}"}; do printf '%s\0' --setting "$s"; done
    for s in ${BENCH_NOTES[@]+"${BENCH_NOTES[@]}"}; do printf '%s\0' --note "$s"; done
}

# bench_report <results file> <runs in display order> [--ratio SPEC | --check SPEC | --request-results FILE ...]: the
# summary (as bench_summary; a check is <goal id>|<value or ->|<label>[|<why it is not a result>]; a second results
# file of runs that count requests with --request-results) and the run appended to its runs file. Returns the
# summary's status (3 when a figure is withheld or not a result).
bench_report() {
    local results="$1" order="$2" opts=(); shift 2
    BENCH_RESULTS_FILE="$results"
    mapfile -d '' opts < <(bench_record_options)
    BENCH_REPORTED=1
    bench_report_java summary --results "$results" --order "$order" "${opts[@]}" "$@"
}

# bench_on_exit <status>: in the EXIT trap, before anything else: a run that ends without its summary (failed,
# interrupted) is recorded with what it measured so far (BENCH_RESULTS_FILE) and its exit status.
bench_on_exit() {
    local status="$1" opts=()
    [ -z "${BENCH_NAME:-}" ] || [ -n "$BENCH_REPORTED" ] && return 0
    BENCH_REPORTED=1
    mapfile -d '' opts < <(bench_record_options)
    bench_report_java failed --results "${BENCH_RESULTS_FILE:-/dev/null}" --status "$status" \
        --failure "stopped with exit status $status before its summary (the bench's output says why)" "${opts[@]}" >&2 || true
}

# bench_partitions <n>: "1 partition", "8 partitions".
bench_partitions() {
    if [ "$1" = 1 ]; then echo "1 partition"; else echo "$1 partitions"; fi
}

# bench_size <bytes>: a value size as the benches name it (100 B, 1 KiB, 10 KiB).
bench_size() {
    if (($1 % 1024 == 0)); then echo "$(($1 / 1024)) KiB"; else echo "$1 B"; fi
}

# bench_scaling_csv <results file> <buffer.max.bytes> <partitions...> -- <value sizes...>: the CSV of the blob sink's
# scaling mode (bench/run-blob-sink-bench --scaling), one row per partitions x value size, from the runs
# blob-<P>p-<size>B-r<round> and file-<P>p-<size>B-r<round>: the medians of records/s over the rounds, their ratio
# (blob over FileStreamSink), MB/s of values (10^6 bytes) and the blob runs' highest heap after GC (SinkRun's field
# 6). A row whose runs are missing is left out (the summary above it says which run failed).
bench_scaling_csv() {
    local results="$1" buffer="$2"; shift 2
    local partitions="" sizes="" seen_sep=""
    for a in "$@"; do
        if [ "$a" = -- ]; then seen_sep=1; elif [ -n "$seen_sep" ]; then sizes="$sizes $a"; else partitions="$partitions $a"; fi
    done
    awk -v partitions="$partitions" -v sizes="$sizes" -v buffer="$buffer" '
    function median(list,    a, n, i, j, v) {
        n = split(list, a, " ")
        for (i = 2; i <= n; i++) { v = a[i]; for (j = i - 1; j >= 1 && a[j] + 0 > v + 0; j--) a[j + 1] = a[j]; a[j + 1] = v }
        return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    $1 == "RESULT" {
        run = $2; sub(/-r[0-9]+$/, "", run)
        rates[run] = rates[run] " " $5; records[run] = $3
        if (!(run in heap) || $6 + 0 > heap[run]) heap[run] = $6 + 0
    }
    END {
        print "partitions,value_bytes,records,blob_records_per_s,file_records_per_s,ratio,blob_mb_per_s,file_mb_per_s,blob_heap_after_gc_mib,buffer_max_bytes"
        np = split(partitions, ps, " "); ns = split(sizes, ss, " ")
        for (i = 1; i <= np; i++) for (j = 1; j <= ns; j++) {
            b = "blob-" ps[i] "p-" ss[j] "B"; f = "file-" ps[i] "p-" ss[j] "B"
            if (!(b in rates) || !(f in rates)) continue
            br = median(rates[b]); fr = median(rates[f])
            printf "%d,%d,%d,%.0f,%.0f,%.2f,%.1f,%.1f,%d,%d\n", ps[i], ss[j], records[b], br, fr, (fr > 0 ? br / fr : 0),
                br * ss[j] / 1e6, fr * ss[j] / 1e6, heap[b], buffer
        }
    }' "$results"
}

# bench_markdown_table <scaling CSV>: the scaling CSV as the markdown table the bench prints and writes.
bench_markdown_table() {
    awk -F, 'NR == 1 { next }
    NR == 2 {
        print "| partitions | value size | records per run | blob sink rec/s | FileStreamSink rec/s | ratio blob/FileStreamSink | blob sink MB/s | FileStreamSink MB/s | blob heap after GC MiB |"
        print "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    }
    { size = ($2 % 1024 == 0) ? ($2 / 1024 " KiB") : ($2 " B")
      printf "| %d | %s | %d | %d | %d | %.2f | %.1f | %.1f | %d |\n", $1, size, $3, $4, $5, $6, $7, $8, $9 }' "$1"
}

# bench_mib <java heap size>: a -Xmx value (e.g. 912m, 1g, 1048576k) in MiB; stops the benchmark naming the value
# otherwise.
bench_mib() {
    case "$1" in
        [1-9]*[gG]) [[ "${1%[gG]}" =~ ^[0-9]+$ ]] && { echo $((${1%[gG]} * 1024)); return 0; } ;;
        [1-9]*[mM]) [[ "${1%[mM]}" =~ ^[0-9]+$ ]] && { echo "${1%[mM]}"; return 0; } ;;
        [1-9]*[kK]) [[ "${1%[kK]}" =~ ^[0-9]+$ ]] && { echo $((${1%[kK]} / 1024)); return 0; } ;;
    esac
    printf 'error: %s is not a heap size such as 912m or 1g; no figure is reported\n' "$1" >&2
    exit 1
}

# bench_heap_check <results file> <partitions> <buffer.max.bytes> <worker -Xmx in MiB>: the heap goal of the blob sink
# with many busy partitions, as a figure for bench_report (heap-after-gc|<value>|<label>[|<why it is not a result>]):
# the highest heap after GC of the blob runs on that many partitions, less buffer.max.bytes, in MiB; FileStreamSink's
# on the same topics beside it as the control. The heap after GC is the live heap (SinkRun's field 16: after the full
# collections the bench forced every 2 s) when the runs measured it, else the heap after any collection (field 6, from
# the collector's own figures, old-generation garbage included after a young one). Not a result when the heap cannot
# exceed the goal (under twice buffer.max.bytes + 200 MiB: a peak never passes -Xmx), when a run saw no collection, or
# missed some (fields 8 and 9: collections seen, collections counted).
bench_heap_check() {
    awk -v most="$2" -v buffer="$3" -v xmx="$4" '
    $1 == "RESULT" && $2 ~ ("^(blob|file)-" most "p-") {
        kind = substr($2, 1, index($2, "-") - 1)
        heap = $6 + 0
        if (NF >= 16 && $16 + 0 >= 0) { heap = $16 + 0; live[kind] = 1; if (!(kind in any) || $6 + 0 > any[kind]) any[kind] = $6 + 0 }
        if (!(kind in peak) || heap > peak[kind]) peak[kind] = heap
        if ($9 + 0 == 0) nogc = nogc " " $2
        else if ($8 + 0 < $9 + 0) missed = missed " " $2
    }
    function what(kind) { return kind in live ? "live heap (after a full collection, forced every 2 s)" : "after GC" }
    END {
        cap = buffer / 1048576; goal = cap + 200
        label = sprintf("heap after GC, blob sink with %d busy partitions, less buffer.max.bytes (%d MiB); worker -Xmx %d MiB", most, cap, xmx)
        if ("file" in peak) label = label sprintf("; FileStreamSink on the same worker (the control): %d MiB %s", peak["file"], what("file"))
        if (!("blob" in peak)) { printf "heap-after-gc|-|%s|no blob run on %d partitions\n", label, most; exit }
        label = sprintf("%s; the blob runs: %d MiB %s", label, peak["blob"], what("blob"))
        if ("blob" in any) label = sprintf("%s (%d MiB after any collection, old-generation garbage included)", label, any["blob"])
        reason = ""
        if (xmx < 2 * goal) reason = sprintf("the heap is under twice buffer.max.bytes + 200 MiB, so it could not exceed the goal; set BENCH_CONNECT_HEAP to at least %dm", 2 * goal)
        else if (nogc != "") reason = "no collection during" nogc ": the heap after GC was not measured"
        else if (missed != "") reason = "the sampler missed collections during" missed
        printf "heap-after-gc|%d|%s|%s\n", peak["blob"] - cap, label, reason
    }' "$1"
}
