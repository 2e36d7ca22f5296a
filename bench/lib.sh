# shellcheck shell=bash
# Shared by bench/run-* and bench/cache-sidecar/run (sourced, not run): the machine's load average, numbers parsed
# from tool output, and the summary of per-round results with the medians, their spread and the ratios.
#
# Results are lines `RESULT <run>-r<round> <records> <seconds> <records/s> [...]` (the benchmark drivers print
# them). The spread of a set of rounds is (max - min) / median. A ratio is computed per round (the runs of one
# round are interleaved, so they share that round's machine) and reported as the ratio of the medians beside the
# per-round ratios; it is withheld when the per-round ratios spread more than BENCH_MAX_SPREAD percent (default
# 30), and flagged as not a result with fewer than 3 rounds (a spread needs them).

BENCH_MAX_SPREAD="${BENCH_MAX_SPREAD:-30}"
BENCH_MIN_ROUNDS=3

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

# bench_summary <results file> <runs in display order> [<ratio label>|<numerator run>|<denominator run> ...]
# Prints per run the median records/s and seconds, the spread and each round's records/s, then each ratio
# (numerator records/s over denominator records/s). Returns 3 when a ratio was withheld or flagged, 0 otherwise.
# BENCH_UNIT and BENCH_UNIT_LONG (default rec, records) name what is counted, e.g. req and requests.
bench_summary() {
    local results="$1" order="$2"; shift 2
    local IFS=$'\n'
    awk -v order="$order" -v ratios="$*" -v max_spread="$BENCH_MAX_SPREAD" -v min_rounds="$BENCH_MIN_ROUNDS" \
        -v unit="${BENCH_UNIT:-rec}" -v unit_long="${BENCH_UNIT_LONG:-records}" "$BENCH_AWK_MEDIAN"'
    function spread(a, n,    i, lo, hi, m) {
        lo = hi = a[1]
        for (i = 2; i <= n; i++) { if (a[i] < lo) lo = a[i]; if (a[i] > hi) hi = a[i] }
        m = median(a, n)
        return m > 0 ? 100 * (hi - lo) / m : 0
    }
    function group(run, field, out,    i) {
        for (i = 1; i <= count[run]; i++) out[i] = value[run, rounds[run, i], field]
        return count[run]
    }
    $1 == "RESULT" {
        run = $2; round = run; sub(/-r[0-9]+$/, "", run); sub(/^.*-r/, "", round)
        if (!((run, round) in seen)) { seen[run, round] = 1; count[run]++; rounds[run, count[run]] = round }
        value[run, round, "seconds"] = $4; value[run, round, "rate"] = $5
    }
    END {
        status = 0
        printf "  %-14s %13s %10s %7s   %s\n", "run", "median " unit "/s", "median s", "spread", unit_long "/s of each round"
        n = split(order, names, " ")
        for (i = 1; i <= n; i++) {
            r = names[i]
            if (!(r in count)) continue
            k = group(r, "rate", rate); group(r, "seconds", secs)
            med[r] = median(rate, k)
            line = ""
            for (j = 1; j <= k; j++) line = line sprintf(" %d", rate[j])
            printf "  %-14s %13d %10.2f %7s  %s\n", r, med[r], median(secs, k), (k > 1 ? sprintf("%.0f%%", spread(rate, k)) : "-"), line
            delete rate; delete secs
        }
        m = split(ratios, specs, "\n")
        for (i = 1; i <= m; i++) {
            if (split(specs[i], s, "|") != 3) continue
            label = s[1]; num = s[2]; den = s[3]
            if (!(num in count) || !(den in count) || med[den] <= 0) { printf "  %s: no result (a run is missing)\n", label; status = 3; continue }
            k = 0; line = ""
            for (j = 1; j <= count[num]; j++) {
                round = rounds[num, j]
                if (((den, round) in seen) && value[den, round, "rate"] > 0) {
                    per[++k] = value[num, round, "rate"] / value[den, round, "rate"]
                    line = line sprintf(" %.2f", per[k])
                }
            }
            ratio = med[num] / med[den]
            if (k < min_rounds) {
                printf "  %s: %.2f -- NOT A RESULT: %d paired round(s), at least %d are needed to measure the spread (per round:%s)\n", label, ratio, k, min_rounds, line
                status = 3
            } else if ((sp = spread(per, k)) > max_spread) {
                printf "  %s: WITHHELD: the per-round ratios%s disagree by %.0f%% (more than the allowed %d%%, BENCH_MAX_SPREAD); run again on a quieter machine or with more rounds\n", label, line, sp, max_spread
                status = 3
            } else {
                printf "  %s: %.2f (medians; per round:%s, spread %.0f%%, allowed %d%%)\n", label, ratio, line, sp, max_spread
            }
            delete per
        }
        exit status
    }' "$results"
}

# bench_scaling_csv <results file> <buffer.max.bytes> <partitions...> -- <value sizes...>: the CSV of the blob sink's
# scaling mode (bench/run-blob-sink-bench --scaling), one row per partitions x value size, from the runs
# blob-<P>p-<size>B-r<round> and file-<P>p-<size>B-r<round>: the medians of records/s over the rounds, their ratio
# (blob over FileStreamSink), MB/s of values (10^6 bytes) and the blob runs' highest peak heap. A row whose runs are
# missing is left out (the summary above it says which run failed).
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
        print "partitions,value_bytes,records,blob_records_per_s,file_records_per_s,ratio,blob_mb_per_s,file_mb_per_s,blob_peak_heap_mib,buffer_max_bytes"
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
        print "| partitions | value size | records per run | blob sink rec/s | FileStreamSink rec/s | ratio blob/FileStreamSink | blob sink MB/s | FileStreamSink MB/s | blob peak heap MiB |"
        print "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    }
    { size = ($2 % 1024 == 0) ? ($2 / 1024 " KiB") : ($2 " B")
      printf "| %d | %s | %d | %d | %d | %.2f | %.1f | %.1f | %d |\n", $1, size, $3, $4, $5, $6, $7, $8, $9 }' "$1"
}

