package dev.mirrorv3.restore.cli.restore;

import dev.mirrorv3.restore.cli.CliRun;
import dev.mirrorv3.testsupport.KafkaTestBroker;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A class of restore tests into one real broker (per class), each test with its own directory for backups. */
abstract class RestoreIntoBrokerBase extends BackupsDirTestBase {
    @RegisterExtension
    static final KafkaTestBroker broker = KafkaTestBroker.perClass();

    /** {@code restore} from the connector config into the topic on this class's broker, with these flags, printing no progress. */
    static CliRun restoreInto(String connectorConfig, String offsets, String topic, String... flags) {
        List<String> args = new ArrayList<>(List.of("restore", "--connector-config", connectorConfig, "--offsets", offsets,
                "--bootstrap-servers", broker.bootstrapServers(), "--topic", topic));
        args.addAll(List.of(flags));
        args.addAll(List.of("--progress", "none"));
        return CliRun.run(args.toArray(String[]::new));
    }
}
