# shellcheck shell=bash
# A single-node Kafka (KRaft broker) and a Kafka Connect worker as local JVM processes, with classpaths from Maven.
# Sourced by ./quickstart, ./torture, bench/run-blob-sink-bench and bench/run-kafka-sink-bench; not meant to be run alone.
#
# Before calling the functions, set:
#   STACK_DIR          state directory (configs, data, logs, pid files), e.g. .quickstart
#   BROKER_PORT        the broker's PLAINTEXT listener (localhost)
#   CONTROLLER_PORT    the KRaft controller listener (localhost)
#   CONNECT_PORT       the worker's REST API (localhost)
# optional:
#   BROKER_PORT_SETTING, CONTROLLER_PORT_SETTING, CONNECT_PORT_SETTING: how the user sets each port (for messages)
#   BROKER_HEAP, CONNECT_HEAP (default 512m, 1g), CONNECT_JVM_OPTS (extra JVM options for the worker),
#   CONNECT_GROUP (the worker group id), CONNECT_EXTRA_PROPS (more worker.properties lines),
#   STACK_BROKER_NAME, STACK_WORKER_NAME, BROKER_NODE_ID: the directories under STACK_DIR (default broker, connect)
#   and the node id, so that one STACK_DIR can hold several brokers and workers (./torture runs two and three)
#
# Layout under STACK_DIR:
#   broker/{server.properties,data/,broker.log,broker.pid}       (<STACK_BROKER_NAME>/ when set)
#   connect/{worker.properties,connect.log,connect.pid}         (<STACK_WORKER_NAME>/ when set)
#   plugins/<one directory per plugin>      (the worker's plugin.path; ours unpacked from the bundle zip)
#   log4j2.properties, tools-log4j2.properties

STACK_REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
STACK_TOOLS_TARGET="$STACK_REPO/quickstart-tools/target"
STACK_BUNDLE_NAME="mirror-v3-connect-0.1.0"
STACK_BUNDLE_DIR="$STACK_REPO/bundle/target/$STACK_BUNDLE_NAME/$STACK_BUNDLE_NAME"
# What an operator installs: the zip, a component archive (manifest.json, lib/, etc/, doc/, assets/)
STACK_BUNDLE_ZIP="$STACK_REPO/bundle/target/$STACK_BUNDLE_NAME.zip"
STACK_CONNECT_FILE_DIR="$STACK_TOOLS_TARGET/plugins/connect-file"
# The stack runs the bundle and quickstart-tools, and what callers add in STACK_EXTRA_MODULES (e.g. "bench"); the
# modules they are built from are derived from the reactor (stack_build_modules), so that a change in any of them
# triggers `mvn package`. STACK_EXTRA_ARTIFACTS are more files the caller needs built.
STACK_ROOT_MODULES="bundle quickstart-tools"

stack_log() { printf '%s %s\n' "$(date +%H:%M:%S)" "$*"; }
stack_die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# --- build ---------------------------------------------------------------------------------------------------

stack_artifacts() {
    echo "$STACK_BUNDLE_ZIP" "$STACK_BUNDLE_DIR/lib/connector-sink-blob-0.1.0.jar" "$STACK_BUNDLE_DIR/lib/chain-core-0.1.0.jar" \
         "$STACK_TOOLS_TARGET/quickstart-tools-0.1.0.jar" "$STACK_TOOLS_TARGET/kafka.classpath" \
         "$STACK_TOOLS_TARGET/tools.classpath" "$STACK_CONNECT_FILE_DIR/connect-file-4.3.1.jar" ${STACK_EXTRA_ARTIFACTS:-}
}

