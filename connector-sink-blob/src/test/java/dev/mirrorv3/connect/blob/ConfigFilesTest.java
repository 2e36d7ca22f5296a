package dev.mirrorv3.connect.blob;

import static dev.mirrorv3.testsupport.ObservabilityFiles.CHAIN_SOURCE_ATTRIBUTES;
import static dev.mirrorv3.testsupport.ObservabilityFiles.alertRules;
import static dev.mirrorv3.testsupport.ObservabilityFiles.chainSourceSeries;
import static dev.mirrorv3.testsupport.ObservabilityFiles.dashboardExprs;
import static dev.mirrorv3.testsupport.ObservabilityFiles.exportedNames;
import static dev.mirrorv3.testsupport.ObservabilityFiles.exporterRules;
import static dev.mirrorv3.testsupport.ObservabilityFiles.labelsUsed;
import static dev.mirrorv3.testsupport.ObservabilityFiles.metricNames;
import static dev.mirrorv3.testsupport.ObservabilityFiles.recordingRules;
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
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * The operational files in {@code config/} and the Strimzi example fit together (always runs, no cluster): every
 * metric the alerts and the dashboard use is one the exporter rules produce, counters are typed COUNTER (jmx_exporter
 * strips {@code _total} otherwise), and the Strimzi ConfigMap carries exactly the shipped rules. The
 * names are checked against a real scrape of the connector that exports them: the chain source's
 * ({@code mirror_v3_follow_*}) in ChainSourceObservabilityIT, every other one in {@link BlobSinkObservabilityIT}.
 */
