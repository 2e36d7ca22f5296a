package dev.mirrorv3.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.jmx.JmxCollector;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.Yaml;

/**
 * The operational files in {@code config/} as the tests read them: the exporter rules ({@code jmx-exporter.yaml}), the
 * metric names and labels the alert rules ({@code prometheus-rules.yaml}) and the dashboard use, and a scrape of this
 * JVM's MBeans through jmx_exporter's collector loaded with the shipped rules (the 1.0.1 agent's own code, in-process
 * because the embedded worker runs in this JVM). Each series a query uses is checked against a scrape of a worker
 * running the connector that exports it: the chain source's ({@link #CHAIN_SOURCE_SERIES}) by its observability IT,
 * the group sync's ({@link #GROUP_SYNC_SERIES}) by the chain source's group sync IT, every other one by the blob sink's; the verify run's
 * ({@link #VERIFY_SERIES}) by its own test. Needs {@code io.prometheus.jmx:collector} and snakeyaml on the test classpath.
 */
public final class ObservabilityFiles {
    public static final Path CONFIG = Path.of("..", "config");
    /** The prefix of every series the chain source exports on its own (it shares the per-task restarts with the sinks). */
    public static final String CHAIN_SOURCE_SERIES = "mirror_v3_follow_";
    /** The store request counts of the blob sink and the chain source (one series per topic, operation and outcome). */
    public static final String STORE_REQUESTS = "mirror_v3_store_requests_total";
    /** The chain source's MBean attributes, each the source of one {@link #CHAIN_SOURCE_SERIES} series. */
    public static final String CHAIN_SOURCE_ATTRIBUTES = "follow-";
    /**
     * The prefixes of the group sync's series (groups.sync of the Kafka sink and the chain source, per connector):
     * checked against a scrape of a worker running a sync by the chain source's ChainSourceGroupSyncIT.
     */
    public static final List<String> GROUP_SYNC_SERIES = List.of("mirror_v3_groups_", "mirror_v3_group_");
    /**
     * The series of a scheduled {@code mirror-v3 restore --verify-only} (its textfile or Pushgateway push, not a Connect
     * worker's scrape): checked against the CLI's own output by restore-cli's VerifyMetricsTest.
     */
    public static final List<String> VERIFY_SERIES = List.of("mirror_v3_backup_verified_offset",
            "mirror_v3_backup_last_verify_timestamp_seconds", "mirror_v3_backup_verify_success");
    /**
     * The cache sidecar's series (its own /metrics, cache-sidecar/README.md: "Metrics"), checked against a scrape of a
     * running sidecar by cache-sidecar's CacheReadsIT.
     */
    public static final List<String> SIDECAR_SERIES = List.of("mirror_v3_cache_last_seen_offset", "mirror_v3_cache_lag_offsets",
            "mirror_v3_cache_keys", "mirror_v3_cache_bytes", "mirror_v3_cache_memory_bytes", "mirror_v3_cache_memory_budget_exceeded",
            "mirror_v3_cache_ready", "mirror_v3_cache_memory_budget_bytes", "mirror_v3_cache_gc_time_exceeded",
            "mirror_v3_cache_http_request_duration_seconds_bucket", "mirror_v3_cache_http_request_duration_seconds_count",
            "mirror_v3_notify_delivered_total", "mirror_v3_notify_skipped_total", "mirror_v3_notify_failed_total",
            "mirror_v3_notify_retries_total", "mirror_v3_notify_batches_total", "mirror_v3_notify_keys_total");
    /**
     * Series a worker exports only while something is wrong (a partition failed and isolated): checked against a scrape
     * of a worker holding a failed partition by the blob sink's BlobSinkIsolationIT, not against a healthy one.
     */
    public static final List<String> FAILURE_SERIES = List.of("mirror_v3_partition_failed");
    /** Series only a blob sink with several destinations exports (BlobSinkTeeIT scrapes one). */
    public static final List<String> TEE_SERIES = List.of("mirror_v3_destination_lag_offsets");
    /**
     * Series no program exports: the operator declares them in Prometheus (docs/operations.md: "Scheduled verification"
     * declares each backup whose verification must report).
     */
    public static final List<String> DECLARED_SERIES = List.of("mirror_v3_verify_expected");