# stack_pom <pom>: its elements as "self <artifactId>" (the module's own, outside <parent>) and "dep <groupId>
# <artifactId> <scope>" lines (scope "compile" when none is given), comments removed. Plain awk, so that the quickstart
# needs no XML tool.
stack_pom() {
    awk '{ s = s $0 " " } END {
        while ((i = index(s, "<!--")) > 0) { j = index(substr(s, i), "-->"); s = substr(s, 1, i - 1) (j ? substr(s, i + j + 2) : "") }
        own = s; sub(/<parent>.*<\/parent>/, "", own); sub(/<dependencies>.*/, "", own)
        if (match(own, /<artifactId>[^<]*<\/artifactId>/)) print "self", substr(own, RSTART + 12, RLENGTH - 25)
        while ((i = index(s, "<dependency>")) > 0) {
            s = substr(s, i + 12); d = substr(s, 1, index(s, "</dependency>"))
            g = ""; a = ""; sc = "compile"
            if (match(d, /<groupId>[^<]*<\/groupId>/)) g = substr(d, RSTART + 9, RLENGTH - 19)
            if (match(d, /<artifactId>[^<]*<\/artifactId>/)) a = substr(d, RSTART + 12, RLENGTH - 25)
            if (match(d, /<scope>[^<]*<\/scope>/)) sc = substr(d, RSTART + 7, RLENGTH - 15)
            print "dep", g, a, sc
        } }' "$1"
}

# stack_build_modules [module...]: the reactor modules (directories) that the given ones (default: STACK_ROOT_MODULES
# and STACK_EXTRA_MODULES) are built from: themselves and, transitively, every module of the root pom's <modules> they
# depend on in a scope other than test (test-support or config-docs do not end up in a jar the stack runs).
stack_build_modules() {
    local group m kind g a sc queue=() seen=" "
    declare -A dir_of deps_of
    group="$(awk '{ s = s $0 " " } END { sub(/<parent>.*<\/parent>/, "", s); sub(/<modules>.*/, "", s)
        if (match(s, /<groupId>[^<]*<\/groupId>/)) print substr(s, RSTART + 9, RLENGTH - 19) }' "$STACK_REPO/pom.xml")"
    for m in $(sed -n 's|.*<module>\([^<]*\)</module>.*|\1|p' "$STACK_REPO/pom.xml"); do
        while read -r kind g a sc; do
            case "$kind" in
                self) dir_of[$g]="$m" ;;
                dep) if { [ "$g" = "$group" ] || [ "$g" = '${project.groupId}' ]; } && [ "$sc" != test ]; then
                         deps_of[$m]="${deps_of[$m]:-} $a"
                     fi ;;
            esac
        done < <(stack_pom "$STACK_REPO/$m/pom.xml")
    done
    queue=(${@:-$STACK_ROOT_MODULES ${STACK_EXTRA_MODULES:-}})
    while [ "${#queue[@]}" -gt 0 ]; do
        m="${queue[0]}"; queue=("${queue[@]:1}")
        case "$seen" in *" $m "*) continue ;; esac
        seen="$seen$m "
        echo "$m"
        for a in ${deps_of[$m]:-}; do
            if [ -z "${dir_of[$a]:-}" ]; then echo "$m/pom.xml depends on $a, which no module of the root pom builds" >&2; return 1; fi
            queue+=("${dir_of[$a]}")
        done
    done
}

# Prints why a build is needed and returns 0, or returns 1 when the artifacts are up to date: an artifact is missing,
# or the root pom, or a pom or a file under src/ (but src/test) of a module the stack is built from, is newer than the
# oldest artifact (or than the last build's stamp).
stack_build_needed() {
    local a oldest="" stamp="$STACK_TOOLS_TARGET/stack-build.stamp" sources=() modules m d newer
    for a in $(stack_artifacts); do
        [ -e "$a" ] || { echo "$a is missing"; return 0; }
        if [ -z "$oldest" ] || [ "$a" -ot "$oldest" ]; then oldest="$a"; fi
    done
    # Maven does not rewrite a jar whose content did not change; the stamp records the last build we ran.
    if [ -e "$stamp" ] && [ "$stamp" -nt "$oldest" ]; then oldest="$stamp"; fi
    modules="$(stack_build_modules)" || { echo "the modules the stack is built from could not be derived from the poms (above)"; return 0; }
    sources=("$STACK_REPO/pom.xml")
    for m in $modules; do
        sources+=("$STACK_REPO/$m/pom.xml")
        for d in "$STACK_REPO/$m"/src/*; do
            [ -d "$d" ] && [ "${d##*/}" != test ] && sources+=("$d")
        done
    done
    newer="$(find "${sources[@]}" -type f -newer "$oldest" -print -quit)"
    [ -n "$newer" ] && { echo "${newer#"$STACK_REPO"/} changed since the last build"; return 0; }
    return 1
}

