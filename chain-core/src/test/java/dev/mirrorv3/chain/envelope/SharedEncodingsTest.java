package dev.mirrorv3.chain.envelope;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mirrorv3.chain.bytes.ObjectBytes;
import dev.mirrorv3.chain.crypto.ObjectEncryption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * A tee's destinations with the same settings encode an object of the same records once: the first to encode leaves its
 * bytes for the others, which take them until every holder released them; anything else encodes as a destination alone.
 */
class SharedEncodingsTest {
    private static final EnvelopeSettings PARQUET = EnvelopeSettings.parquetBytes();
    private static final EnvelopeSettings NDJSON =
            new EnvelopeSettings(EnvelopeFormat.NDJSON, Compression.ZSTD, ValueType.BYTES, ValueType.BYTES);
    private static final List<BackupRecord> RECORDS = Samples.bulk(300, 200, false);

    /** A real codec over a pool, counting its encodings. */
    private static class Counting implements EnvelopeCodec {
        final EncodeMemory memory = EncodeMemory.pooled(1);
        final EnvelopeCodec codec;
        final AtomicInteger encoded = new AtomicInteger();
        final String keyId;

        Counting(EnvelopeSettings settings) {
            this(settings, null);
        }

        Counting(EnvelopeSettings settings, String keyId) {
            this.codec = EnvelopeCodecs.forSettings(settings, ObjectEncryption.none(), memory);
            this.keyId = keyId;
        }

        @Override
        public EnvelopeFormat format() {
            return codec.format();
        }

        @Override
        public byte[] encode(List<BackupRecord> records) {
            return encodeObject(records).toByteArrayAndRelease();
        }

        @Override
        public ObjectBytes encodeObject(List<BackupRecord> records) {
            encoded.incrementAndGet();
            return codec.encodeObject(records);
        }

        @Override
        public List<BackupRecord> decode(byte[] data, String objectDescription) {
            return codec.decode(data, objectDescription);
        }

        @Override
        public String writeKeyId() {
            return keyId;
        }
    }

    private static List<BackupRecord> range(int from, int to) {
        return new ArrayList<>(RECORDS.subList(from, to)); // a list of its own, the same record instances
    }

    @Test
    void encodingIsDeterministicForPlainObjects() {
        for (EnvelopeSettings s : List.of(PARQUET, NDJSON)) {
            EnvelopeCodec codec = EnvelopeCodecs.forSettings(s);
            assertThat(codec.encode(RECORDS)).as(s.format() + ": what a shared object relies on").isEqualTo(codec.encode(RECORDS));
        }
    }

    @Test
    void theSecondDestinationTakesWhatTheFirstEncodedAndTheBytesGoBackWhenBothReleased() {
        SharedEncodings shared = new SharedEncodings(64L << 20);
        Counting local = new Counting(PARQUET);
        Counting offsite = new Counting(PARQUET);
        EnvelopeCodec a = shared.join(PARQUET).apply(local);
        EnvelopeCodec b = shared.join(PARQUET).apply(offsite);

        ObjectBytes first = a.encodeObject(range(0, 100));
        ObjectBytes second = b.encodeObject(range(0, 100));
        assertThat(local.encoded).hasValue(1);
        assertThat(offsite.encoded).as("taken, not encoded").hasValue(0);
        assertThat(shared.taken()).isEqualTo(1);
        assertThat(second.toByteArray()).isEqualTo(first.toByteArray()).isEqualTo(EnvelopeCodecs.forSettings(PARQUET)
                .encode(range(0, 100)));
        assertThat(shared.waitingBytes()).isZero();

        first.release();
        assertThat(second.toByteArray()).as("the other holder still reads").isNotEmpty();
        assertThat(local.memory.keptNow()).as("the output is not reused while one holds it").isEqualTo(1); // the scratch
        second.release();
        assertThat(local.memory.keptNow()).as("scratch and output back in the pool").isEqualTo(2);
        assertThat(b.decode(EnvelopeCodecs.forSettings(PARQUET).encode(range(0, 100)), "x")).as("decodes as its codec")
                .isEqualTo(range(0, 100));
    }