class ConfigFilesTest {

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
                "mirror_v3_destination_last_flush_timestamp_seconds", "mirror_v3_mirror_restarts_total", "mirror_v3_source_lag_offsets",
                "mirror_v3_follow_records_total", "mirror_v3_follow_bytes_total", "mirror_v3_follow_objects_total",
                "mirror_v3_follow_lag_offsets", "mirror_v3_follow_lag_seconds", "mirror_v3_follow_last_poll_timestamp_seconds",
                "mirror_v3_destination_flush_max_time_seconds", "mirror_v3_chain_check_interval_seconds",
                "mirror_v3_metadata_interval_seconds", "mirror_v3_metadata_groups_interval_seconds",
                "mirror_v3_groups_sync_interval_seconds", "mirror_v3_follow_poll_interval_seconds"));
    }

    /** A setting in milliseconds is exported in seconds, as Prometheus names it: the MBean's value times 0.001. */
    @Test
    void cadenceSettingsInMillisecondsAreExportedInSeconds() {
        for (Map<String, Object> rule : exporterRules()) {
            String pattern = (String) rule.get("pattern");
            if (pattern.endsWith("-interval-ms") || pattern.endsWith("-max-time-ms")) {
                assertThat((String) rule.get("name")).as("name of " + pattern).endsWith("_seconds");
                assertThat(rule.get("valueFactor")).as("valueFactor of " + pattern).isEqualTo(0.001);
            }
        }
    }

    /**
     * The thresholds come from each connector's settings, not from fixed numbers: a compacted backup flushing once an
     * hour must not page between its flushes (promtool test rules config/prometheus-rules.test.yaml has the cases).
     */
    @Test
    void flushAndGroupSyncAlertsCompareAgainstTheConnectorsOwnCadence() {
        Map<String, String> exprs = new LinkedHashMap<>();
        alertRules().forEach(r -> exprs.put((String) r.get("alert"), (String) r.get("expr")));
        assertThat(exprs.get("MirrorV3FlushOverdue")).contains("mirror_v3_destination_flush_max_time_seconds");
        assertThat(exprs.get("MirrorV3BackupStalled")).contains("mirror_v3_destination_flush_max_time_seconds");
        assertThat(exprs.get("MirrorV3GroupSyncBehind")).contains("mirror_v3_groups_sync_interval_seconds");
        assertThat(exprs.get("MirrorV3StandbyStopped")).contains("mirror_v3_follow_poll_interval_seconds");
        assertThat(exprs.get("MirrorV3BackupNeverVerified")).contains("mirror_v3_verify_expected");
    }

    @Test
    void recordingRulesUseOnlyExportedMetricsAndAreNamedAsRecorded() {
        assertThat(recordingRules()).isNotEmpty();
        for (Map<String, Object> rule : recordingRules()) {
            assertThat((String) rule.get("record")).startsWith("mirror_v3:");
            assertThat(metricNames((String) rule.get("expr"))).as("metrics of " + rule.get("record")).isNotEmpty()
                    .isSubsetOf(exportedNames());
        }
    }

    /** The observability ITs split the names by prefix: it must match the MBean attributes each connector registers. */
    @Test
    void theChainSourcesSeriesAreExactlyTheOnesMadeFromItsAttributes() {
        for (Map<String, Object> rule : exporterRules()) {
            String name = (String) rule.get("name");
            String pattern = (String) rule.get("pattern");
            String attribute = pattern.substring(pattern.lastIndexOf("><>") + 3);
            assertThat(attribute.startsWith(CHAIN_SOURCE_ATTRIBUTES)).as("attribute %s of %s", attribute, name)
                    .isEqualTo(chainSourceSeries(name));
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void alertsUseOnlyExportedMetricsAndSayWhatToDo() {
        List<String> alerts = new ArrayList<>();
        for (Map<String, Object> rule : alertRules()) {
            alerts.add((String) rule.get("alert"));
            Map<String, Object> annotations = (Map<String, Object>) rule.get("annotations");
            assertThat(annotations).as("annotations of " + rule.get("alert")).containsKeys("summary", "description");
            assertThat(metricNames((String) rule.get("expr"))).as("metrics of " + rule.get("alert")).isNotEmpty()
                    .isSubsetOf(exportedNames());
        }
        assertThat(alerts).containsExactlyInAnyOrder("MirrorV3TaskFailed", "MirrorV3PartitionFailed", "MirrorV3DestinationFailing",
                "MirrorV3FlushOverdue", "MirrorV3DestinationBehind",
                "MirrorV3BackupStalled", "MirrorV3StandbyLagging", "MirrorV3StandbyStopped", "MirrorV3BackupNotVerified",
                "MirrorV3BackupNeverVerified", "MirrorV3GroupSyncBehind", "MirrorV3CacheNotReady", "MirrorV3CacheStuck",
                "MirrorV3CacheOverBudget", "MirrorV3NotifyFailing");
    }

    @Test
    void theDashboardUsesOnlyExportedMetricsAndShowsLagOffsetFlushesRestartsTheStandbyAndTheCacheSidecar() {
        Set<String> used = metricNames(dashboardExprs());
        assertThat(used).isSubsetOf(exportedNames());
        assertThat(used).contains("mirror_v3_source_lag_offsets", "mirror_v3_destination_offset_verified",
                "mirror_v3_destination_flushes_total", "mirror_v3_destination_last_flush_timestamp_seconds",
                "mirror_v3_mirror_restarts_total", "kafka_connect_connector_task_status", "mirror_v3_follow_lag_offsets",
                "mirror_v3_follow_lag_seconds", "mirror_v3_follow_records_total", "mirror_v3_groups_sync_timestamp_seconds",
                "mirror_v3_destination_flush_max_time_seconds", "mirror_v3_cache_ready", "mirror_v3_cache_lag_offsets",
                "mirror_v3_cache_memory_bytes", "mirror_v3_cache_memory_budget_bytes", "mirror_v3_notify_failed_total");
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
        Map<String, Object> metricsConfig = new Yaml().load((String) ((Map<String, Object>) configMap.get("data"))
                .get("metrics-config.yml"));
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
        assertThat(used.get("mirror_v3_follow_records_total")).as("the standby alert's join").contains("mirror", "topic", "partition");
        assertThat(used.get("mirror_v3_groups_sync_timestamp_seconds")).as("the dashboard's selector").contains("mirror");
    }

    private static String read(Path p) {
        try {
            return Files.readString(p, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
