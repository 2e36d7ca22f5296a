package dev.mirrorv3.connect.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.testsupport.ConnectorConfigs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chain source over a blob sink's config with several destinations: it follows the one {@code destination} names,
 * through that destination's settings, and refuses a tee without it, naming the destinations.
 */
class ChainSourceDestinationTest {
    @TempDir
    Path dir;

    /** A tee of two filesystem destinations as the blob sink's config gives it, plus the chain source's own settings. */
    private Map<String, String> tee(String... kv) {
        Map<String, String> c = new HashMap<>();
        c.put("name", "orders-standby");
        c.put("topics", "orders");
        c.put("destinations", "local,offsite");
        c.put("destinations.local.filesystem.root", dir.resolve("local").toString());
        c.put("destinations.local.destination.name", "orders-backup");
        c.put("destinations.offsite.filesystem.root", dir.resolve("offsite").toString());
        c.put("destinations.offsite.destination.name", "orders-offsite");
        c.put("destinations.offsite.flush.max.time.ms", "60000");
        c.put("target.topic", "orders");
        c.put("offsets", "preserve");
        return ConnectorConfigs.with(c, kv);
    }

    private static Map<String, List<String>> errors(Map<String, String> config, boolean offline) {
        return ChainSourceValidation.VALIDATION.validate(config, offline).configValues().stream().filter(v -> !v.errorMessages().isEmpty())
                .collect(Collectors.toMap(ConfigValue::name, ConfigValue::errorMessages));
    }

    private static final List<String> NOT_THE_BACKUP = List.of("target.admin.bootstrap.servers", "target.topic",
            "producer.override.enable.idempotence", "producer.override.acks", "key.converter", "value.converter", "header.converter",
            "connector.class", "tasks.max");

    /** The errors that concern the backup (not the target, the producer or the converters this test leaves out). */
    private static Map<String, List<String>> backupErrors(Map<String, String> config, boolean offline) {
        Map<String, List<String>> errors = new HashMap<>(errors(config, offline));
        NOT_THE_BACKUP.forEach(errors::remove);
        return errors;
    }

    @Test
    void aTeeWithoutDestinationIsRefusedNamingTheDestinations() {
        Map<String, List<String>> errors = backupErrors(tee(), true);
        assertThat(errors).containsOnlyKeys("destination");
        assertThat(errors.get("destination")).singleElement().asString()
                .contains("several destinations [local, offsite]", "destination=local");
        assertThatThrownBy(() -> new ChainSourceConfig(tee())).as("at start").isInstanceOf(ConfigException.class)
                .hasMessageContaining("destination").hasMessageContaining("[local, offsite]");
    }

    @Test
    void aDestinationTheTeeDoesNotListIsRefusedNamingTheListed() {
        assertThat(backupErrors(tee("destination", "backup"), true).get("destination")).singleElement().asString()
                .contains("no destination backup", "[local, offsite]");
    }

    @Test
    void aDestinationWithoutATeeIsRefused() {
        Map<String, String> single = tee("destinations", null, "destination", "offsite");
        single.keySet().removeIf(k -> k.startsWith("destinations."));
        single.put("filesystem.root", dir.toString());
        single.put("destination.name", "orders-backup");
        assertThat(backupErrors(single, true).get("destination")).singleElement().asString()
                .contains("one destination and no destinations setting");
        single.remove("destination");
        assertThat(backupErrors(single, true)).as("a single destination as before").isEmpty();
    }

    @Test
    void theFollowedDestinationIsReadThroughItsOwnSettings() throws Exception {
        Files.createDirectories(dir.resolve("offsite/orders-offsite/3"));
        Map<String, String> c = tee("destination", "offsite");
        assertThat(backupErrors(c, false)).as("online: the followed destination's directory exists").isEmpty();
        assertThat(ChainSourceValidation.VALIDATION.warnings(c)).as("destinations.* are known").noneMatch(w -> w.contains("destinations."));
        ChainSourceConfig config = new ChainSourceConfig(c);
        assertThat(config.destinationName()).isEqualTo("orders-offsite");
        assertThat(config.storeKey("filesystem.root")).isEqualTo("destinations.offsite.filesystem.root");
        try (Store store = config.openStore()) {
            assertThat(store.partitions()).containsExactly(3);
            assertThat(store.location(3)).contains(dir.resolve("offsite").toString());
        }
    }

    @Test
    void theFollowedDestinationsErrorsAreOnItsPrefixedKeys() {
        Map<String, List<String>> missing = backupErrors(tee("destination", "offsite"), false);
        assertThat(missing).containsOnlyKeys("destinations.offsite.filesystem.root");
        assertThat(missing.get("destinations.offsite.filesystem.root")).singleElement().asString()
                .contains("offsite/orders-offsite does not exist", "check destinations.offsite.filesystem.root and"
                        + " destinations.offsite.destination.name");

        Map<String, List<String>> noName = backupErrors(tee("destination", "offsite", "destinations.offsite.destination.name", null),
                true);
        assertThat(noName).containsOnlyKeys("destinations.offsite.destination.name");
        assertThat(noName.get("destinations.offsite.destination.name")).singleElement().asString()
                .contains("required", "the blob sink's destinations.offsite.destination.name");

        Map<String, List<String>> relative = backupErrors(tee("destination", "local", "destinations.local.filesystem.root", "backups"),
                true);
        assertThat(relative).containsOnlyKeys("destinations.local.filesystem.root");
        assertThat(backupErrors(tee("destination", "offsite", "destinations.local.filesystem.root", "backups"), true))
                .as("the destination not followed is not the backup").isEmpty();
    }

    @Test
    void theTeesOwnRulesApply() {
        assertThat(backupErrors(tee("destination", "offsite", "filesystem.root", dir.toString()), true).get("filesystem.root"))
                .singleElement().asString().contains("set it per destination, as destinations.<name>.filesystem.root");
        assertThat(backupErrors(tee("destination", "offsite", "destinations.backup.filesystem.root", "/x"), true)
                .get("destinations.backup.filesystem.root")).singleElement().asString().contains("does not list [local, offsite]");
    }
}