    @Test
    void otherRecordsOtherSettingsAndEncryptedObjectsAreEncodedByEachDestination() {
        SharedEncodings shared = new SharedEncodings(64L << 20);
        Counting p1 = new Counting(PARQUET);
        Counting p2 = new Counting(PARQUET);
        Counting n1 = new Counting(NDJSON);
        EnvelopeCodec a = shared.join(PARQUET).apply(p1);
        EnvelopeCodec b = shared.join(PARQUET).apply(p2);
        EnvelopeCodec c = shared.join(NDJSON).apply(n1);

        a.encodeObject(range(0, 100)).release();
        List<BackupRecord> equalButNotTheSame = Samples.bulk(300, 200, false).subList(0, 100);
        b.encodeObject(equalButNotTheSame).release();
        assertThat(p2.encoded).as("records read again are other instances: encoded").hasValue(1);
        c.encodeObject(range(100, 200)).release();
        assertThat(n1.encoded).hasValue(1);
        assertThat(shared.taken()).isZero();

        UnaryOperator<EnvelopeCodec> encrypting = shared.join(PARQUET);
        Counting keyed = new Counting(PARQUET, "k1");
        assertThat(encrypting.apply(keyed)).as("an encrypted object has a nonce of its own").isSameAs(keyed);
    }

    @Test
    void bytesADestinationCutElsewhereOrTooManyToKeepAreDropped() {
        Counting local = new Counting(PARQUET);
        Counting offsite = new Counting(PARQUET);
        SharedEncodings shared = new SharedEncodings(64L << 20);
        EnvelopeCodec a = shared.join(PARQUET).apply(local);
        EnvelopeCodec b = shared.join(PARQUET).apply(offsite);
        a.encodeObject(range(0, 100)).release();
        a.encodeObject(range(100, 200)).release();
        b.encodeObject(range(50, 150)).release(); // cut elsewhere: 0-99 is never taken (dropped), 100-199 may still be
        assertThat(offsite.encoded).hasValue(1);
        assertThat(shared.waitingBytes()).as("100-199 waits; nothing of 50-149 for a, which is past it").isEqualTo(
                EnvelopeCodecs.forSettings(PARQUET).encode(range(100, 200)).length);
        b.encodeObject(range(100, 200)).release();
        assertThat(offsite.encoded).as("taken").hasValue(1);
        a.encodeObject(range(200, 300)).release();
        assertThat(shared.waitingBytes()).as("only 200-299 waits, for b").isEqualTo(
                EnvelopeCodecs.forSettings(PARQUET).encode(range(200, 300)).length);
        b.encodeObject(range(200, 300)).release();
        assertThat(offsite.encoded).hasValue(1);
        assertThat(shared.waitingBytes()).isZero();

        long one = EnvelopeCodecs.forSettings(PARQUET).encode(range(0, 100)).length;
        SharedEncodings small = new SharedEncodings(one * 2 + one / 2);
        Counting l2 = new Counting(PARQUET);
        Counting o2 = new Counting(PARQUET);
        EnvelopeCodec a2 = small.join(PARQUET).apply(l2);
        EnvelopeCodec b2 = small.join(PARQUET).apply(o2);
        a2.encodeObject(range(0, 100)).release();
        a2.encodeObject(range(100, 200)).release();
        a2.encodeObject(range(200, 300)).release(); // the oldest goes
        assertThat(small.waitingBytes()).isLessThanOrEqualTo(one * 2 + one / 2);
        b2.encodeObject(range(0, 100)).release();
        assertThat(o2.encoded).as("dropped: encoded again").hasValue(1);
        b2.encodeObject(range(100, 200)).release();
        b2.encodeObject(range(200, 300)).release();
        assertThat(o2.encoded).hasValue(1);
        assertThat(small.taken()).isEqualTo(2);
    }

