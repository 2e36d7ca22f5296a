package dev.mirrorv3.kafka.config;

import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;

/**
 * One setting, declared once: what {@link ConfigDef#define} takes but its group and its order in the group, which the
 * {@link SettingsTable} it is added to assigns. A null validator or recommender means none.
 */
public record Setting(String key, Type type, Object defaultValue, ConfigDef.Validator validator, Importance importance,
        Width width, String display, String doc, List<String> dependents, ConfigDef.Recommender recommender) {

    /** A setting without validator, dependents or recommender; add them with the {@code with*} methods. */
    public static Setting of(String key, Type type, Object defaultValue, Importance importance, Width width, String display,
            String doc) {
        return new Setting(key, type, defaultValue, null, importance, width, display, doc, List.of(), null);
    }

    public Setting withValidator(ConfigDef.Validator v) {
        return new Setting(key, type, defaultValue, v, importance, width, display, doc, dependents, recommender);
    }

    public Setting withRecommender(ConfigDef.Recommender r) {
        return new Setting(key, type, defaultValue, validator, importance, width, display, doc, dependents, r);
    }

    /** The settings whose display depends on this one (Connect's UI shows or hides them). */
    public Setting withDependents(String... keys) {
        return new Setting(key, type, defaultValue, validator, importance, width, display, doc, List.of(keys), recommender);
    }

    public Setting withDoc(String text) {
        return new Setting(key, type, defaultValue, validator, importance, width, display, text, dependents, recommender);
    }

    /** This setting with the connector's own doc when {@code docs} has one for its key. */
    public Setting docFrom(Map<String, String> docs) {
        return withDoc(docs.getOrDefault(key, doc));
    }
}
