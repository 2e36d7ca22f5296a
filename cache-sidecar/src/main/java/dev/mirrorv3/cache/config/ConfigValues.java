package dev.mirrorv3.cache.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The value readers both config sources share (the YAML file and kafka-keyvalue's environment): each reads one setting,
 * resolves {@code ${NAME}} and {@code ${NAME:-default}} references, and collects a problem as one message naming the
 * setting instead of failing at the first, so that {@link ConfigLoader} reports them all at once.
 */
final class ConfigValues {
    private static final Pattern BYTES = Pattern.compile("([0-9]+)\\s*(|Ki|Mi|Gi|Ti)");
    private static final Pattern ENV_REF = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?}");

    private final Function<String, String> env;
    private final List<String> errors = new ArrayList<>();

    ConfigValues(Function<String, String> env) {
        this.env = env;
    }

    void error(String message) {
        errors.add(message);
    }

    List<String> errors() {
        return errors;
    }

    void knownKeys(JsonNode node, String prefix, Set<String> known) {
        if (node == null || !node.isObject()) {
            return;
        }
        node.fieldNames().forEachRemaining(k -> {
            if (!known.contains(k)) {
                errors.add(prefix + k + ": unknown setting (known: " + String.join(", ", new TreeSet<>(known)) + ")");
            }
        });
    }

    JsonNode object(JsonNode parent, String name) {
        JsonNode n = parent.get(name);
        if (n == null || n.isNull()) {
            return null;
        }
        if (!n.isObject()) {
            errors.add(name + ": expected a mapping");
            return null;
        }
        return n;
    }

    String required(JsonNode node, String setting, String field) {
        String v = string(node, setting, field, null);
        if (v == null || v.isBlank()) {
            errors.add(setting + ": required");
        }
        return v;
    }

    String string(JsonNode node, String setting, String field, String def) {
        JsonNode n = node == null ? null : node.get(field);
        if (n == null || n.isNull()) {
            return def;
        }
        if (n.isContainerNode()) {
            errors.add(setting + ": expected a single value");
            return def;
        }
        return substitute(setting, n.asText());
    }

    boolean bool(JsonNode node, String setting, String field, boolean def) {
        JsonNode n = node == null ? null : node.get(field);
        if (n == null || n.isNull()) {
            return def;
        }
        String s = n.isBoolean() ? String.valueOf(n.booleanValue()) : substitute(setting, n.asText());
        if ("true".equals(s)) {
            return true;
        }
        if ("false".equals(s)) {
            return false;
        }
        errors.add(setting + ": '" + s + "' is not true or false");
        return def;
    }

    int integer(JsonNode node, String setting, String field, int def, int min, int max) {
        JsonNode n = node == null ? null : node.get(field);
        if (n == null || n.isNull()) {
            return def;
        }
        String s = n.isIntegralNumber() ? n.asText() : substitute(setting, n.asText());
        try {
            long v = Long.parseLong(s.trim());
            if (v < min || v > max) {
                errors.add(setting + ": " + v + " is out of range " + min + ".." + max);
                return def;
            }
            return (int) v;
        } catch (NumberFormatException e) {
            errors.add(setting + ": '" + s + "' is not an integer");
            return def;
        }
    }

    /** A byte count, plain or with a binary suffix as Kubernetes writes it ({@code 512Mi}); at least 1 MiB. */
    long bytes(String setting, String text) {
        Matcher m = BYTES.matcher(text.trim());
        if (!m.matches()) {
            errors.add(setting + ": '" + text + "' is not a byte count (e.g. 268435456 or 256Mi)");
            return 0;
        }
        int shift = switch (m.group(2)) {
            case "Ki" -> 10;
            case "Mi" -> 20;
            case "Gi" -> 30;
            case "Ti" -> 40;
            default -> 0;
        };
        try {
            long n = Long.parseLong(m.group(1));
            if (n > Long.MAX_VALUE >> shift) {
                throw new NumberFormatException();
            }
            long v = n << shift;
            if (v < 2 << 20) { // below it the first record's page (PageTable.PAGE_SIZE) would not fit
                errors.add(setting + ": " + v + " bytes is below the minimum of 2Mi (a cache holding a record holds "
                        + "a 1 MiB store page and its index)");
                return 0;
            }
            return v;
        } catch (NumberFormatException e) {
            errors.add(setting + ": '" + text + "' is too large");
            return 0;
        }
    }

    List<URI> urls(JsonNode node, String setting, String field) {
        JsonNode n = node.get(field);
        List<URI> out = new ArrayList<>();
        if (n == null || n.isNull()) {
            return out;
        }
        if (!n.isArray()) {
            errors.add(setting + ": expected a list of http:// URLs");
            return out;
        }
        for (JsonNode u : n) {
            URI uri = uri(setting, substitute(setting, u.asText()));
            if (uri != null) {
                out.add(uri);
            }
        }
        return out;
    }

    URI uri(String setting, String text) {
        try {
            URI uri = new URI(text);
            if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())) {
                errors.add(setting + ": '" + text + "' is not an http:// or https:// URL");
                return null;
            }
            if (uri.getHost() == null) {
                errors.add(setting + ": '" + text + "' has no host name");
                return null;
            }
            return uri;
        } catch (URISyntaxException e) {
            errors.add(setting + ": '" + text + "' is not a URL: " + e.getReason());
            return null;
        }
    }

    String substitute(String setting, String value) {
        if (value == null || value.indexOf("${") < 0) {
            return value;
        }
        Matcher m = ENV_REF.matcher(value);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            String v = env.apply(m.group(1));
            if (v == null) {
                v = m.group(2);
            }
            if (v == null) {
                errors.add(setting + ": environment variable " + m.group(1) + " is not set");
                v = "";
            }
            m.appendReplacement(sb, Matcher.quoteReplacement(v));
        }
        m.appendTail(sb);
        return sb.toString();
    }

    static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}
