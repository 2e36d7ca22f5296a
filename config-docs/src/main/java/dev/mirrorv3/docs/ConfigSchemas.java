package dev.mirrorv3.docs;

import dev.mirrorv3.kafka.config.ConnectorLevelRules;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/**
 * Renders a connector's ConfigDefs as a JSON Schema (draft 2020-12) of its JSON config, for editors and GitOps
 * validation. Every value is a string, as in Connect's REST API; a number, boolean or choice may also be a config
 * provider reference ({@code ${file:...}}). Keys outside the ConfigDefs are refused unless they start with one of
 * the pass-through prefixes ({@code consumer.override.}, ...), so a typo in a key name is caught. Connect's own
 * connector-level rules that a ConfigDef does not say (a sink's exactly one of topics and topics.regex, legal topic
 * names, class names) and unfilled placeholders come from {@link ConnectorLevelRules}, which {@code mirror-v3 validate}
 * applies too: the schema and the CLI refuse the same configs.
 */
public final class ConfigSchemas {
    private static final String PROVIDER_REFERENCE = "^\\$\\{[^}]+\\}$";
    /** No validator's fixed choice, and a plain string a free-text validator accepts (no control character). */
    private static final String NOT_A_CHOICE = "x-not-a-choice";
    private static final String FILLED = "#/$defs/filled";

    private ConfigSchemas() {
    }

    /**
     * @param connectorClass the value of connector.class (a const in the schema)
     * @param defs the connector's ConfigDef first, then the framework's (Connect's sink or source connector config)
     * @param passThroughPrefixes prefixes of keys passed to clients or plugins as they are
     * @param kind a sink (topics or topics.regex) or a source connector
     */
    public static String jsonSchema(String connectorClass, String description, List<ConfigDef> defs, List<String> passThroughPrefixes,
            ConnectorLevelRules.Kind kind) {
        Map<String, Object> properties = new LinkedHashMap<>();
        List<String> required = new ArrayList<>(List.of("connector.class"));
        for (ConfigDef def : defs) {
            for (ConfigDef.ConfigKey key : def.configKeys().values()) {
                if (properties.containsKey(key.name)) {
                    continue; // the connector's own definition wins
                }
                properties.put(key.name, property(key));
                if (!key.hasDefault() && !required.contains(key.name) && defs.get(0) == def) {
                    required.add(key.name);
                }
            }
        }
        Map<String, Object> connectorClassProperty = new LinkedHashMap<>();
        connectorClassProperty.put("const", connectorClass);
        properties.put("connector.class", connectorClassProperty);
        Map<String, Object> patterns = new LinkedHashMap<>();
        for (String prefix : passThroughPrefixes) {
            patterns.put("^" + prefix.replace(".", "\\."), ordered("type", "string", "$ref", FILLED));
        }
        if (kind == ConnectorLevelRules.Kind.SINK && properties.get("topics") instanceof Map<?, ?> topics) {
            @SuppressWarnings("unchecked")
            Map<String, Object> p = (Map<String, Object>) topics;
            p.put("anyOf", List.of(Map.of("pattern", ConnectorLevelRules.TOPIC_LIST), Map.of("pattern", PROVIDER_REFERENCE)));
        }
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("$schema", "https://json-schema.org/draft/2020-12/schema");
        schema.put("title", connectorClass);
        schema.put("description", description);
        schema.put("type", "object");
        schema.put("required", required);
        schema.put("properties", properties);
        schema.put("patternProperties", patterns);
        schema.put("additionalProperties", false);
        if (kind == ConnectorLevelRules.Kind.SINK) {
            // SinkConnectorConfig.validate: exactly one of the two is set (non-blank)
            schema.put("oneOf", List.of(nonBlank("topics"), nonBlank("topics.regex")));
        }
        schema.put("$defs", Map.of("filled", ordered("description", "Not an unfilled placeholder (@NAME@, or ${...} that is"
                + " no config provider reference)", "not", Map.of("pattern", ConnectorLevelRules.UNFILLED_PLACEHOLDER))));
        StringBuilder sb = new StringBuilder();
        write(sb, schema, "");
        return sb.append('\n').toString();
    }

    private static Map<String, Object> nonBlank(String key) {
        return ordered("required", List.of(key), "properties", Map.of(key, Map.of("pattern", "\\S")));
    }

