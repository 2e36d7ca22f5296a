package dev.mirrorv3.restore.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mirrorv3.chain.Chain;
import dev.mirrorv3.chain.read.ChainReader;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.kafka.Failures;
import dev.mirrorv3.kafka.SourceOffsets;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.TopicPartition;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code mirror-v3 status}: per connector and partition, the source high watermark, the backup's next offset and the lag. */
@Command(name = "status",
        mixinStandardHelpOptions = true,
        description = {"Shows, per blob sink connector and partition, the source topic's high watermark, the backup's next offset"
                + " (the chain's last object + 1, read from the store) and the lag between them. Exits 1 if any row could not be"
                + " read (unreachable broker, corrupt chain); the row says why."},
        footerHeading = "%nExamples:%n",
        footer = {"  mirror-v3 status --connector-config orders-backup.json --connector-config payments-backup.json",
                "  mirror-v3 status --connect-url http://connect:8083 --connector orders-backup --format json",
                "",
                "Exit codes: 0 ok, 1 a row could not be read, 2 usage."})
final class StatusCommand implements Callable<Integer> {
    enum Format { TABLE, JSON }

    @Spec
    CommandSpec spec;

    @Option(names = "--connector-config", paramLabel = "FILE", description = "A blob sink connector's JSON (repeatable).")
    List<Path> configs = new ArrayList<>();

    @Option(names = "--connect-url", paramLabel = "URL", description = "Read the configs of --connector NAME... from this Connect REST API.")
    String connectUrl;

    @Option(names = "--connector", paramLabel = "NAME", description = "Connector name (repeatable with --connect-url; with a flat-map"
            + " --connector-config, the name of that one connector).")
    List<String> connectors = new ArrayList<>();

    @Option(names = "--format", paramLabel = "table|json", defaultValue = "table", description = "table (aligned) or json (an array).")
    Format format;

    @Option(names = "--timeout-ms", paramLabel = "MS", defaultValue = "10000", description = "Timeout of the source cluster queries"
            + " (default ${DEFAULT-VALUE}).")
    long timeoutMs;

    @Option(names = "--keys-dir", paramLabel = "DIR", description = "The keys of encrypted backups (default: each connector's"
            + " encryption.keys.dir if it exists here); a chain with key ids missing from it is a row with an error listing them.")
    Path keysDir;

    @Mixin
    TargetOptions source;

    record Row(String connector, String topic, Integer partition, Long sourceHighWatermark, Long backupNextOffset, String error) {
        Long lag() {
            return sourceHighWatermark == null || backupNextOffset == null ? null : sourceHighWatermark - backupNextOffset;
        }
    }