# stack_build [force]: builds the bundle, quickstart-tools and STACK_EXTRA_MODULES with what they are built from (-am;
# never `mvn install`) when stack_build_needed says so.
stack_build() {
    local why pl="bundle,quickstart-tools" m
    for m in ${STACK_EXTRA_MODULES:-}; do pl="$pl,$m"; done
    if [ "${1:-}" = force ]; then
        why="--rebuild"
    elif ! why="$(stack_build_needed)"; then
        stack_log "build is up to date ($pl); --rebuild forces a build"
        return 0
    fi
    stack_log "building with Maven ($why): mvn -B -ntp -q -pl $pl -am package -DskipTests"
    (cd "$STACK_REPO" && mvn -B -ntp -q -pl "$pl" -am package -DskipTests) \
        || stack_die "the Maven build failed (see above)"
    touch "$STACK_TOOLS_TARGET/stack-build.stamp"
}

stack_classpaths() {
    KAFKA_CP="$(cat "$STACK_TOOLS_TARGET/kafka.classpath")"
    TOOLS_CP="$STACK_TOOLS_TARGET/quickstart-tools-0.1.0.jar:$(cat "$STACK_TOOLS_TARGET/tools.classpath")"
}

# --- processes -----------------------------------------------------------------------------------------------

# stack_pid_running <pidfile> <main class>: the process exists, is not a zombie, and is that JVM of this STACK_DIR.
stack_pid_running() {
    local pidfile="$1" main="$2" pid state
    [ -s "$pidfile" ] || return 1
    pid="$(cat "$pidfile")"
    state="$(sed 's/^.*) //' "/proc/$pid/stat" 2>/dev/null | cut -d' ' -f1)"
    [ -n "$state" ] || return 1
    [ "$state" = Z ] && return 1
    tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$main" || return 1
    tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$STACK_DIR" || return 1
    return 0
}

stack_broker_running() { stack_pid_running "$STACK_DIR/${STACK_BROKER_NAME:-broker}/broker.pid" kafka.Kafka; }
stack_connect_running() { stack_pid_running "$STACK_DIR/${STACK_WORKER_NAME:-connect}/connect.pid" org.apache.kafka.connect.cli.ConnectDistributed; }

# stack_check_port <port> <setting>: fails with a clear message when something listens on the port.
stack_check_port() {
    local port="$1" setting="$2" who
    if [ -n "$(ss -Htln "sport = :$port" 2>/dev/null)" ]; then
        who="$(ss -Htlnp "sport = :$port" 2>/dev/null | grep -o 'users:(([^)]*' | head -1 | sed 's/users:((//')"
        stack_die "port $port is already in use${who:+ (by $who)}: it is the $setting; free it or choose another port (see --help)"
    fi
}

