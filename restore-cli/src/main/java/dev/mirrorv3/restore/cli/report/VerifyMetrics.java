package dev.mirrorv3.restore.cli.report;

import dev.mirrorv3.chain.restore.VerifiedPartition;
import dev.mirrorv3.chain.store.StoreRequests;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A verify run's result as Prometheus gauges per connector, topic and partition, in the text exposition format
 * (version 0.0.4): written for node-exporter's textfile collector ({@code --metrics-file}) or pushed to a Pushgateway
 * ({@code --pushgateway}, PUT, so the job's previous series are replaced).
 */
final class VerifyMetrics {
    static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private VerifyMetrics() {
    }

    /**
     * One topic's verify result.
     *
     * @param evidence what its run learned, or null when it failed before it knew a partition: then its series have no
     *     partition label, and success is 0
     */
    record Topic(String connector, String topic, RestoreEvidence evidence) {
    }

    /** The exposition text of one topic's run ({@link #render(List, long)}). */
    static String render(RestoreEvidence evidence, long nowMs) {
        return render(List.of(new Topic(evidence.backup().connector().name(), evidence.backup().sourceTopic(), evidence)), nowMs);
    }

    /**
     * The exposition text: success 1/0 and the run's time for every partition of every topic, the verified offset for those
     * that passed; each family once, with every topic's samples.
     */
    static String render(List<Topic> topics, long nowMs) {
        StringBuilder s = new StringBuilder();
        header(s, "mirror_v3_backup_verified_offset", "The last backup offset the verify run read and checked (the cut, or the"
                + " chain's end)");
        for (Topic t : topics) {
            Map<Integer, Boolean> success = success(t);
            for (VerifiedPartition vp : t.evidence() == null ? List.<VerifiedPartition>of() : t.evidence().verified().values()) {
                if (success.get(vp.partition())) {
                    sample(s, "mirror_v3_backup_verified_offset", t, vp.partition(), Long.toString(vp.lastOffset()));
                }
            }
        }
        header(s, "mirror_v3_backup_last_verify_timestamp_seconds", "Unix time of the verify run");
        String time = String.format(Locale.ROOT, "%.3f", nowMs / 1000.0);
        topics.forEach(t -> success(t).keySet().forEach(p -> sample(s, "mirror_v3_backup_last_verify_timestamp_seconds", t, p, time)));
        header(s, "mirror_v3_backup_verify_success", "1 if the verify run found the partition's backup restorable, else 0");
        topics.forEach(t -> success(t).forEach((p, ok) -> sample(s, "mirror_v3_backup_verify_success", t, p, ok ? "1" : "0")));
        storeRequests(s, topics);
        return s.toString();
    }

    /**
     * Each topic's run's requests to the backup store, as the connectors export them (mirror_v3_store_requests_total); a
     * topic whose run failed before it opened its backup has none.
     */
    private static void storeRequests(StringBuilder s, List<Topic> topics) {
        String name = "mirror_v3_store_requests_total";
        s.append("# HELP ").append(name).append(" Requests this run made to the backup store, by operation and outcome\n");
        s.append("# TYPE ").append(name).append(" counter\n");
        for (Topic t : topics) {
            if (t.evidence() == null) {
                continue;
            }
            StoreRequests requests = t.evidence().backup().requests();
            for (StoreRequests.Operation op : StoreRequests.Operation.values()) {
                for (StoreRequests.Outcome outcome : StoreRequests.Outcome.values()) {
                    s.append(name).append("{mirror=\"").append(label(t.connector())).append("\",topic=\"").append(label(t.topic()))
                            .append("\",operation=\"").append(op.label()).append("\",outcome=\"").append(outcome.label())
                            .append("\"} ").append(requests.count(op, outcome)).append('\n');
                }
            }
        }
    }

    /** Per partition whether it verified; a run without evidence is one failed entry without a partition (the null key). */
    private static Map<Integer, Boolean> success(Topic t) {
        Map<Integer, Boolean> success = new TreeMap<>(Comparator.nullsFirst(Comparator.naturalOrder()));
        if (t.evidence() == null) {
            success.put(null, false);
            return success;
        }
        t.evidence().verified().keySet().forEach(p -> success.put(p, true));
        t.evidence().failed().keySet().forEach(p -> success.put(p, false));
        return success;
    }

    /**
     * Pushes to {@code <url>/metrics/job/<job>/connector/<connector>/topic/<topic>}: each backup keeps its own group.
     *
     * @throws IOException naming the Pushgateway and its answer when it refuses
     */
    static void push(String url, String job, String connector, String topic, String text, Duration timeout)
            throws IOException, InterruptedException {
        String base = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
        URI uri = URI.create(base + "/metrics/job@base64/" + path(job) + "/connector@base64/" + path(connector) + "/topic@base64/"
                + path(topic));
        HttpClient client = HttpClient.newBuilder().connectTimeout(timeout).build();
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(timeout).header("Content-Type", CONTENT_TYPE)
                .PUT(HttpRequest.BodyPublishers.ofString(text, StandardCharsets.UTF_8)).build();
        HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() / 100 != 2) {
            throw new IOException("the Pushgateway at " + base + " answered " + response.statusCode() + " to PUT " + uri.getPath() + ": "
                    + response.body().strip() + " (check --pushgateway)");
        }
    }

    /** The Pushgateway's base64 form of a grouping key value, which allows any character (a '/' in a connector's name). */
    private static String path(String s) {
        return java.util.Base64.getUrlEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }

    private static void header(StringBuilder s, String name, String help) {
        s.append("# HELP ").append(name).append(' ').append(help).append('\n');
        s.append("# TYPE ").append(name).append(" gauge\n");
    }

    private static void sample(StringBuilder s, String name, Topic t, Integer partition, String value) {
        s.append(name).append("{connector=\"").append(label(t.connector())).append("\",topic=\"").append(label(t.topic()))
                .append(partition == null ? "" : "\",partition=\"" + partition).append("\"} ").append(value).append('\n');
    }

    private static String label(String v) {
        return v.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
