package dev.mirrorv3.connect.transforms;

import dev.mirrorv3.chain.Version;
import org.apache.kafka.connect.components.Versioned;
import org.apache.kafka.connect.connector.ConnectRecord;
import org.apache.kafka.connect.transforms.Transformation;

/** What each of our transformations is to Connect beyond its settings and {@code apply}: the product's version, nothing to close. */
public abstract class MirrorTransformation<R extends ConnectRecord<R>> implements Transformation<R>, Versioned {

    @Override
    public String version() {
        return Version.get();
    }

    @Override
    public void close() {
    }
}
