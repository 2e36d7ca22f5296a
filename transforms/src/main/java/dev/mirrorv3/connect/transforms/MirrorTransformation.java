package dev.mirrorv3.connect.transforms;

import dev.mirrorv3.chain.Version;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.components.Versioned;
import org.apache.kafka.connect.connector.ConnectRecord;
import org.apache.kafka.connect.transforms.Transformation;

/**
 * What each of our transformations is to Connect beyond {@code apply}: its settings, parsed against its {@link ConfigDef}
 * before it takes their values, the product's version, nothing to close.
 */
public abstract class MirrorTransformation<R extends ConnectRecord<R>> implements Transformation<R>, Versioned {
    private final ConfigDef configDef;

    MirrorTransformation(ConfigDef configDef) {
        this.configDef = configDef;
    }

    @Override
    public final void configure(Map<String, ?> props) {
        configure(new AbstractConfig(configDef, props, false));
    }

    /** Takes the values of the settings, already parsed and validated. */
    protected abstract void configure(AbstractConfig config);

    @Override
    public ConfigDef config() {
        return configDef;
    }

    @Override
    public String version() {
        return Version.get();
    }

    @Override
    public void close() {
    }
}
