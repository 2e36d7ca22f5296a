package dev.mirrorv3.kafka.config;

import java.util.Map;
import java.util.function.Function;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.Config;
import org.slf4j.LoggerFactory;

/**
 * The plumbing every connector's cross-field validation shares: the settings, Connect's per-field result and the checks
 * that attach errors to it, offline mode, the config parsed once the single-field errors allow it, and the rules of the
 * shared fragments (the store settings of a connector that has them, the retry backoff pair, the deprecated names). A
 * connector adds only its own rules
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
    private final DeprecatedAliases deprecated;
    private final Function<Map<String, String>, C> parser;
    private final StoreConfigFragment.Access store;
    private boolean storeLocationComplete;

    /**
     * @param deprecated the connector's former setting names, warned about; null when it has none
     * @param parser the connector's config constructor
     * @param store how the connector uses the store settings ({@link StoreConfigFragment}); null when it has none
     */
    protected ConnectorValidator(Map<String, String> props, Config config, boolean offline, DeprecatedAliases deprecated,
            Function<Map<String, String>, C> parser, StoreConfigFragment.Access store) {
        this.props = props;
        this.config = config;
        this.checks = new ConnectorChecks(props, config);
        this.offline = offline;
        this.deprecated = deprecated;
        this.parser = parser;
        this.store = store;
    }

    /**
     * The store fragment's rules, the connector's, then the other shared cross-field rules; returns Connect's result with
     * the errors added.
     */
    public final Config validate() {
        storeLocationComplete = store != null && StoreConfigFragment.validate(props, checks, store, offline);
        checkConnector();
        ConnectorConfigFragment.validateRetryBackoff(props, checks);
        if (deprecated != null) {
            deprecated.report(props, config, LoggerFactory.getLogger(getClass()));
        }
        return config;
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
