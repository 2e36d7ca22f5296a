package dev.mirrorv3.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.sink.SinkConnector;
import org.apache.kafka.connect.sink.SinkTask;

/**
 * A sink's config that reaches {@code start()} without {@code validate()} (stored by an older version, or written to
 * the config topic directly): the connector and the task must refuse it with the message validate() gives.
 */
public final class StartRefusals {
    private StartRefusals() {
    }

    /** The one error {@code validated} holds on {@code setting}: what start() must say. */
    public static String validateMessage(Config validated, String setting) {
        List<String> errors = validated.configValues().stream().filter(v -> v.name().equals(setting))
                .map(ConfigValue::errorMessages).findFirst().orElseThrow();
        assertThat(errors).as("validate() refuses %s", setting).hasSize(1);
        return errors.get(0);
    }

    /** The connector's start() refuses {@code stored} with {@code message}. */
    public static void assertConnectorRefuses(SinkConnector connector, Map<String, String> stored, String message) {
        try {
            assertThatThrownBy(() -> connector.start(stored)).hasMessage(message);
        } finally {
            connector.stop();
        }
    }

    /** The task's start() refuses {@code stored} with {@code message}. */
    public static void assertTaskRefuses(SinkTask task, Map<String, String> stored, String message) {
        try (RebalancingSinkTaskContext context = new RebalancingSinkTaskContext(stored)) {
            task.initialize(context);
            assertThatThrownBy(() -> task.start(stored)).hasMessage(message);
        } finally {
            task.stop();
        }
    }
}
