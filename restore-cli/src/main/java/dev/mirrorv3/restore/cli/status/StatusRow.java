package dev.mirrorv3.restore.cli.status;

import dev.mirrorv3.restore.cli.ConnectorKind;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One row of {@code status}: a connector's partition, by the JSON names of its kind's columns (a missing value is
 * unknown), or the connector alone when it could not be read that far; {@code error} says why a value is missing.
 */
record StatusRow(ConnectorKind kind, String connector, Map<String, Object> values, String error) {

    /**
     * A column: its table header, its JSON name, whether it is a number (right-aligned), and whether it is shown only
     * where some row has a value (a column of one kind of backup, e.g. the snapshots' keys).
     */
    record Column(String header, String json, boolean numeric, boolean optional) {
        static Column text(String header, String json) {
            return new Column(header, json, false, false);
        }

        static Column number(String header, String json) {
            return new Column(header, json, true, false);
        }

        /** This column, left out of a table whose rows have no value in it and out of a JSON row without one. */
        Column whenPresent() {
            return new Column(header, json, numeric, true);
        }
    }

    StatusRow {
        values = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    static StatusRow failed(ConnectorKind kind, String connector, String error) {
        return new StatusRow(kind, connector, Map.of(), error);
    }

    /** The row of a sink that names its topics by topics.regex, which status cannot list. */
    static StatusRow noTopics(ConnectorKind kind, String connector) {
        return failed(kind, connector, "no topics setting (topics.regex is not supported by status)");
    }

    /** The row of a connector whose config its own config class rejects. */
    static StatusRow invalidConfig(ConnectorKind kind, String connector, RuntimeException e) {
        return failed(kind, connector, "connector config: " + e.getMessage() + " (mirror-v3 validate lists every problem)");
    }

    /** Values by JSON name, in column order; null values kept (unknown). */
    static Map<String, Object> values(List<Column> columns, Object... cells) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < cells.length; i++) {
            m.put(columns.get(i).json(), cells[i]);
        }
        return m;
    }

    /** The difference of two offsets, null if either is unknown. */
    static Long lag(Long ahead, Long behind) {
        return ahead == null || behind == null ? null : ahead - behind;
    }

    /** Errors joined with "; ", null when there is none. */
    static String errors(String... errors) {
        StringBuilder sb = new StringBuilder();
        for (String e : errors) {
            if (e != null && !sb.toString().contains(e)) {
                sb.append(sb.length() == 0 ? "" : "; ").append(e);
            }
        }
        return sb.length() == 0 ? null : sb.toString();
    }
}
