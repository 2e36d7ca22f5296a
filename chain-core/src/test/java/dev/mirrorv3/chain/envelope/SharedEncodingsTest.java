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

    /** Two destinations in Parquet, local and offsite, sharing their encodings (bytes waiting in at most {@code max}). */
    private record Tee(SharedEncodings shared, Counting local, Counting offsite, EnvelopeCodec a, EnvelopeCodec b) {
        static Tee of(long max) {
            SharedEncodings shared = new SharedEncodings(max);
            Counting local = new Counting(PARQUET);
            Counting offsite = new Counting(PARQUET);
            return new Tee(shared, local, offsite, shared.join(PARQUET).apply(local), shared.join(PARQUET).apply(offsite));
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
        Tee t = Tee.of(64L << 20);

        ObjectBytes first = t.a().encodeObject(range(0, 100));
        ObjectBytes second = t.b().encodeObject(range(0, 100));
        assertThat(t.local().encoded).hasValue(1);
        assertThat(t.offsite().encoded).as("taken, not encoded").hasValue(0);
        assertThat(t.shared().taken()).isEqualTo(1);
        assertThat(second.toByteArray()).isEqualTo(first.toByteArray()).isEqualTo(EnvelopeCodecs.forSettings(PARQUET)
                .encode(range(0, 100)));
        assertThat(t.shared().waitingBytes()).isZero();

        first.release();
        assertThat(second.toByteArray()).as("the other holder still reads").isNotEmpty();
        assertThat(t.local().memory.keptNow()).as("the output is not reused while one holds it").isEqualTo(1); // the scratch
        second.release();
        assertThat(t.local().memory.keptNow()).as("scratch and output back in the pool").isEqualTo(2);
        assertThat(t.b().decode(EnvelopeCodecs.forSettings(PARQUET).encode(range(0, 100)), "x")).as("decodes as its codec")
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
        Tee t = Tee.of(64L << 20);
        t.a().encodeObject(range(0, 100)).release();
        t.a().encodeObject(range(100, 200)).release();
        t.b().encodeObject(range(50, 150)).release(); // cut elsewhere: 0-99 is never taken (dropped), 100-199 may still be
        assertThat(t.offsite().encoded).hasValue(1);
        assertThat(t.shared().waitingBytes()).as("100-199 waits; nothing of 50-149 for local, which is past it").isEqualTo(
                EnvelopeCodecs.forSettings(PARQUET).encode(range(100, 200)).length);
        t.b().encodeObject(range(100, 200)).release();
        assertThat(t.offsite().encoded).as("taken").hasValue(1);
        t.a().encodeObject(range(200, 300)).release();
        assertThat(t.shared().waitingBytes()).as("only 200-299 waits, for offsite").isEqualTo(
                EnvelopeCodecs.forSettings(PARQUET).encode(range(200, 300)).length);
        t.b().encodeObject(range(200, 300)).release();
        assertThat(t.offsite().encoded).hasValue(1);
        assertThat(t.shared().waitingBytes()).isZero();

        long one = EnvelopeCodecs.forSettings(PARQUET).encode(range(0, 100)).length;
        Tee small = Tee.of(one * 2 + one / 2);
        small.a().encodeObject(range(0, 100)).release();
        small.a().encodeObject(range(100, 200)).release();
        small.a().encodeObject(range(200, 300)).release(); // the oldest goes
        assertThat(small.shared().waitingBytes()).isLessThanOrEqualTo(one * 2 + one / 2);
        small.b().encodeObject(range(0, 100)).release();
        assertThat(small.offsite().encoded).as("dropped: encoded again").hasValue(1);
        small.b().encodeObject(range(100, 200)).release();
        small.b().encodeObject(range(200, 300)).release();
        assertThat(small.offsite().encoded).hasValue(1);
        assertThat(small.shared().taken()).isEqualTo(2);
    }

    @Test
    void closingDropsWhatWaitsAndKeepsNothingAfter() {
        Tee t = Tee.of(64L << 20);
        t.a().encodeObject(range(0, 100)).release();
        t.shared().close();
        assertThat(t.shared().waitingBytes()).isZero();
        assertThat(t.local().memory.keptNow()).as("the dropped bytes went back to their pool").isEqualTo(2);
        t.a().encodeObject(range(100, 200)).release();
        t.b().encodeObject(range(100, 200)).release();
        assertThat(t.offsite().encoded).hasValue(1);
        assertThatThrownBy(() -> t.a().encodeObject(List.of())).isInstanceOf(IllegalArgumentException.class);
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
