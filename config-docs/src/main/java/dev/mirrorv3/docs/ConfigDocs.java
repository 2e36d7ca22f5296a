package dev.mirrorv3.docs;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;

/**
 * Renders a ConfigDef as a Markdown reference, grouped and ordered as the ConfigDef declares: docs/configuration.md, the
 * connectors' settings, and docs/transforms.md, the SMTs' (kafka-clients only, so any plugin module can use it).
 */
public final class ConfigDocs {
    private ConfigDocs() {
    }

    public static String markdown(ConfigDef def) {
        Map<String, List<ConfigDef.ConfigKey>> byGroup = new LinkedHashMap<>();
        for (String g : def.groups()) {
            byGroup.put(g, new ArrayList<>());
        }
        for (ConfigDef.ConfigKey key : def.configKeys().values()) {
            byGroup.computeIfAbsent(key.group == null ? "Other" : key.group, g -> new ArrayList<>()).add(key);
        }
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, List<ConfigDef.ConfigKey>> e : byGroup.entrySet()) {
            sb.append("#### ").append(e.getKey()).append("\n\n");
            sb.append("| setting | type | default | valid values | description |\n|---|---|---|---|---|\n");
            e.getValue().sort((a, b) -> Integer.compare(a.orderInGroup, b.orderInGroup));
            for (ConfigDef.ConfigKey k : e.getValue()) {
                String dflt = !k.hasDefault() ? "(required)" : String.valueOf(k.defaultValue);
                if (dflt.isEmpty() || "[]".equals(dflt)) {
                    dflt = "\"\"";
                }
                // A null default is "not set" (a deprecated alias, which yields to its current name's default).
                dflt = k.hasDefault() && k.defaultValue == null ? "(not set)" : "`" + dflt + "`";
                sb.append("| `").append(k.name).append("` | ").append(k.type.name().toLowerCase()).append(" | ")
                        .append(dflt).append(" | ").append(k.validator == null ? "" : cell(k.validator.toString()))
                        .append(" | ").append(cell(k.documentation)).append(" |\n");
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    private static String cell(String s) {
        return s == null ? "" : s.replace("|", "\\|").replace("\n", " ");
    }
}
