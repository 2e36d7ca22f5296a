package dev.mirrorv3.kafka.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigValue;

/**
 * Cross-field checks every mirror-v3 connector's {@code validate()} makes (no skipped records, exact bytes, no
 * transforms), with per-field error collection into Connect's {@link Config}; a cluster's reachability is
 * {@link ClusterAccess}'s. Each connector passes its own reason text, so the messages say why the rule matters for that
 * connector.
 */
public final class ConnectorChecks {
    public static final String BYTE_ARRAY_CONVERTER = "org.apache.kafka.connect.converters.ByteArrayConverter";
    private static final List<String> CONVERTERS = List.of("key.converter", "value.converter", "header.converter");

    private final Map<String, String> props;
    private final Config config;
    /** Prepended to every key an error or a lookup of errors names: a tee's destination is checked on its own view. */
    private final String prefix;

    public ConnectorChecks(Map<String, String> props, Config config) {
        this(props, config, "");
    }

    private ConnectorChecks(Map<String, String> props, Config config, String prefix) {
        this.props = props;
        this.config = config;
        this.prefix = prefix;
    }

    /**
     * The checks of one destination of a tee ({@link DestinationSettings}): rules read {@code view}, its settings
     * without their prefix, and their errors land on the prefixed keys, so each names the setting as it is written.
     */
    public ConnectorChecks prefixed(String keyPrefix, Map<String, String> view) {
        return new ConnectorChecks(view, config, prefix + keyPrefix);
    }

    /** errors.tolerance=all is refused with {@code message} on errors.tolerance. */
    public void refuseErrorsToleranceAll(String message) {
        if ("all".equalsIgnoreCase(props.getOrDefault("errors.tolerance", "").trim())) {
            error("errors.tolerance", message);
        }
    }

    /**
     * key/value/header.converter must each be set to ByteArrayConverter in the connector config.
     *
     * @param why the start of the message, e.g. "the copy keeps the records' exact bytes"
     */
    public void requireByteArrayConverters(String why) {
        for (String converter : CONVERTERS) {
            if (!BYTE_ARRAY_CONVERTER.equals(props.get(converter))) {
                error(converter, why + ": set " + converter + "=" + BYTE_ARRAY_CONVERTER
                        + (props.get(converter) == null ? " in the connector config (the worker's default is not seen here)"
                        : " (found " + props.get(converter) + ")"));
            }
        }
    }

    /** A non-empty transforms setting is refused with {@code message} on transforms. */
    public void refuseTransforms(String message) {
        if (props.get("transforms") != null && !props.get("transforms").isBlank()) {
            error("transforms", message);
        }
    }

    /** {@code key} must be {@code value} (case-insensitive); {@code why} says what goes wrong otherwise. */
    public void requireSetting(String key, String value, String why) {
        if (!value.equalsIgnoreCase(props.getOrDefault(key, ""))) {
            error(key, "set " + key + "=" + value + " (found " + props.getOrDefault(key, "nothing") + "): " + why);
        }
    }

    /** The setting's value as given, empty when it is not set. */
    public String value(String key) {
        return props.getOrDefault(key, "");
    }

    /** Whether {@code key} has an error already (a single-field one from the ConfigDef, or an earlier check's). */
    public boolean hasErrors(String key) {
        String name = prefix + key;
        return config.configValues().stream().anyMatch(v -> v.name().equals(name) && !v.errorMessages().isEmpty());
    }

    /** Adds {@code message} to {@code key}'s errors, adding the key to the result when Connect did not list it. */
    public void error(String unprefixedKey, String message) {
        String key = prefix + unprefixedKey;
        for (ConfigValue v : config.configValues()) {
            if (v.name().equals(key)) {
                v.addErrorMessage(message);
                return;
            }
        }
        // No value: Connect renders it with the type of its own definition of the key (a class for converters).
        ConfigValue v = new ConfigValue(key, null, List.of(), new ArrayList<>());
        v.addErrorMessage(message);
        config.configValues().add(v);
    }
}
