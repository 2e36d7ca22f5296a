package dev.mirrorv3.cache.config;

import java.util.List;

/** The configuration cannot work; {@link #errors()} names each offending setting. */
public final class ConfigException extends RuntimeException {

    private static final long serialVersionUID = 1L;
    private final transient List<String> errors;

    public ConfigException(List<String> errors) {
        super("Invalid configuration:\n  " + String.join("\n  ", errors));
        this.errors = List.copyOf(errors);
    }

    public List<String> errors() {
        return errors;
    }
}