# stack_pick_port <variable>: sets the variable (an array element too, e.g. 'WPORT[2]') to a free port in 21000-29999,
# below Linux's ephemeral range and apart from the quickstart's defaults (18080-19404), that nothing listens on and
# that no earlier call of this shell picked. It assigns instead of printing: in a $(...) subshell the record of the
# ports already picked would be lost, and two callers could get the same port before either binds it.
STACK_PICKED_PORTS=" "
stack_pick_port() {
    local _stack_port # a name no caller's variable has: printf -v would set this local instead
    while :; do
        _stack_port=$(( 21000 + $(od -An -N2 -tu2 /dev/urandom) % 9000 ))
        case "$STACK_PICKED_PORTS" in *" $_stack_port "*) continue ;; esac
        [ -z "$(ss -Htln "sport = :$_stack_port" 2>/dev/null)" ] || continue
        STACK_PICKED_PORTS="$STACK_PICKED_PORTS$_stack_port "
        printf -v "$1" '%s' "$_stack_port"
        return 0
    done
}

stack_check_broker_ports() {
    stack_check_port "$BROKER_PORT" "broker port (${BROKER_PORT_SETTING:-BROKER_PORT})"
    stack_check_port "$CONTROLLER_PORT" "KRaft controller port (${CONTROLLER_PORT_SETTING:-CONTROLLER_PORT})"
}
stack_check_worker_port() {
    stack_check_port "$CONNECT_PORT" "Connect REST port (${CONNECT_PORT_SETTING:-CONNECT_PORT})"
}

# stack_launch <name> <log> <pidfile> <java args...>: starts a JVM in its own session, detached from the terminal.
# setsid execs java in the same process (no wrapper shell), so the pid file holds the JVM's own pid.
stack_launch() {
    local name="$1" log="$2" pidfile="$3"; shift 3
    setsid java "$@" >>"$log" 2>&1 </dev/null &
    echo $! > "$pidfile"
    stack_log "started $name (pid $!), log: ${log#"$STACK_REPO"/}"
}

stack_write_log4j() {
    cat > "$STACK_DIR/log4j2.properties" <<'L4J'
# Broker and worker logs (stdout is redirected to broker/broker.log and connect/connect.log)
status = warn
appender.out.type = Console
appender.out.name = out
appender.out.layout.type = PatternLayout
appender.out.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = info
rootLogger.appenderRef.out.ref = out
logger.clients.name = org.apache.kafka.clients
logger.clients.level = warn
logger.reflections.name = org.reflections
logger.reflections.level = error
L4J
    cat > "$STACK_DIR/tools-log4j2.properties" <<'L4J'
# The helper tools: warnings only, on stderr
status = warn
appender.err.type = Console
appender.err.name = err
appender.err.target = SYSTEM_ERR
appender.err.layout.type = PatternLayout
appender.err.layout.pattern = %p %m (%c)%n
rootLogger.level = warn
rootLogger.appenderRef.err.ref = err
L4J
}

# A new cluster id, as `kafka-storage random-uuid` makes it (16 random bytes, URL-safe base64, not starting with
# '-'), without a JVM launch.
stack_cluster_id() {
    local id
    while :; do
        id="$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=')"
        [ "${id:0:1}" != - ] && { echo "$id"; return; }
    done
}

stack_start_broker() {
    local dir="$STACK_DIR/${STACK_BROKER_NAME:-broker}"
    mkdir -p "$dir/data"
    [ -e "$STACK_DIR/log4j2.properties" ] || stack_write_log4j
    stack_check_broker_ports
    cat > "$dir/server.properties" <<PROPS
# single-node combined KRaft broker (written by scripts/stack.sh)
process.roles=broker,controller
node.id=${BROKER_NODE_ID:-1}
controller.quorum.bootstrap.servers=localhost:$CONTROLLER_PORT
listeners=PLAINTEXT://localhost:$BROKER_PORT,CONTROLLER://localhost:$CONTROLLER_PORT
advertised.listeners=PLAINTEXT://localhost:$BROKER_PORT
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=$dir/data
num.partitions=1
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
PROPS
    if [ ! -e "$dir/data/meta.properties" ]; then
        java -cp "$KAFKA_CP" -Dlog4j2.configurationFile="$STACK_DIR/tools-log4j2.properties" kafka.tools.StorageTool format \
            -t "$(stack_cluster_id)" -c "$dir/server.properties" --standalone >/dev/null \
            || stack_die "formatting the broker's storage failed"
    fi
    stack_launch broker "$dir/broker.log" "$dir/broker.pid" -Xms256m -Xmx"${BROKER_HEAP:-512m}" -XX:+UseG1GC \
        -Dlog4j2.configurationFile="$STACK_DIR/log4j2.properties" -cp "$KAFKA_CP" kafka.Kafka "$dir/server.properties"
}