    @Test
    void closingDropsWhatWaitsAndKeepsNothingAfter() {
        Counting local = new Counting(PARQUET);
        Counting offsite = new Counting(PARQUET);
        SharedEncodings shared = new SharedEncodings(64L << 20);
        EnvelopeCodec a = shared.join(PARQUET).apply(local);
        EnvelopeCodec b = shared.join(PARQUET).apply(offsite);
        a.encodeObject(range(0, 100)).release();
        shared.close();
        assertThat(shared.waitingBytes()).isZero();
        assertThat(local.memory.keptNow()).as("the dropped bytes went back to their pool").isEqualTo(2);
        a.encodeObject(range(100, 200)).release();
        b.encodeObject(range(100, 200)).release();
        assertThat(offsite.encoded).hasValue(1);
        assertThatThrownBy(() -> a.encodeObject(List.of())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aDestinationWithoutAnotherOfItsSettingsKeepsNothing() {
        SharedEncodings shared = new SharedEncodings(64L << 20);
        Counting only = new Counting(PARQUET);
        EnvelopeCodec a = shared.join(PARQUET).apply(only);
        shared.join(NDJSON);
        a.encodeObject(range(0, 100)).release();
        assertThat(shared.waitingBytes()).isZero();
        assertThat(only.memory.keptNow()).isEqualTo(2);
    }

    @Test
    void aDestinationAskingWhileAnotherEncodesWaitsForItsBytesAndEncodesItselfIfThatFails() throws Exception {
        SharedEncodings shared = new SharedEncodings(64L << 20);
        CountDownLatch encoding = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        Counting slow = new Counting(PARQUET) {
            @Override
            public ObjectBytes encodeObject(List<BackupRecord> records) {
                encoding.countDown();
                try {
                    finish.await();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                return super.encodeObject(records);
            }
        };
        Counting offsite = new Counting(PARQUET);
        EnvelopeCodec a = shared.join(PARQUET).apply(slow);
        EnvelopeCodec b = shared.join(PARQUET).apply(offsite);
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            Future<ObjectBytes> first = threads.submit(() -> a.encodeObject(range(0, 100)));
            encoding.await();
            Future<ObjectBytes> second = threads.submit(() -> b.encodeObject(range(0, 100)));
            Thread.sleep(200);
            assertThat(second).as("waits for the encoding under way").isNotDone();
            finish.countDown();
            assertThat(second.get(10, TimeUnit.SECONDS).toByteArray()).isEqualTo(first.get(10, TimeUnit.SECONDS).toByteArray());
            assertThat(offsite.encoded).hasValue(0);

            CountDownLatch again = new CountDownLatch(1);
            Counting failing = new Counting(PARQUET) {
                @Override
                public ObjectBytes encodeObject(List<BackupRecord> records) {
                    again.countDown();
                    try {
                        Thread.sleep(300);
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                    throw new ValueTypeException("a value that does not fit");
                }
            };
            SharedEncodings other = new SharedEncodings(64L << 20);
            EnvelopeCodec c = other.join(PARQUET).apply(failing);
            Counting d0 = new Counting(PARQUET);
            EnvelopeCodec d = other.join(PARQUET).apply(d0);
            Future<ObjectBytes> failed = threads.submit(() -> c.encodeObject(range(0, 100)));
            again.await();
            ObjectBytes own = d.encodeObject(range(0, 100));
            assertThatThrownBy(() -> failed.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(ValueTypeException.class);
            assertThat(d0.encoded).as("the other's encoding failed: encoded as alone").hasValue(1);
            assertThat(own.toByteArray()).isEqualTo(EnvelopeCodecs.forSettings(PARQUET).encode(range(0, 100)));
        } finally {
            threads.shutdownNow();
        }
    }
}
