package dev.mirrorv3.chain.write;

import dev.mirrorv3.chain.bytes.ObjectBytes;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EnvelopeCodec;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import java.util.List;
import java.util.function.Consumer;

/** A codec that hands the records of each object it encoded to the test, after encoding them (to watch, or to act then). */
final class EncodeWatchingCodec implements EnvelopeCodec {
    private final EnvelopeCodec real;
    private final Consumer<List<BackupRecord>> afterEncode;

    EncodeWatchingCodec(EnvelopeCodec real, Consumer<List<BackupRecord>> afterEncode) {
        this.real = real;
        this.afterEncode = afterEncode;
    }

    @Override
    public EnvelopeFormat format() {
        return real.format();
    }

    @Override
    public byte[] encode(List<BackupRecord> records) {
        byte[] bytes = real.encode(records);
        afterEncode.accept(records);
        return bytes;
    }

    @Override
    public ObjectBytes encodeObject(List<BackupRecord> records) {
        ObjectBytes bytes = real.encodeObject(records);
        afterEncode.accept(records);
        return bytes;
    }

    @Override
    public List<BackupRecord> decode(byte[] data, String objectDescription) {
        return real.decode(data, objectDescription);
    }
}
