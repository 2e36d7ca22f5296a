#!/usr/bin/env bash
# Experiment (not yet a bench of record): the cache sidecar's consume phase under launcher variants against one broker.
# usage: launcher-ab.sh KEYS ROUNDS "jar|JVM options" ... ; needs /tmp/cexp/cp.txt from a bench/cache-sidecar/run build.
# usage: run.sh KEYS ROUNDS "variantA opts" "variantB opts" ...
set -uo pipefail
ROOT=/work/main; KEYS=$1; ROUNDS=$2; shift 2
W=$(mktemp -d /tmp/cexp/w.XXXX)
CP="$ROOT/cache-sidecar/target/test-classes:$ROOT/cache-sidecar/target/classes:$(cat /tmp/cexp/cp.txt)"
JAR=$(ls $ROOT/cache-sidecar/target/cache-sidecar-*-all.jar)
mkfifo $W/stdin
java -Xmx1g -cp "$CP" dev.mirrorv3.cache.bench.BenchKafka "$KEYS" <$W/stdin >$W/kafka.log 2>&1 &
BP=$!; exec 7>$W/stdin
for _ in $(seq 1 600); do grep -q '^BOOTSTRAP=' $W/kafka.log && break; sleep 0.5; done
BOOT=$(sed -n 's/^BOOTSTRAP=//p' $W/kafka.log)
for ((r=1; r<=ROUNDS; r++)); do
  i=0
  for spec in "$@"; do
    JAR=${spec%%|*}; opts=${spec#*|}
    i=$((i+1)); port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    printf 'http: {host: 127.0.0.1, port: %s}\nmetrics: {port: -1}\ncaches:\n  bench:\n    main: true\n    bootstrap-servers: %s\n    topic: bench\n' $port $BOOT > $W/s.yaml
    log=$W/s-$r-$i.log
    CACHE_SIDECAR_JAR=$JAR JAVA_OPTS="$opts -Xlog:gc:file=$W/gc-$r-$i.log" $ROOT/cache-sidecar/bin/cache-sidecar --config $W/s.yaml >$log 2>&1 &
    sp=$!
    until [ "$(curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:$port/q/health/ready)" = 200 ]; do sleep 0.05; kill -0 $sp || break; done
    cpu=$(awk '{print ($14+$15)/100}' /proc/$(pgrep -P $sp java || echo $sp)/stat 2>/dev/null)
    c=$(python3 - $log <<'PY'
import re, sys, datetime
t = {}
for line in open(sys.argv[1]):
    m = re.match(r'(\S+) ', line)
    if not m: continue
    try: ts = datetime.datetime.fromisoformat(m.group(1).replace(',', '.'))
    except ValueError: continue
    if 'reading bench-0' in line: t['a'] = ts
    if 'caught up' in line: t['b'] = ts
print('%.3f' % (t['b'] - t['a']).total_seconds())
PY
)
    gc=$(grep -oE '[0-9.]+ms$' $W/gc-$r-$i.log | tr -d ms | paste -sd+ | bc)
    echo "round $r variant $i: consume $c s = $(echo "$KEYS / $c" | bc) rec/s; gc pauses ${gc} ms; cpu ${cpu} s; load $(cut -d' ' -f1 /proc/loadavg)"
    kill $sp; wait $sp 2>/dev/null
  done
done
kill $BP