    /** A map of the key-value pairs in their order (Map.of's order differs from run to run). */
    private static Map<String, Object> ordered(Object... keysAndValues) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            m.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return m;
    }

    private static Map<String, Object> property(ConfigDef.ConfigKey key) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("type", "string");
        p.put("$ref", FILLED);
        String doc = key.documentation == null ? "" : key.documentation;
        if (describes(key.validator) && choices(key).isEmpty()) {
            doc = doc + (doc.isEmpty() ? "" : " ") + "Valid values: " + key.validator + ".";
        }
        p.put("description", doc);
        if (key.hasDefault() && key.defaultValue != null) {
            p.put("default", defaultText(key));
        }
        List<String> choices = choices(key);
        String valuePattern = switch (key.type) {
            case INT, LONG, SHORT -> integerPattern(key);
            case DOUBLE -> "^-?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?$";
            case CLASS -> ConnectorLevelRules.CLASS_NAME;
            default -> null;
        };
        if (key.type == ConfigDef.Type.BOOLEAN) {
            choices = List.of("true", "false");
        }
        if (!choices.isEmpty()) {
            p.put("anyOf", List.of(Map.of("enum", choices), Map.of("pattern", PROVIDER_REFERENCE)));
        } else if (valuePattern != null) {
            p.put("anyOf", List.of(Map.of("pattern", valuePattern), Map.of("pattern", PROVIDER_REFERENCE)));
        }
        if (key.type == ConfigDef.Type.PASSWORD) {
            p.put("writeOnly", true);
        }
        return p;
    }

    /** Digits, without a sign when the validator refuses -1, and not zero when it refuses 0 too (Range.atLeast(0), (1)). */
    private static String integerPattern(ConfigDef.ConfigKey key) {
        if (key.validator == null || acceptsNumber(key, "-1")) {
            return "^-?[0-9]+$";
        }
        return acceptsNumber(key, "0") ? "^[0-9]+$" : acceptsNumber(key, "1") ? "^0*[1-9][0-9]*$" : "^[0-9]+$";
    }

    private static boolean acceptsNumber(ConfigDef.ConfigKey key, String value) {
        try {
            key.validator.ensureValid(key.name, ConfigDef.parseType(key.name, value, key.type));
            return true;
        } catch (ConfigException | ClassCastException e) {
            return false;
        }
    }

    /** Whether the validator says what it accepts (has a toString of its own, not Object's identity hash). */
    private static boolean describes(ConfigDef.Validator validator) {
        try {
            return validator != null && validator.getClass().getMethod("toString").getDeclaringClass() != Object.class;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    /** The values a string key's validator accepts, when it is a fixed choice (probed, not assumed). */
    private static List<String> choices(ConfigDef.ConfigKey key) {
        if (key.type != ConfigDef.Type.STRING || !describes(key.validator)) {
            return List.of();
        }
        List<String> candidates = Arrays.stream(key.validator.toString().split("[\\[\\],\\s]+")).filter(s -> !s.isEmpty()).toList();
        if (candidates.isEmpty() || accepts(key, NOT_A_CHOICE)) {
            return List.of();
        }
        for (String c : candidates) {
            if (!accepts(key, c)) {
                return List.of();
            }
        }
        return candidates;
    }

    private static boolean accepts(ConfigDef.ConfigKey key, String value) {
        try {
            key.validator.ensureValid(key.name, value);
            return true;
        } catch (ConfigException | ClassCastException e) {
            return false;
        }
    }

    private static String defaultText(ConfigDef.ConfigKey key) {
        Object d = key.defaultValue;
        if (d instanceof List<?> list) {
            return String.join(",", list.stream().map(String::valueOf).toList());
        }
        if (d instanceof Class<?> c) {
            return c.getName();
        }
        return String.valueOf(d);
    }

    private static void write(StringBuilder sb, Object value, String indent) {
        if (value instanceof Map<?, ?> map) {
            if (map.isEmpty()) {
                sb.append("{}");
                return;
            }
            sb.append("{\n");
            int i = 0;
            for (Map.Entry<?, ?> e : map.entrySet()) {
                sb.append(indent).append("  ");
                string(sb, e.getKey().toString());
                sb.append(": ");
                write(sb, e.getValue(), indent + "  ");
                sb.append(++i < map.size() ? ",\n" : "\n");
            }
            sb.append(indent).append('}');
        } else if (value instanceof List<?> list) {
            sb.append('[');
            for (int i = 0; i < list.size(); i++) {
                if (list.get(i) instanceof Map<?, ?>) {
                    sb.append(i == 0 ? "\n" : ",\n").append(indent).append("  ");
                    write(sb, list.get(i), indent + "  ");
                    if (i == list.size() - 1) {
                        sb.append('\n').append(indent);
                    }
                } else {
                    sb.append(i == 0 ? "" : ", ");
                    write(sb, list.get(i), indent);
                }
            }
            sb.append(']');
        } else if (value instanceof Boolean || value instanceof Number) {
            sb.append(value);
        } else {
            string(sb, String.valueOf(value));
        }
    }

    private static void string(StringBuilder sb, String s) {
        sb.append('"');
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\t' -> sb.append("\\t");
                case '\r' -> sb.append("\\r");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }
}
