package dev.mirrorv3.restore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.connect.blob.BlobSinkConfig;
import dev.mirrorv3.connect.kafka.KafkaSinkConfig;
import dev.mirrorv3.connect.source.ChainSourceConfig;
import dev.mirrorv3.kafka.config.ConnectorConfigFragment;
import dev.mirrorv3.kafka.config.GroupSyncConfigFragment;
import dev.mirrorv3.kafka.config.HeartbeatConfigFragment;
import dev.mirrorv3.kafka.config.StoreConfigFragment;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.common.config.ConfigDef;
import org.junit.jupiter.api.Test;

/**
 * A setting two connectors share is defined once (docs/decisions.md, 'Configuration as fragments'): the same type,
 * default and check in every connector that has it (the documentation text may differ), and the connectors' configs do
 * not re-export the fragments' key constants under their own names.
 */
class SharedSettingsTest {
    private static final Map<String, ConfigDef> CONNECTORS = Map.of("blob sink", BlobSinkConfig.CONFIG_DEF,
            "Kafka sink", KafkaSinkConfig.CONFIG_DEF, "chain source", ChainSourceConfig.CONFIG_DEF);
    private static final List<Class<?>> FRAGMENTS = List.of(StoreConfigFragment.class, ConnectorConfigFragment.class,
            HeartbeatConfigFragment.class, GroupSyncConfigFragment.class);

    @Test
    void aSettingOfSeveralConnectorsHasOneDefinition() {
        Map<String, Map<String, String>> definitions = new TreeMap<>();
        CONNECTORS.forEach((connector, def) -> def.configKeys().forEach((name, key) ->
                definitions.computeIfAbsent(name, n -> new TreeMap<>()).put(connector, definition(key))));
        List<String> differing = new ArrayList<>();
        definitions.forEach((name, byConnector) -> {
            if (byConnector.size() > 1 && Set.copyOf(byConnector.values()).size() > 1) {
                differing.add(name + " " + byConnector);
            }
        });
        assertThat(differing).as("settings defined differently by two connectors").isEmpty();
    }

    @Test
    void theConfigsDoNotReExportTheFragmentsKeys() throws IllegalAccessException {
        Map<String, Object> fragmentKeys = new TreeMap<>();
        for (Class<?> fragment : FRAGMENTS) {
            fragmentKeys.putAll(publicStrings(fragment));
        }
        List<String> aliases = new ArrayList<>();
        for (Class<?> config : List.of(BlobSinkConfig.class, KafkaSinkConfig.class, ChainSourceConfig.class)) {
            publicStrings(config).forEach((field, value) -> {
                if (value.equals(fragmentKeys.get(field))) {
                    aliases.add(config.getSimpleName() + "." + field);
                }
            });
        }
        assertThat(aliases).as("fragment keys re-exported by a connector's config; callers use the fragment's constant").isEmpty();
    }

    private static String definition(ConfigDef.ConfigKey key) {
        return key.type + " default=" + Objects.toString(key.defaultValue) + " check="
                + (key.validator == null ? "none" : key.validator.getClass().getName() + ":" + key.validator);
    }

    private static Map<String, Object> publicStrings(Class<?> type) throws IllegalAccessException {
        Map<String, Object> values = new TreeMap<>();
        for (Field f : type.getDeclaredFields()) {
            int m = f.getModifiers();
            if (Modifier.isPublic(m) && Modifier.isStatic(m) && f.getType() == String.class) {
                values.put(f.getName(), f.get(null));
            }
        }
        return values;
    }
}