    private static final Pattern METRIC = Pattern.compile("\\b(mirror_v3_[a-z_]+|kafka_connect_[a-z_]+)\\b");
    private static final Pattern SELECTOR = Pattern.compile("\\b(mirror_v3_[a-z_]+|kafka_connect_[a-z_]+)\\{([^}]*)}");
    private static final Pattern MATCHER_LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)\\s*(=~|!~|!=|=)");
    private static final Pattern JOIN = Pattern.compile("\\bon\\s*\\(([^)]*)\\)");

    private ObservabilityFiles() {
    }

    @SuppressWarnings("unchecked")
    public static List<Map<String, Object>> exporterRules() {
        Map<String, Object> config = new Yaml().load(read(CONFIG.resolve("jmx-exporter.yaml")));
        return (List<Map<String, Object>>) config.get("rules");
    }

    public static Set<String> exportedNames() {
        Set<String> names = new TreeSet<>();
        exporterRules().forEach(r -> names.add((String) r.get("name")));
        names.addAll(VERIFY_SERIES);
        names.addAll(SIDECAR_SERIES);
        names.addAll(DECLARED_SERIES);
        return names;
    }

    /** The alert rules of {@code prometheus-rules.yaml}, every group's. */
    public static List<Map<String, Object>> alertRules() {
        return rules("alert");
    }

    /** The recording rules of {@code prometheus-rules.yaml}, every group's. */
    public static List<Map<String, Object>> recordingRules() {
        return rules("record");
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> rules(String kind) {
        Map<String, Object> file = new Yaml().load(read(CONFIG.resolve("prometheus-rules.yaml")));
        List<Map<String, Object>> rules = new ArrayList<>();
        for (Map<String, Object> group : (List<Map<String, Object>>) file.get("groups")) {
            for (Map<String, Object> rule : (List<Map<String, Object>>) group.get("rules")) {
                if (rule.containsKey(kind)) {
                    rules.add(rule);
                }
            }
        }
        return rules;
    }

    /** The expressions of the dashboard's panels, one a line (a row has none). */
    @SuppressWarnings("unchecked")
    public static String dashboardExprs() {
        Map<String, Object> dashboard = new Yaml().load(read(CONFIG.resolve("grafana-dashboard.json")));
        StringBuilder exprs = new StringBuilder();
        for (Map<String, Object> panel : (List<Map<String, Object>>) dashboard.get("panels")) {
            for (Map<String, Object> target : (List<Map<String, Object>>) panel.getOrDefault("targets", List.of())) {
                exprs.append(target.get("expr")).append('\n');
            }
        }
        return exprs.toString();
    }

    /** Every expression of the rules (alerting and recording) and the dashboard's panels. */
    public static List<String> allExprs() {
        List<String> exprs = new ArrayList<>(List.of(dashboardExprs().split("\n")));
        alertRules().forEach(rule -> exprs.add(String.valueOf(rule.get("expr"))));
        recordingRules().forEach(rule -> exprs.add(String.valueOf(rule.get("expr"))));
        return exprs;
    }

    /** Every metric name the rules and the dashboard query. */
    public static Set<String> metricNamesUsed() {
        return metricNames(String.join("\n", allExprs()));
    }

    /**
     * For every metric the alert rules and the dashboard query, the labels they use with it: the label matchers of its
     * selectors, and the labels of an {@code on (...)} join in the same expression (both sides must carry them).
     */
    public static Map<String, Set<String>> labelsUsed() {
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

    public static Set<String> metricNames(String promql) {
        Set<String> names = new TreeSet<>();
        Matcher m = METRIC.matcher(promql);
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    /** Whether the chain source exports the series (the blob sink exports every other one the queries use). */
    public static boolean chainSourceSeries(String name) {
        return name.startsWith(CHAIN_SOURCE_SERIES);
    }

    /** Whether a group sync exports the series ({@link #GROUP_SYNC_SERIES}). */
    public static boolean groupSyncSeries(String name) {
        return GROUP_SYNC_SERIES.stream().anyMatch(name::startsWith);
    }

    /** Whether a worker exports the series only while a partition is failed ({@link #FAILURE_SERIES}). */
    public static boolean failureSeries(String name) {
        return FAILURE_SERIES.contains(name);
    }

    /** Whether only a blob sink with several destinations exports the series ({@link #TEE_SERIES}). */
    public static boolean teeSeries(String name) {
        return TEE_SERIES.contains(name);
    }

    /** Whether the verify run exports the series ({@link #VERIFY_SERIES}). */
    public static boolean verifySeries(String name) {
        return VERIFY_SERIES.contains(name);
    }

    /** Whether the cache sidecar exports the series ({@link #SIDECAR_SERIES}). */
    public static boolean sidecarSeries(String name) {
        return SIDECAR_SERIES.contains(name);
    }

    /**
     * Whether a Connect worker exports none of the series: the verify run, the cache sidecar or the operator's
     * declarations do.
     */
    public static boolean notFromAWorker(String name) {
        return verifySeries(name) || sidecarSeries(name) || DECLARED_SERIES.contains(name);
    }

    /** A registry with jmx_exporter's collector loaded with {@code config/jmx-exporter.yaml}, reading this JVM's MBeans. */
    public static PrometheusRegistry exporter() {
        PrometheusRegistry registry = new PrometheusRegistry();
        try {
            new JmxCollector(CONFIG.resolve("jmx-exporter.yaml").toFile()).register(registry);
        } catch (Exception e) {
            throw new IllegalStateException("cannot load config/jmx-exporter.yaml into jmx_exporter's collector", e);
        }
        return registry;
    }

    /** One scrape, in the Prometheus text format the agent serves at /metrics. */
    public static String scrape(PrometheusRegistry registry) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            PrometheusTextFormatWriter.builder().setIncludeCreatedTimestamps(false).build().write(out, registry.scrape());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /** The mirror_v3_* samples of a scrape: "name{labels}" to value. */
    public static Map<String, Double> mirrorSeries(String text) {
        Map<String, Double> series = new TreeMap<>();
        for (String line : text.split("\n")) {
            if (line.startsWith("mirror_v3_")) {
                int space = line.lastIndexOf(' ');
                series.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
            }
        }
        return series;
    }

    /**
     * Takes a scrape's store request series ({@value #STORE_REQUESTS}) out of {@code series} and checks them: one per
     * operation and outcome, all of {@code mirror} and {@code topic}, none failed; returns them as {@code "LIST ok"} → count.
     */
    public static Map<String, Double> takeStoreRequests(Map<String, Double> series, String mirror, String topic) {
        Map<String, Double> requests = new TreeMap<>();
        Pattern labels = Pattern.compile(Pattern.quote(STORE_REQUESTS) + "\\{mirror=\"" + Pattern.quote(mirror)
                + "\",operation=\"([A-Z]+)\",outcome=\"([a-z]+)\",topic=\"" + Pattern.quote(topic) + "\"}");
        series.entrySet().removeIf(e -> {
            if (!e.getKey().startsWith(STORE_REQUESTS)) {
                return false;
            }
            Matcher m = labels.matcher(e.getKey());
            assertThat(m.matches()).as("a store request series of mirror %s, topic %s: %s", mirror, topic, e.getKey()).isTrue();
            requests.put(m.group(1) + " " + m.group(2), e.getValue());
            return true;
        });
        assertThat(requests).as("one series per operation and outcome").hasSize(15);
        assertThat(requests).as("no request failed").containsEntry("LIST failed", 0.0).containsEntry("PUT failed", 0.0)
                .containsEntry("GET failed", 0.0);
        return requests;
    }

    /**
     * Asserts that a scrape holds every series the alert rules and the dashboard use among {@code exportedHere}, with
     * every label a query or an alert uses with it; returns the names checked.
     */
    public static Set<String> assertScrapeServesTheQueries(String scrape, Predicate<String> exportedHere) {
        Set<String> checked = new TreeSet<>();
        for (String name : metricNamesUsed()) {
            if (exportedHere.test(name)) {
                assertThat(scrape).as("series used by config/prometheus-rules.yaml or the dashboard")
                        .containsAnyOf("\n" + name + "{", "\n" + name + " ");
                checked.add(name);
            }
        }
        labelsUsed().forEach((name, labels) -> {
            if (!exportedHere.test(name)) {
                return;
            }
            List<String> series = scrape.lines().filter(l -> l.startsWith(name + "{")).toList();
            for (String label : labels) {
                assertThat(series).as("series %s with the label %s that a query or alert uses", name, label)
                        .anyMatch(l -> l.contains(label + "=\""));
            }
        });
        return checked;
    }

    private static String read(Path p) {
        try {
            return Files.readString(p, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
