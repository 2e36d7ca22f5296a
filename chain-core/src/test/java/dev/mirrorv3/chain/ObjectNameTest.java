package dev.mirrorv3.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class ObjectNameTest {

    @Test
    void formatsWithTwentyDigitPadding() {
        assertThat(ObjectName.plain(100, 199, EnvelopeFormat.NDJSON).fileName())
                .isEqualTo("00000000000000000100-00000000000000000199.ndjson");
        assertThat(new ObjectName(0, 9, EnvelopeFormat.PARQUET, "k-2026").fileName())
                .isEqualTo("00000000000000000000-00000000000000000009.k-k-2026.parquet");
    }

    @Test
    void parsesOurFormsOnly() {
        assertThat(ObjectName.parse("00000000000000000100-00000000000000000199.parquet"))
                .contains(ObjectName.plain(100, 199, EnvelopeFormat.PARQUET));
        assertThat(ObjectName.parse("00000000000000000000-00000000000000000009.k-key1.parquet"))
                .contains(new ObjectName(0, 9, EnvelopeFormat.PARQUET, "key1"));
        // mirror-v3 accepted these; one spelling per object means we do not.
        assertThat(ObjectName.parse("5-9.ndjson")).isEmpty();
        assertThat(ObjectName.parse("+0000000000000000100-00000000000000000199.parquet")).isEmpty();
        assertThat(ObjectName.parse("00000000000000000100-00000000000000000199.csv")).isEmpty();
        assertThat(ObjectName.parse("00000000000000000000-00000000000000000009.k-key1.ndjson")).isEmpty();
        assertThat(ObjectName.parse("00000000000000000000-00000000000000000009.k-Key1.parquet")).isEmpty();
        assertThat(ObjectName.parse("00000000000000000000-00000000000000000009.k-.parquet")).isEmpty();
        assertThat(ObjectName.parse("99999999999999999999-99999999999999999999.parquet")).isEmpty();
        assertThat(ObjectName.parse("00000000000000000100-00000000000000000199.parquet.tmp.x")).isEmpty();
    }

    @Test
    void refusesInvalidKeyIds() {
        assertThatThrownBy(() -> new ObjectName(0, 1, EnvelopeFormat.PARQUET, "-bad"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ObjectName(0, 1, EnvelopeFormat.NDJSON, "key"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(ObjectName.isValidKeyId("a".repeat(32))).isTrue();
        assertThat(ObjectName.isValidKeyId("a".repeat(33))).isFalse();
    }

    @Property(tries = 200)
    void roundTripsAndSortsByOffset(@ForAll @LongRange(min = 0, max = Long.MAX_VALUE - 1) long a,
                                    @ForAll @LongRange(min = 0, max = Long.MAX_VALUE - 1) long b) {
        ObjectName x = ObjectName.plain(a, a, EnvelopeFormat.PARQUET);
        ObjectName y = ObjectName.plain(b, b, EnvelopeFormat.PARQUET);
        assertThat(ObjectName.parse(x.fileName())).contains(x);
        assertThat(Integer.signum(x.fileName().compareTo(y.fileName()))).isEqualTo(Long.signum(Long.compare(a, b)));
    }
}