# stack_wait_started <what> <log> <pidfile> <main> <timeout s> <check command...>
stack_wait_started() {
    local what="$1" log="$2" pidfile="$3" main="$4" timeout="$5" i; shift 5
    for ((i = 0; i < timeout * 4; i++)); do
        "$@" && return 0
        if ! stack_pid_running "$pidfile" "$main"; then
            tail -n 30 "$log" >&2
            stack_die "the $what exited during start-up (log: $log)"
        fi
        sleep 0.25
    done
    tail -n 30 "$log" >&2
    stack_die "the $what did not start within $timeout s (log: $log)"
}

stack_wait_broker() {
    local dir="$STACK_DIR/${STACK_BROKER_NAME:-broker}"
    stack_wait_started broker "$dir/broker.log" "$dir/broker.pid" kafka.Kafka 60 grep -q "Kafka Server started" "$dir/broker.log"
}

stack_install_plugin() { # <source dir> <name under plugins/>
    mkdir -p "$STACK_DIR/plugins"
    rm -rf "${STACK_DIR:?}/plugins/$2"
    cp -r "$1" "$STACK_DIR/plugins/$2"
}

# Installs our plugin as an operator does: the bundle zip unpacked into the plugin.path, as
# plugins/$STACK_BUNDLE_NAME/ (Connect finds the jars of its lib/: PluginUtils.pluginUrls walks the directory).
stack_install_bundle() {
    mkdir -p "$STACK_DIR/plugins"
    rm -rf "${STACK_DIR:?}/plugins/$STACK_BUNDLE_NAME"
    if command -v unzip >/dev/null 2>&1; then
        unzip -q "$STACK_BUNDLE_ZIP" -d "$STACK_DIR/plugins"
    else
        (cd "$STACK_DIR/plugins" && jar xf "$STACK_BUNDLE_ZIP")
    fi
    [ -f "$STACK_DIR/plugins/$STACK_BUNDLE_NAME/manifest.json" ] \
        || stack_die "$STACK_BUNDLE_ZIP did not unpack to plugins/$STACK_BUNDLE_NAME/manifest.json"
}

stack_start_worker() {
    local dir="$STACK_DIR/${STACK_WORKER_NAME:-connect}"
    mkdir -p "$dir"
    [ -e "$STACK_DIR/log4j2.properties" ] || stack_write_log4j
    stack_check_worker_port
    cat > "$dir/worker.properties" <<PROPS
# Kafka Connect worker, distributed mode (written by scripts/stack.sh)
bootstrap.servers=localhost:$BROKER_PORT
group.id=${CONNECT_GROUP:-mirror-v3-connect}
listeners=http://localhost:$CONNECT_PORT
plugin.path=$STACK_DIR/plugins
# Plugins are found through their META-INF/services entries: faster than scanning every jar.
plugin.discovery=service_load
key.converter=org.apache.kafka.connect.converters.ByteArrayConverter
value.converter=org.apache.kafka.connect.converters.ByteArrayConverter
config.storage.topic=_connect-configs
offset.storage.topic=_connect-offsets
status.storage.topic=_connect-status
config.storage.replication.factor=1
offset.storage.replication.factor=1
status.storage.replication.factor=1
offset.flush.interval.ms=${CONNECT_OFFSET_FLUSH_MS:-5000}
# Lets connectors set consumer.override.* (the blob sink requires auto.offset.reset=none, read_committed).
connector.client.config.override.policy=All
# Secrets in connector configs as \${env:VAR}, \${file:path:key} or \${directory:dir:file} (the S3 identities).
config.providers=env,file,directory
config.providers.env.class=org.apache.kafka.common.config.provider.EnvVarConfigProvider
config.providers.file.class=org.apache.kafka.common.config.provider.FileConfigProvider
config.providers.directory.class=org.apache.kafka.common.config.provider.DirectoryConfigProvider
${CONNECT_EXTRA_PROPS:-}
PROPS
    # shellcheck disable=SC2086
    stack_launch "Connect worker" "$dir/connect.log" "$dir/connect.pid" -Xms256m -Xmx"${CONNECT_HEAP:-1g}" -XX:+UseG1GC \
        ${CONNECT_JVM_OPTS:-} -Dlog4j2.configurationFile="$STACK_DIR/log4j2.properties" -cp "$KAFKA_CP" \
        org.apache.kafka.connect.cli.ConnectDistributed "$dir/worker.properties"
}

