package dev.mirrorv3.restore.cli;

import dev.mirrorv3.connect.blob.BlobSinkValidation;
import dev.mirrorv3.connect.kafka.KafkaSinkValidation;
import dev.mirrorv3.connect.source.ChainSourceValidation;
import dev.mirrorv3.kafka.config.ConnectorValidation;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.Config;

/** mirror-v3's three connector classes, as {@code connector.class} names them: what validate checks and status shows. */
public enum ConnectorKind {
    BLOB_SINK("dev.mirrorv3.connect.blob.BlobSinkConnector", "blob-sink", BlobSinkValidation.VALIDATION),
    KAFKA_SINK("dev.mirrorv3.connect.kafka.KafkaSinkConnector", "kafka-sink", KafkaSinkValidation.VALIDATION),
    CHAIN_SOURCE("dev.mirrorv3.connect.source.ChainSourceConnector", "chain-source", ChainSourceValidation.VALIDATION);

    private final String className;
    private final String label;
    private final ConnectorValidation validation;

    ConnectorKind(String className, String label, ConnectorValidation validation) {
        this.className = className;
        this.label = label;
        this.validation = validation;
    }

    public String className() {
        return className;
    }

    /** blob-sink, kafka-sink or chain-source: the TYPE column and JSON {@code type}. */
    public String label() {
        return label;
    }

    /** The kind a {@code connector.class} names: the class name or one of Connect's aliases (BlobSinkConnector, BlobSink). */
    public static Optional<ConnectorKind> of(String connectorClass) {
        if (connectorClass == null) {
            return Optional.empty();
        }
        String c = connectorClass.trim();
        return Arrays.stream(values()).filter(k -> {
            String simple = k.className.substring(k.className.lastIndexOf('.') + 1);
            return c.equals(k.className) || c.equals(simple) || c.equals(simple.substring(0, simple.length() - "Connector".length()));
        }).findFirst();
    }

    /** The three class names, for messages. */
    public static String classNames() {
        return Arrays.stream(values()).map(ConnectorKind::className).collect(Collectors.joining(", "));
    }

    /** The connector's own checks (its ConfigDef and validate() rules); offline contacts nothing. */
    public Config validate(Map<String, String> settings, boolean offline) {
        return validation.validate(settings, offline);
    }

    /** Settings under a deprecated name that still work: what to rename. */
    public List<String> warnings(Map<String, String> settings) {
        return validation.warnings(settings);
    }
}
