package dev.mirrorv3.kafka.config;

import java.util.Map;
import java.util.function.Function;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.Config;
import org.slf4j.LoggerFactory;

/**
 * The plumbing every connector's cross-field validation shares: the settings, Connect's per-field result and the checks
 * that attach errors to it, offline mode, the config parsed once the single-field errors allow it, and the rules of its
 * {@link ConfigFragments} (the store settings of a connector that has them, the retry backoff pair, the deprecated names).
 * A connector adds only its own rules
 * ({@link #checkConnector()}); each error is attached to the setting it concerns, so that
 * {@code PUT /connector-plugins/{class}/config/validate} reports it per field and says how to fix it.
 *
 * @param <C> the connector's config
 */
public abstract class ConnectorValidator<C extends AbstractConfig> {
    protected final Map<String, String> props;
    protected final ConnectorChecks checks;
    /** Contact nothing (CI of GitOps repositories): skip the checks that need the worker's files or a cluster or store. */
    protected final boolean offline;
    private final Config config;
    private final ConfigFragments fragments;
    private final Function<Map<String, String>, C> parser;
    private boolean storeLocationComplete;

    /**
     * @param fragments the connector's configuration, whose rules run first
     * @param parser the connector's config constructor
     */
    protected ConnectorValidator(Map<String, String> props, Config config, boolean offline, ConfigFragments fragments,
            Function<Map<String, String>, C> parser) {
        this.props = props;
        this.config = config;
        this.checks = new ConnectorChecks(props, config);
        this.offline = offline;
        this.fragments = fragments;
        this.parser = parser;
    }

    /**
     * Every fragment's rules, then the connector's, then the warnings about former setting names; returns Connect's
     * result with the errors added.
     */
    public final Config validate() {
        fragments.validate(props, checks, offline);
        storeLocationComplete = fragments.storeLocationComplete(props, checks);
        checkConnector();
        if (fragments.deprecated() != null) {
            fragments.deprecated().report(props, config, LoggerFactory.getLogger(getClass()));
        }
        return config;
    }

    /** Builds a connector's validator: the settings, Connect's per-field result, offline mode. */
    @FunctionalInterface
    public interface Factory {
        ConnectorValidator<?> create(Map<String, String> props, Config config, boolean offline);
    }

    /** Whether the store's location settings are complete and well-formed, so that the store can be tried. */
    protected final boolean storeLocationComplete() {
        return storeLocationComplete;
    }

    /** The connector's own cross-field rules. */
    protected abstract void checkConnector();

    /** The config, or null when it does not parse (the single-field errors are reported already). */
    protected final C parsed() {
        try {
            return parser.apply(props);
        } catch (RuntimeException e) {
            return null;
        }
    }

    protected final boolean hasErrors(String key) {
        return checks.hasErrors(key);
    }

    protected final void error(String key, String message) {
        checks.error(key, message);
    }
}