# bench_mib <java heap size>: a -Xmx value (e.g. 912m, 1g, 1048576k) in MiB; stops the benchmark naming the value
# otherwise.
bench_mib() {
    case "$1" in
        [1-9]*[gG]) [[ "${1%[gG]}" =~ ^[0-9]+$ ]] && { echo $((${1%[gG]} * 1024)); return; } ;;
        [1-9]*[mM]) [[ "${1%[mM]}" =~ ^[0-9]+$ ]] && { echo "${1%[mM]}"; return; } ;;
        [1-9]*[kK]) [[ "${1%[kK]}" =~ ^[0-9]+$ ]] && { echo $((${1%[kK]} / 1024)); return; } ;;
    esac
    printf 'error: %s is not a heap size such as 912m or 1g; no figure is reported\n' "$1" >&2
    exit 1
}

# bench_heap_verdict <scaling CSV> <partitions> <worker -Xmx in MiB>: the heap goal of the scaling mode, peak used heap
# of the blob runs on that many partitions <= buffer.max.bytes + 200 MiB. The peak is only measured when the heap
# leaves it room to exceed the goal: under twice the goal it is NOT A RESULT (status 3; a peak cannot pass -Xmx, so
# a heap at the goal could never fail the check). Status 1 when the peak is over the goal, 0 when met.
bench_heap_verdict() {
    awk -F, -v most="$2" -v xmx="$3" '
    NR > 1 && $1 == most {
        found = 1; cap = $10 / 1048576; goal = cap + 200
        line = sprintf("  peak heap, blob sink with %d busy partitions, %d B values: %d MiB (buffer.max.bytes %d MiB; goal <= %d MiB; worker -Xmx %d MiB)",
            $1, $2, $9, cap, goal, xmx)
        if (xmx < 2 * goal) { print line ": NOT A RESULT: the heap is under twice the goal, so the peak could not exceed it; set BENCH_CONNECT_HEAP to at least " 2 * goal "m"; if (status < 3) status = 3 }
        else if ($9 > goal) { print line ": NOT met"; status = 1 }
        else print line ": met"
    }
    END { if (!found) { printf "  peak heap with %d busy partitions: no result (no blob run on that many partitions)\n", most; status = 3 } exit status }' "$1"
}

# bench_pool <label|numerator run|denominator run> <results file...>: pools the rounds of every run recorded in the
# files (each run of a bench starts with a line `RUN <id> ...`, then its RESULT lines and `END <id> exit <status>`),
# none left out: per round the ratio of numerator records/s over denominator records/s, their median and quartiles,
# the numerator's median rate, and each run's ratio of medians and exit status. BENCH_UNIT_LONG (default records) names what is counted. Returns 3 when no paired
# round was found.
bench_pool() {
    local spec="$1"; shift
    awk -v spec="$spec" -v unit_long="${BENCH_UNIT_LONG:-records}" "$BENCH_AWK_MEDIAN"'
    function quantile(a, n, q,    b, i, h, lo) {
        for (i = 1; i <= n; i++) b[i] = a[i]
        sort(b, n); h = (n - 1) * q + 1; lo = int(h)
        return lo >= n ? b[n] : b[lo] + (h - lo) * (b[lo + 1] - b[lo])
    }
    BEGIN { split(spec, s, "|"); label = s[1]; num = s[2]; den = s[3] }
    FNR == 1 { id = "" }
    $1 == "RUN" { id = FILENAME ":" $2; if (!(id in known)) { known[id] = 1; runs[++nruns] = id; title[id] = $0 } }
    $1 == "END" && id != "" { ended[id] = $NF }
    $1 == "RESULT" && $2 ~ /-r[0-9]+$/ && id != "" {
        run = $2; round = run; sub(/-r[0-9]+$/, "", run); sub(/^.*-r/, "", round)
        if (run == num || run == den) rate[id, run, round] = $5
        if (run == num) { nums[id] = nums[id] " " round }
    }
    END {
        for (i = 1; i <= nruns; i++) {
            id = runs[i]; k = split(nums[id], rs, " "); a = 0; b = 0
            for (j = 1; j <= k; j++) if ((id, den, rs[j]) in rate && rate[id, den, rs[j]] > 0) {
                r = rate[id, num, rs[j]] / rate[id, den, rs[j]]
                ratio[++n] = r; numer[n] = rate[id, num, rs[j]]; mine_n[++a] = rate[id, num, rs[j]]; mine_d[++b] = rate[id, den, rs[j]]
            }
            line[i] = a ? sprintf("%.2f (%d round(s))", median(mine_n, a) / median(mine_d, b), a) : "no paired round"
            delete mine_n; delete mine_d
        }
        if (!n) { printf "  %s: no result (no paired round of %s and %s in %d run(s))\n", label, num, den, nruns; exit 3 }
        printf "  %s, pooled over %d run(s), %d round(s), none left out: median of the per-round ratios %.2f (quartiles %.2f-%.2f, range %.2f-%.2f); %s median %.0f %s/s\n",
            label, nruns, n, median(ratio, n), quantile(ratio, n, 0.25), quantile(ratio, n, 0.75), quantile(ratio, n, 0), quantile(ratio, n, 1),
            num, median(numer, n), unit_long
        for (i = 1; i <= nruns; i++)
            printf "    %s: %s, %s\n", title[runs[i]], line[i], (runs[i] in ended ? "exit " ended[runs[i]] : "no END line (killed?)")
    }' "$@"
}
