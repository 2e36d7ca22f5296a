package dev.mirrorv3.connect.blob;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * The operational files in {@code config/} and the Strimzi example fit together (always runs, no cluster): every
 * metric the alerts and the dashboard use is one the exporter rules produce, counters are typed COUNTER (jmx_exporter
 * strips {@code _total} otherwise), and the Strimzi ConfigMap carries exactly the shipped rules. The
 * names are checked against a real scrape in {@link BlobSinkObservabilityIT}.
 */
class ConfigFilesTest {
    static final Path CONFIG = Path.of("..", "config");
    private static final Pattern METRIC = Pattern.compile("\\b(mirror_v3_[a-z_]+|kafka_connect_[a-z_]+)\\b");

    @Test
    void exporterRulesTypeEveryCounterAsCounter() {
        List<Map<String, Object>> rules = exporterRules();
        assertThat(rules).isNotEmpty();
        for (Map<String, Object> rule : rules) {
            String name = (String) rule.get("name");
            assertThat(rule.get("type")).as("type of " + name).isEqualTo(name.endsWith("_total") ? "COUNTER" : "GAUGE");
            assertThat((String) rule.get("pattern")).as("pattern of " + name).startsWith("kafka.connect<type=");
        }
        assertThat(exportedNames()).containsAll(List.of("mirror_v3_destination_offset_verified", "mirror_v3_destination_records_total",
                "mirror_v3_destination_bytes_total", "mirror_v3_destination_flushes_total",
                "mirror_v3_destination_last_flush_timestamp_seconds", "mirror_v3_mirror_restarts_total", "mirror_v3_source_lag_offsets"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void alertsUseOnlyExportedMetricsAndSayWhatToDo() {
        Map<String, Object> file = new Yaml().load(read(CONFIG.resolve("prometheus-rules.yaml")));
        List<String> alerts = new ArrayList<>();
        for (Map<String, Object> group : (List<Map<String, Object>>) file.get("groups")) {
            for (Map<String, Object> rule : (List<Map<String, Object>>) group.get("rules")) {
                alerts.add((String) rule.get("alert"));
                Map<String, Object> annotations = (Map<String, Object>) rule.get("annotations");
                assertThat(annotations).as("annotations of " + rule.get("alert")).containsKeys("summary", "description");
                assertThat(metricNames((String) rule.get("expr"))).as("metrics of " + rule.get("alert")).isNotEmpty()
                        .isSubsetOf(exportedNames());
            }
        }
        assertThat(alerts).containsExactlyInAnyOrder("MirrorV3TaskFailed", "MirrorV3DestinationFailing", "MirrorV3FlushOverdue",
                "MirrorV3BackupStalled");
    }

    @Test
    void theDashboardUsesOnlyExportedMetricsAndShowsLagOffsetFlushesAndRestarts() {
        Set<String> used = metricNames(dashboardExprs());
        assertThat(used).isSubsetOf(exportedNames());
        assertThat(used).contains("mirror_v3_source_lag_offsets", "mirror_v3_destination_offset_verified",
                "mirror_v3_destination_flushes_total", "mirror_v3_destination_last_flush_timestamp_seconds",
                "mirror_v3_mirror_restarts_total", "kafka_connect_connector_task_status");
    }

    @Test
    @SuppressWarnings("unchecked")
    void theStrimziExampleCarriesTheShippedRulesFirst() {
        Map<String, Object> configMap = null;
        for (Object doc : new Yaml().loadAll(read(Path.of("..", "examples", "strimzi", "kafka-connect-metrics.yaml")))) {
            Map<String, Object> m = (Map<String, Object>) doc;
            if ("ConfigMap".equals(m.get("kind"))) {
                configMap = m;
            }
        }
        assertThat(configMap).isNotNull();
        Map<String, Object> metricsConfig = new Yaml().load((String) ((Map<String, Object>) configMap.get("data")).get("metrics-config.yml"));
        List<Map<String, Object>> rules = (List<Map<String, Object>>) metricsConfig.get("rules");
        List<Map<String, Object>> shipped = exporterRules().stream().map(r -> {
            Map<String, Object> withoutHelp = new LinkedHashMap<>(r);
            withoutHelp.remove("help");
            return withoutHelp;
        }).toList();
        assertThat(rules.subList(0, shipped.size())).isEqualTo(shipped);
    }

    @Test
    void theLabelCheckSeesTheLabelsQueriesUse() {
        Map<String, Set<String>> used = labelsUsed();
        assertThat(used.get("mirror_v3_source_lag_offsets")).as("selector labels and the alerts' on (...) join")
                .contains("mirror", "topic", "partition");
        assertThat(used.get("kafka_connect_connector_task_status")).contains("status");
    }

    private static final Pattern SELECTOR = Pattern.compile("\\b(mirror_v3_[a-z_]+|kafka_connect_[a-z_]+)\\{([^}]*)}");
    private static final Pattern MATCHER_LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)\\s*(=~|!~|!=|=)");
    private static final Pattern JOIN = Pattern.compile("\\bon\\s*\\(([^)]*)\\)");

    /**
     * For every metric the alert rules and the dashboard query, the labels they use with it: the label matchers of its
     * selectors, and the labels of an {@code on (...)} join in the same expression (both sides must carry them).
     */
    static Map<String, Set<String>> labelsUsed() {
        Map<String, Set<String>> used = new TreeMap<>();
        for (String expr : allExprs()) {
            Set<String> joined = new TreeSet<>();
            Matcher j = JOIN.matcher(expr);
            while (j.find()) {
                for (String l : j.group(1).split(",")) {
                    joined.add(l.trim());
                }
            }
            for (String name : metricNames(expr)) {
                used.computeIfAbsent(name, n -> new TreeSet<>()).addAll(joined);
            }
            Matcher m = SELECTOR.matcher(expr);
            while (m.find()) {
                Matcher l = MATCHER_LABEL.matcher(m.group(2));
                while (l.find()) {
                    used.computeIfAbsent(m.group(1), n -> new TreeSet<>()).add(l.group(1));
                }
            }
        }
        return used;
    }

    /** Every expression of the alert rules and the dashboard's panels. */
    @SuppressWarnings("unchecked")
    static List<String> allExprs() {
        List<String> exprs = new ArrayList<>(List.of(dashboardExprs().split("\n")));
        Map<String, Object> file = new Yaml().load(read(CONFIG.resolve("prometheus-rules.yaml")));
        for (Map<String, Object> group : (List<Map<String, Object>>) file.get("groups")) {
            for (Map<String, Object> rule : (List<Map<String, Object>>) group.get("rules")) {
                exprs.add(String.valueOf(rule.get("expr")));
            }
        }
        return exprs;
    }

    /** Every metric name the alert rules and the dashboard query. */
    @SuppressWarnings("unchecked")
    static Set<String> metricNamesUsed() {
        Map<String, Object> file = new Yaml().load(read(CONFIG.resolve("prometheus-rules.yaml")));
        StringBuilder exprs = new StringBuilder(dashboardExprs());
        for (Map<String, Object> group : (List<Map<String, Object>>) file.get("groups")) {
            for (Map<String, Object> rule : (List<Map<String, Object>>) group.get("rules")) {
                exprs.append('\n').append(rule.get("expr"));
            }
        }
        return metricNames(exprs.toString());
    }

    @SuppressWarnings("unchecked")
    static String dashboardExprs() {
        Map<String, Object> dashboard = new Yaml().load(read(CONFIG.resolve("grafana-dashboard.json")));
        StringBuilder exprs = new StringBuilder();
        for (Map<String, Object> panel : (List<Map<String, Object>>) dashboard.get("panels")) {
            for (Map<String, Object> target : (List<Map<String, Object>>) panel.get("targets")) {
                exprs.append(target.get("expr")).append('\n');
            }
        }
        return exprs.toString();
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> exporterRules() {
        Map<String, Object> config = new Yaml().load(read(CONFIG.resolve("jmx-exporter.yaml")));
        return (List<Map<String, Object>>) config.get("rules");
    }

    static Set<String> exportedNames() {
        Set<String> names = new TreeSet<>();
        exporterRules().forEach(r -> names.add((String) r.get("name")));
        return names;
    }

    static Set<String> metricNames(String promql) {
        Set<String> names = new TreeSet<>();
        Matcher m = METRIC.matcher(promql);
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    private static String read(Path p) {
        try {
            return Files.readString(p, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