# --- a local S3 store (S3Proxy 4.1.0 over its filesystem backend, one identity) ---------------------------------
# Needs S3_PORT. Layout: s3/{s3proxy.properties,credentials.properties,data/<bucket>/,s3proxy.log,s3proxy.pid}.
# The identity is made up on first start and kept with the state; credentials.properties (mode 600) holds it for
# connector configs that read it through Kafka's FileConfigProvider (${file:<path>:access.key.id}).
# STACK_S3_PUT_BYTES_PER_MS, when set, throttles every PutObject body S3Proxy reads to that many bytes a millisecond
# (its latency middleware, s3proxy.latency-blobstore.put.speed): ./torture's faults need an upload in progress to catch.
STACK_S3_MAIN=org.gaul.s3proxy.Main

stack_s3_running() { stack_pid_running "$STACK_DIR/s3/s3proxy.pid" "$STACK_S3_MAIN"; }

stack_start_s3() { # <bucket>
    local dir="$STACK_DIR/s3" id secret
    mkdir -p "$dir/data/$1"
    [ -e "$STACK_DIR/log4j2.properties" ] || stack_write_log4j
    if [ ! -e "$dir/credentials.properties" ]; then
        id="local-$(head -c 6 /dev/urandom | od -An -tx1 | tr -d ' \n')"
        secret="$(head -c 24 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=')"
        (umask 077; printf 'access.key.id=%s\nsecret.access.key=%s\n' "$id" "$secret" > "$dir/credentials.properties")
    fi
    id="$(sed -n 's/^access.key.id=//p' "$dir/credentials.properties")"
    secret="$(sed -n 's/^secret.access.key=//p' "$dir/credentials.properties")"
    (umask 077; cat > "$dir/s3proxy.properties" <<PROPS
# S3Proxy on loopback (written by scripts/stack.sh); its filesystem backend answers If-None-Match: * with 412
s3proxy.endpoint=http://127.0.0.1:$S3_PORT
s3proxy.authorization=aws-v2-or-v4
s3proxy.identity=$id
s3proxy.credential=$secret
jclouds.provider=filesystem
jclouds.filesystem.basedir=$dir/data
PROPS
    )
    if [ -n "${STACK_S3_PUT_BYTES_PER_MS:-}" ]; then
        echo "s3proxy.latency-blobstore.put.speed=$STACK_S3_PUT_BYTES_PER_MS" >> "$dir/s3proxy.properties"
    fi
    stack_launch "S3Proxy" "$dir/s3proxy.log" "$dir/s3proxy.pid" -Xmx256m -XX:+UseSerialGC \
        -Dlog4j2.configurationFile="$STACK_DIR/log4j2.properties" -cp "$TOOLS_CP" "$STACK_S3_MAIN" --properties "$dir/s3proxy.properties"
}