    @Override
    public Integer call() {
        List<ConnectorConfig> all = new ArrayList<>();
        if (connectUrl != null) {
            if (connectors.isEmpty()) {
                throw new ParameterException(spec.commandLine(), "--connect-url needs at least one --connector NAME");
            }
            connectors.forEach(n -> all.add(ConnectorConfig.fromConnect(connectUrl, n, Duration.ofSeconds(15))));
        }
        for (Path p : configs) {
            all.add(ConnectorConfig.fromFile(p, connectors.size() == 1 && connectUrl == null ? connectors.get(0) : null));
        }
        if (all.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "give --connector-config FILE... or --connect-url URL --connector NAME...");
        }
        List<Row> rows = new ArrayList<>();
        for (ConnectorConfig c : all) {
            rows.addAll(rows(c));
        }
        print(spec.commandLine().getOut(), rows);
        return rows.stream().anyMatch(r -> r.error() != null) ? ExitCodes.CHECK_FAILED : ExitCodes.OK;
    }

    private List<Row> rows(ConnectorConfig c) {
        List<Row> rows = new ArrayList<>();
        List<String> topics = java.util.Arrays.stream(c.settings().getOrDefault("topics", "").split(","))
                .map(String::trim).filter(t -> !t.isEmpty()).toList();
        if (topics.isEmpty()) {
            return List.of(new Row(c.name(), null, null, null, null, "no topics setting (topics.regex is not supported by status)"));
        }
        Map<String, Object> admin = adminConfig(c);
        Duration timeout = Duration.ofMillis(timeoutMs);
        try (SourceOffsets offsets = new SourceOffsets(Admin.create(admin), timeout)) {
            for (String topic : topics) {
                Backup b;
                try {
                    b = Backup.of(c, topic, keysDir);
                } catch (UsageException e) {
                    rows.add(new Row(c.name(), topic, null, null, null, e.getMessage()));
                    continue;
                }
                try (Store store = b.openStore()) {
                    TreeSet<Integer> partitions = new TreeSet<>(store.partitions());
                    Map<TopicPartition, Long> hwms = Map.of();
                    String sourceError = null;
                    try {
                        int n = offsets.admin().describeTopics(List.of(topic)).allTopicNames().get(timeoutMs, TimeUnit.MILLISECONDS)
                                .get(topic).partitions().size();
                        for (int p = 0; p < n; p++) {
                            partitions.add(p);
                        }
                        hwms = offsets.highWatermarks(partitions.stream().filter(p -> p < n).map(p -> new TopicPartition(topic, p)).toList());
                    } catch (Exception e) {
                        sourceError = "source cluster " + admin.get("bootstrap.servers") + ": " + Failures.describe(e);
                    }
                    ChainReader reader = new ChainReader(store, b.envelope(), b.keys());
                    for (int p : partitions) {
                        Long hwm = hwms.get(new TopicPartition(topic, p));
                        Long next = null;
                        String error = sourceError;
                        try {
                            Chain chain = reader.listChain(p, OptionalLong.empty());
                            next = chain.nextOffset().isPresent() ? chain.nextOffset().getAsLong() : 0L;
                        } catch (RuntimeException e) {
                            error = (error == null ? "" : error + "; ") + "backup: " + Failures.describe(e);
                        }
                        if (error == null && hwm == null) {
                            error = "partition " + p + " is not in the source topic";
                        }
                        rows.add(new Row(c.name(), topic, p, hwm, next, error));
                    }
                }
            }
        }
        return rows;
    }

    private Map<String, Object> adminConfig(ConnectorConfig c) {
        Map<String, Object> admin = new HashMap<>();
        c.settings().forEach((k, v) -> {
            if (k.startsWith("source.admin.") && !k.equals("source.admin.timeout.ms")) {
                admin.put(k.substring("source.admin.".length()), v);
            }
        });
        if (admin.getOrDefault("bootstrap.servers", "").toString().isBlank()) {
            admin.put("bootstrap.servers", c.settings().getOrDefault("consumer.override.bootstrap.servers", ""));
        }
        admin.putAll(source.clientConfig()); // --bootstrap-servers / --command-config override the connector's
        admin.put(AdminClientConfig.CLIENT_ID_CONFIG, "mirror-v3-status");
        admin.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeoutMs);
        admin.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) timeoutMs);
        admin.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 1000);
        return admin;
    }

    private void print(PrintWriter out, List<Row> rows) {
        if (format == Format.JSON) {
            ObjectMapper json = new ObjectMapper();
            ArrayNode array = json.createArrayNode();
            for (Row r : rows) {
                ObjectNode o = array.addObject();
                o.put("connector", r.connector());
                o.put("topic", r.topic());
                o.put("partition", r.partition());
                o.put("source_high_watermark", r.sourceHighWatermark());
                o.put("backup_next_offset", r.backupNextOffset());
                o.put("lag", r.lag());
                o.put("error", r.error());
            }
            out.println(array.toPrettyString());
        } else {
            List<String[]> cells = new ArrayList<>();
            cells.add(new String[] {"CONNECTOR", "TOPIC", "PARTITION", "SOURCE_HWM", "BACKUP_NEXT", "LAG", "ERROR"});
            for (Row r : rows) {
                cells.add(new String[] {r.connector(), s(r.topic()), s(r.partition()), s(r.sourceHighWatermark()), s(r.backupNextOffset()),
                        s(r.lag()), r.error() == null ? "" : r.error()});
            }
            int[] width = new int[7];
            for (String[] row : cells) {
                for (int i = 0; i < 6; i++) {
                    width[i] = Math.max(width[i], row[i].length());
                }
            }
            for (String[] row : cells) {
                StringBuilder sb = new StringBuilder();
                for (int i = 0; i < 7; i++) {
                    boolean numeric = i >= 2 && i <= 5;
                    String cell = row[i];
                    if (i < 6) {
                        String pad = " ".repeat(width[i] - cell.length());
                        sb.append(numeric ? pad + cell : cell + pad).append("  ");
                    } else {
                        sb.append(cell);
                    }
                }
                out.println(sb.toString().stripTrailing());
            }
        }
        out.flush();
    }

    private static String s(Object o) {
        return o == null ? "-" : o.toString();
    }
}
