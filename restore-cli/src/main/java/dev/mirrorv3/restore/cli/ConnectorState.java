package dev.mirrorv3.restore.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A connector's and its tasks' states as the Connect REST API reports them ({@code GET /connectors/<name>/status}):
 * UNASSIGNED, RUNNING, PAUSED, STOPPED, FAILED or RESTARTING, with the first line of a failure's trace.
 */
public record ConnectorState(String state, String trace, List<Task> tasks) {
    public static final String FAILED = "FAILED";

    public record Task(int id, String state, String trace) {
    }

    static ConnectorState fromJson(JsonNode status) {
        JsonNode connector = status.path("connector");
        List<Task> tasks = new ArrayList<>();
        for (JsonNode t : status.path("tasks")) {
            tasks.add(new Task(t.path("id").asInt(), t.path("state").asText("UNKNOWN"), firstLine(t.path("trace").asText(null))));
        }
        return new ConnectorState(connector.path("state").asText("UNKNOWN"), firstLine(connector.path("trace").asText(null)),
                List.copyOf(tasks));
    }

    /** The connector or one of its tasks FAILED: status exits 1. */
    public boolean failed() {
        return FAILED.equals(state) || tasks.stream().anyMatch(t -> FAILED.equals(t.state()));
    }

    /** {@code 0:RUNNING 1:FAILED}, or {@code -} without tasks. */
    public String taskSummary() {
        return tasks.isEmpty() ? "-" : tasks.stream().map(t -> t.id() + ":" + t.state()).collect(Collectors.joining(" "));
    }

    /** What failed and why, on one line; null if nothing did. */
    public String failure() {
        List<String> parts = new ArrayList<>();
        if (FAILED.equals(state)) {
            parts.add("connector FAILED" + (trace == null ? "" : ": " + trace));
        }
        for (Task t : tasks) {
            if (FAILED.equals(t.state())) {
                parts.add("task " + t.id() + " FAILED" + (t.trace() == null ? "" : ": " + t.trace()));
            }
        }
        return parts.isEmpty() ? null : String.join("; ", parts);
    }

    private static String firstLine(String trace) {
        if (trace == null || trace.isBlank()) {
            return null;
        }
        int end = trace.indexOf('\n');
        return (end < 0 ? trace : trace.substring(0, end)).trim();
    }
}