# Any HTTP answer (S3Proxy refuses the unsigned request with 403) means it serves.
stack_s3_ready() { [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$S3_PORT/" 2>/dev/null)" != 000 ]; }

stack_wait_s3() {
    stack_wait_started S3Proxy "$STACK_DIR/s3/s3proxy.log" "$STACK_DIR/s3/s3proxy.pid" "$STACK_S3_MAIN" 60 stack_s3_ready
}

stack_s3_credential() { # <access.key.id|secret.access.key>
    sed -n "s/^$1=//p" "$STACK_DIR/s3/credentials.properties"
}

stack_rest_ready() { curl -sf "http://localhost:$CONNECT_PORT/connector-plugins" >/dev/null 2>&1; }

stack_wait_worker() {
    local dir="$STACK_DIR/${STACK_WORKER_NAME:-connect}"
    stack_wait_started "Connect worker" "$dir/connect.log" "$dir/connect.pid" \
        org.apache.kafka.connect.cli.ConnectDistributed 90 stack_rest_ready
}

# stack_stop_process <pidfile> <main class> <label>: SIGTERM, up to 30 s for a clean shutdown, then SIGKILL.
stack_stop_process() {
    local pidfile="$1" main="$2" label="$3" pid i
    if stack_pid_running "$pidfile" "$main"; then
        pid="$(cat "$pidfile")"
        kill -TERM "$pid" 2>/dev/null
        for ((i = 0; i < 120; i++)); do
            stack_pid_running "$pidfile" "$main" || break
            sleep 0.25
        done
        if stack_pid_running "$pidfile" "$main"; then
            stack_log "$label (pid $pid) did not stop within 30 s: killing it"
            kill -KILL "$pid" 2>/dev/null
        fi
        stack_log "stopped $label (pid $pid)"
    fi
    rm -f "$pidfile"
}

stack_stop() {
    stack_stop_process "$STACK_DIR/connect/connect.pid" org.apache.kafka.connect.cli.ConnectDistributed "Connect worker"
    stack_stop_process "$STACK_DIR/broker/broker.pid" kafka.Kafka broker
    stack_stop_process "$STACK_DIR/s3/s3proxy.pid" "$STACK_S3_MAIN" S3Proxy
}

# --- helpers -------------------------------------------------------------------------------------------------

# stack_tool <class> <args...>: one of our helpers (dev.mirrorv3.quickstart.*) or a Kafka tool class.
stack_tool() {
    local cls="$1"; shift
    case "$cls" in *.*) ;; *) cls="dev.mirrorv3.quickstart.$cls" ;; esac
    java -Xmx512m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Dlog4j2.configurationFile="$STACK_DIR/tools-log4j2.properties" \
        -cp "$TOOLS_CP" "$cls" "$@"
}

stack_create_topic() { # <topic> <partitions>
    stack_tool org.apache.kafka.tools.TopicCommand --bootstrap-server "localhost:$BROKER_PORT" --create --if-not-exists \
        --topic "$1" --partitions "$2" --replication-factor 1 >/dev/null || stack_die "could not create topic $1"
}

# stack_put_connector <name> <config json file, or - for standard input>: creates or updates a connector (the flat
# config map); prints Connect's error if refused.
stack_put_connector() {
    local out code
    out="$(curl -s -w '\n%{http_code}' -X PUT -H 'Content-Type: application/json' --data-binary @"$2" \
        "http://localhost:$CONNECT_PORT/connectors/$1/config")"
    code="${out##*$'\n'}"
    case "$code" in
        200|201) return 0 ;;
        *) printf '%s\n' "${out%$'\n'*}" >&2; stack_die "Connect refused connector $1 (HTTP $code); config: $2" ;;
    esac
}

stack_delete_connector() { curl -s -o /dev/null -X DELETE "http://localhost:$CONNECT_PORT/connectors/$1"; }
