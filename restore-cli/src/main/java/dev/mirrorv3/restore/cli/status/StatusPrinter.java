package dev.mirrorv3.restore.cli.status;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mirrorv3.restore.cli.ConnectorKind;
import dev.mirrorv3.restore.cli.ConnectorState;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Prints status: as tables (the connectors' states when a Connect URL was given, then one table per connector class,
 * with its own columns), or as one JSON array of rows, each with {@code connector}, {@code type}, its class's columns,
 * {@code error} and, with a Connect URL, {@code connector_state} and {@code tasks}.
 */
final class StatusPrinter {
    /** A connector's class and state, for the state table. */
    record Deployed(String connector, ConnectorKind kind, ConnectorState state) {
    }

    private StatusPrinter() {
    }

    static void table(PrintWriter out, List<Deployed> deployed, List<StatusRow> rows) {
        boolean first = true;
        if (!deployed.isEmpty()) {
            List<String[]> cells = new ArrayList<>();
            cells.add(new String[] {"CONNECTOR", "TYPE", "STATE", "TASKS", "ERROR"});
            for (Deployed d : deployed) {
                String failure = d.state().failure();
                cells.add(new String[] {d.connector(), d.kind().label(), d.state().state(), d.state().taskSummary(),
                        failure == null ? "" : failure});
            }
            print(out, cells, new boolean[5]);
            first = false;
        }
        for (ConnectorKind kind : ConnectorKind.values()) {
            List<StatusRow> ofKind = rows.stream().filter(r -> r.kind() == kind).toList();
            if (ofKind.isEmpty()) {
                continue;
            }
            if (!first) {
                out.println();
            }
            first = false;
            List<StatusRow.Column> columns = StatusReader.of(kind).columns().stream()
                    .filter(c -> !c.optional() || ofKind.stream().anyMatch(r -> r.values().get(c.json()) != null)).toList();
            List<String[]> cells = new ArrayList<>();
            boolean[] numeric = new boolean[columns.size() + 2];
            String[] header = new String[columns.size() + 2];
            header[0] = "CONNECTOR";
            for (int i = 0; i < columns.size(); i++) {
                header[i + 1] = columns.get(i).header();
                numeric[i + 1] = columns.get(i).numeric();
            }
            header[header.length - 1] = "ERROR";
            cells.add(header);
            for (StatusRow r : ofKind) {
                String[] row = new String[header.length];
                row[0] = r.connector();
                for (int i = 0; i < columns.size(); i++) {
                    Object v = r.values().get(columns.get(i).json());
                    row[i + 1] = v == null ? "-" : v.toString();
                }
                row[row.length - 1] = r.error() == null ? "" : r.error();
                cells.add(row);
            }
            print(out, cells, numeric);
        }
        out.flush();
    }

    /** Aligned columns two spaces apart, numbers right-aligned; the last column (the error) is not padded. */
    private static void print(PrintWriter out, List<String[]> cells, boolean[] numeric) {
        int columns = cells.get(0).length;
        int[] width = new int[columns];
        for (String[] row : cells) {
            for (int i = 0; i < columns - 1; i++) {
                width[i] = Math.max(width[i], row[i].length());
            }
        }
        for (String[] row : cells) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < columns; i++) {
                if (i == columns - 1) {
                    sb.append(row[i]);
                    continue;
                }
                String pad = " ".repeat(width[i] - row[i].length());
                sb.append(numeric[i] ? pad + row[i] : row[i] + pad).append("  ");
            }
            out.println(sb.toString().stripTrailing());
        }
    }

    static void json(PrintWriter out, List<Deployed> deployed, List<StatusRow> rows) {
        ObjectMapper json = new ObjectMapper();
        Map<String, ConnectorState> states = new java.util.HashMap<>();
        deployed.forEach(d -> states.put(d.connector(), d.state()));
        ArrayNode array = json.createArrayNode();
        for (StatusRow r : rows) {
            ObjectNode o = array.addObject();
            o.put("connector", r.connector());
            o.put("type", r.kind().label());
            for (StatusRow.Column c : StatusReader.of(r.kind()).columns()) {
                if (c.optional() && r.values().get(c.json()) == null) {
                    continue;
                }
                put(o, c.json(), r.values().get(c.json()));
            }
            o.put("error", r.error());
            ConnectorState s = states.get(r.connector());
            if (s != null) {
                o.put("connector_state", s.state());
                if (s.trace() != null) {
                    o.put("connector_trace", s.trace());
                }
                ArrayNode tasks = o.putArray("tasks");
                for (ConnectorState.Task t : s.tasks()) {
                    ObjectNode task = tasks.addObject().put("id", t.id()).put("state", t.state());
                    if (t.trace() != null) {
                        task.put("trace", t.trace());
                    }
                }
            }
        }
        out.println(array.toPrettyString());
        out.flush();
    }

    private static void put(ObjectNode o, String name, Object value) {
        if (value instanceof Number n) {
            o.put(name, n.longValue());
        } else if (value == null) {
            o.putNull(name);
        } else {
            o.put(name, value.toString());
        }
    }
}
