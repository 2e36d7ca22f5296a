package dev.mirrorv3.kafka.config;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigValue;

/**
 * One destination of a blob connector, a typed view over its settings: the single destination of a connector without
 * {@code destinations} (its settings as they are), or one of a tee's ({@code destinations=local,offsite}), whose
 * settings are the connector's with its own {@code destinations.<name>.}-prefixed keys laid over them. Everything that
 * reads a destination (the store factory, the sink's writers, the chain source, the restore CLI, the quickstart's
 * checks) reads this view, so a destination's keys, their prefix and the rule for its chain directory's name are
 * written here once (docs/blob-sink.md, "Several destinations").
 */
public final class DestinationSettings {
    public static final String DESTINATIONS = "destinations";
    public static final String PREFIX = "destinations.";
    /** A reader's setting (the chain source's) naming the destination of a tee it reads, as the CLI's --destination does. */
    public static final String DESTINATION = "destination";
    public static final String TOPIC_PLACEHOLDER = "${topic}";
    /** A destination's name: a metric label and a key segment. */
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,31}");
    /** The store settings: given per destination in a tee, never at the top (a destination never writes where another does). */
    public static final Set<String> STORE_KEYS = StoreConfigFragment.KEYS;
    /** The cadence: a destination's own if set under its prefix, else the connector's. */
    public static final Set<String> FLUSH_KEYS = Set.of("flush.max.records", "flush.max.bytes", "flush.max.time.ms");

    private final String name;
    private final Map<String, String> settings;
    /** The keys set under the destination's prefix. */
    private final Set<String> own;

    private DestinationSettings(String name, Map<String, String> settings, Set<String> own) {
        this.name = name;
        this.settings = settings;
        this.own = own;
    }

    /** Whether the connector's settings declare a tee ({@code destinations} set). */
    public static boolean isTee(Map<String, String> props) {
        return !names(props).isEmpty();
    }

    /** The names {@code destinations} lists, in order; empty without a tee. */
    public static List<String> names(Map<String, String> props) {
        return TopicsSetting.parse(props.getOrDefault(DESTINATIONS, ""));
    }

    /** Every destination of the connector: its one destination, or each of a tee's, in the order listed. */
    public static List<DestinationSettings> all(Map<String, String> props) {
        List<String> names = names(props);
        if (names.isEmpty()) {
            return List.of(new DestinationSettings("", Map.copyOf(props), Set.of()));
        }
        return names.stream().map(n -> of(props, n)).toList();
    }

    /**
     * The destination {@code name} names ({@code --destination}, the chain source's setting): required when the
     * connector has several, refused when it has one.
     *
     * @throws IllegalArgumentException saying which names there are
     */
    public static DestinationSettings select(Map<String, String> props, String name) {
        List<String> names = names(props);
        if (name == null || name.isBlank()) {
            if (names.size() > 1) {
                throw new IllegalArgumentException("the connector writes several destinations " + names + ": name one of them");
            }
            return names.isEmpty() ? all(props).get(0) : of(props, names.get(0));
        }
        if (!names.contains(name.trim())) {
            throw new IllegalArgumentException(names.isEmpty() ? "the connector has one destination and no destinations setting: do"
                    + " not name one (found " + name + ")" : "the connector has no destination " + name + ": it writes " + names);
        }
        return of(props, name.trim());
    }

    /**
     * The destination a reader of the backup reads (the chain source): the config's single destination, or the tee's
     * that {@value #DESTINATION} names.
     *
     * @throws IllegalArgumentException as {@link #select}
     */
    public static DestinationSettings read(Map<String, String> props) {
        return select(props, props.get(DESTINATION));
    }

    /**
     * A reader's rules: a tee's own ({@link #checkTee}), then {@value #DESTINATION} naming one of its destinations
     * (required when it has several, refused without a tee), its error on {@value #DESTINATION}.
     *
     * @return the destination read, whose settings are to be checked; empty when {@value #DESTINATION} is wrong
     */
    public static Optional<DestinationSettings> checkRead(Map<String, String> props, ConnectorChecks checks) {
        if (isTee(props)) {
            checkTee(props, checks);
        }
        try {
            return Optional.of(read(props));
        } catch (IllegalArgumentException e) {
            String names = String.join(",", names(props));
            checks.error(DESTINATION, e.getMessage() + (names.isEmpty() ? "" : ": set " + DESTINATION + " to the one to read, e.g. "
                    + DESTINATION + "=" + names(props).get(0)));
            return Optional.empty();
        }
    }

    private static DestinationSettings of(Map<String, String> props, String name) {
        Map<String, String> view = new HashMap<>();
        props.forEach((k, v) -> {
            if (!k.startsWith(PREFIX) && !STORE_KEYS.contains(k) && !DESTINATIONS.equals(k)) {
                view.put(k, v);
            }
        });
        Map<String, String> own = own(props, name);
        view.putAll(own);
        return new DestinationSettings(name, Map.copyOf(view), Set.copyOf(own.keySet()));
    }

    /** The settings under {@code destinations.<name>.}, without the prefix. */
    static Map<String, String> own(Map<String, String> props, String name) {
        String prefix = PREFIX + name + ".";
        Map<String, String> own = new LinkedHashMap<>();
        props.forEach((k, v) -> {
            if (k.startsWith(prefix)) {
                own.put(k.substring(prefix.length()), v);
            }
        });
        return own;
    }

    /** The tee's name of this destination; empty for a connector's single destination. */
    public Optional<String> teeName() {
        return name.isEmpty() ? Optional.empty() : Optional.of(name);
    }

    /** The name for logs and messages: the tee's name, or "the destination". */
    public String describe() {
        return name.isEmpty() ? "the destination" : "destination " + name;
    }

    /** The settings as a single destination's connector would have them: what the store factory and the configs read. */
    public Map<String, String> settings() {
        return settings;
    }

    /** The destination's store settings, typed (where its backup lives, its format and encryption). */
    public StoreSettings store() {
        return StoreSettings.of(settings);
    }

    /** {@code key} as it is written in the connector's config: prefixed in a tee. */
    public String key(String key) {
        return name.isEmpty() ? key : PREFIX + name + "." + key;
    }

    /**
     * The chain directory's name of {@code topic}: destination.name (empty: the connector's name) with ${topic} resolved.
     * The one rule for it, for every reader and writer of a backup.
     */
    public String chainName(String connectorName, String topic) {
        return store().chainName(connectorName, topic);
    }

    /** destination.name's rule on a value as given (the chain source's, which has no connector name to fall back to). */
    public static String chainName(String destinationName, String connectorName, String topic) {
        String n = destinationName.trim().isEmpty() ? connectorName : destinationName.trim();
        return n.replace(TOPIC_PLACEHOLDER, topic);
    }

    /**
     * Where the chains are, as a key that two destinations share only when they write the same chains: the store (a
     * filesystem root, or an S3 endpoint, bucket and prefix) and the unresolved destination.name.
     */
    String storeIdentity(String connectorName) {
        StoreSettings store = store();
        String type = store.destinationType().toLowerCase(Locale.ROOT);
        String where = store.s3()
                ? store.s3Endpoint() + "|" + store.s3Bucket() + "|"
                        + String.join("/", List.of(store.s3Prefix().split("/")).stream().filter(s -> !s.isEmpty()).toList())
                : store.filesystemRoot().normalize().toString();
        String dn = store.destinationName();
        return type + "|" + where + "|" + (dn.isEmpty() ? connectorName : dn);
    }

    /**
     * The tee's own rules, before each destination's settings are checked on its view: the names, keys that are not a
     * destination's under a prefix, a prefix of no listed destination, store settings at the top, two destinations on
     * the same chains. Errors go on the keys as written.
     *
     * @return the destinations whose settings are to be checked
     */
    public static List<DestinationSettings> checkTee(Map<String, String> props, ConnectorChecks checks) {
        List<String> names = names(props);
        List<String> valid = new ArrayList<>();
        for (String n : names) {
            if (!NAME.matcher(n).matches()) {
                checks.error(DESTINATIONS, "'" + n + "' is not a destination name: [a-z0-9][a-z0-9-]{0,31} (it becomes a metric label"
                        + " and the prefix destinations." + n + ".)");
            } else if (valid.contains(n)) {
                checks.error(DESTINATIONS, "'" + n + "' is listed twice");
            } else {
                valid.add(n);
            }
        }
        for (String k : props.keySet()) {
            if (STORE_KEYS.contains(k)) {
                checks.error(k, "set at the top, but the connector writes several destinations (" + DESTINATIONS + "=" + String.join(",",
                        names) + "): set it per destination, as " + PREFIX + "<name>." + k);
            } else if (k.startsWith(PREFIX)) {
                checkPrefixed(k, valid, checks);
            }
        }
        List<DestinationSettings> all = valid.stream().map(n -> of(props, n)).toList();
        Map<String, String> seen = new HashMap<>();
        String connector = props.getOrDefault("name", "");
        for (DestinationSettings d : all) {
            String other = seen.putIfAbsent(d.storeIdentity(connector), d.name);
            if (other != null) {
                String key = d.key(StoreConfigFragment.DESTINATION_NAME);
                checks.error(key, "destinations " + other + " and " + d.name + " would write the same chains (same store and"
                        + " destination.name): give one of them another " + key + " or another store");
            }
        }
        return all;
    }

    private static void checkPrefixed(String k, List<String> names, ConnectorChecks checks) {
        String rest = k.substring(PREFIX.length());
        int dot = rest.indexOf('.');
        String n = dot < 0 ? rest : rest.substring(0, dot);
        String key = dot < 0 ? "" : rest.substring(dot + 1);
        if (!names.contains(n)) {
            checks.error(k, "names destination '" + n + "', which " + DESTINATIONS + " does not list " + names + ": add it there, or"
                    + " remove the setting");
        } else if (!STORE_KEYS.contains(key) && !FLUSH_KEYS.contains(key)) {
            checks.error(k, "'" + key + "' is not a setting of a destination (those are the store, format, encryption and"
                    + " flush.max.* settings); set it at the top, for the whole connector");
        }
    }

    /**
     * Each setting's own rule (type, allowed values) on the destination's view, for the settings given under its prefix:
     * {@code def}'s validators, errors on the prefixed key.
     */
    public static void checkValues(DestinationSettings d, ConfigDef def, ConnectorChecks prefixed) {
        Map<String, ConfigValue> values = new HashMap<>();
        def.validate(d.settings()).forEach(v -> values.put(v.name(), v));
        for (String key : d.own) {
            ConfigValue v = values.get(key);
            if (v != null && !prefixed.hasErrors(key)) {
                v.errorMessages().forEach(m -> prefixed.error(key, m));
            }
        }
    }
}
