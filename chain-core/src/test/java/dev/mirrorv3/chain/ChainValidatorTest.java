package dev.mirrorv3.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class ChainValidatorTest {
    private static final String LOC = "/backup/m/0";

    private static String n(long from, long to) {
        return ObjectName.plain(from, to, EnvelopeFormat.PARQUET).fileName();
    }

    private static Chain validate(List<String> names) {
        return ChainValidator.validate(LOC, names, EnvelopeFormat.PARQUET, OptionalLong.empty());
    }

    @Test
    void acceptsContiguousChainInAnyListingOrder() {
        Chain chain = validate(List.of(n(10, 19), n(0, 9), n(20, 20)));
        assertThat(chain.objects()).extracting(ObjectName::from).containsExactly(0L, 10L, 20L);
        assertThat(chain.nextOffset()).hasValue(21);
    }

    @Test
    void emptyChainHasNoNextOffset() {
        assertThat(validate(List.of()).nextOffset()).isEmpty();
    }

    @Test
    void ignoresTemporaryFiles() {
        assertThat(validate(List.of(n(0, 9), n(10, 19) + ".tmp.1234")).objects()).hasSize(1);
    }

    @Test
    void acceptsChainWhoseOldestObjectsWereRemoved() {
        assertThat(validate(List.of(n(500, 599))).nextOffset()).hasValue(600);
    }

    @Test
    void gap() {
        assertThatThrownBy(() -> validate(List.of(n(0, 9), n(15, 19))))
                .isInstanceOf(ChainException.Gap.class)
                .hasMessageContaining("offsets 10-14 are in no object")
                .hasMessageContaining(n(15, 19))
                .hasMessageContaining(LOC);
    }

    @Test
    void overlap() {
        assertThatThrownBy(() -> validate(List.of(n(0, 9), n(5, 19))))
                .isInstanceOf(ChainException.Overlap.class)
                .hasMessageContaining(n(5, 19) + " starts at 5, and the objects before it reach 9");
    }

    @Test
    void duplicateFrom() {
        assertThatThrownBy(() -> validate(List.of(n(0, 9), n(0, 4))))
                .isInstanceOf(ChainException.DuplicateFrom.class)
                .hasMessageContaining(n(0, 4)).hasMessageContaining(n(0, 9)).hasMessageContaining("both start at offset 0");
    }

    @Test
    void invertedRange() {
        assertThatThrownBy(() -> validate(List.of(n(9, 0))))
                .isInstanceOf(ChainException.InvertedRange.class).hasMessageContaining("to < from (0 < 9)");
    }

    @Test
    void foreignName() {
        assertThatThrownBy(() -> validate(List.of(n(0, 9), "notes.txt")))
                .isInstanceOf(ChainException.ForeignObject.class)
                .hasMessageContaining(LOC + "/notes.txt is not a backup object of format parquet");
    }

    @Test
    void wrongExtension() {
        String ndjson = ObjectName.plain(10, 19, EnvelopeFormat.NDJSON).fileName();
        assertThatThrownBy(() -> validate(List.of(n(0, 9), ndjson)))
                .isInstanceOf(ChainException.WrongExtension.class)
                .hasMessageContaining(ndjson + " is a ndjson object, and this chain is parquet");
    }

    @Test
    void wrongChainStart() {
        assertThatThrownBy(() -> ChainValidator.validate(LOC, List.of(n(100, 109)), EnvelopeFormat.PARQUET, OptionalLong.of(0)))
                .isInstanceOf(ChainException.WrongChainStart.class)
                .hasMessageContaining("starts at offset 100").hasMessageContaining("--chain-start 100");
        assertThat(ChainValidator.validate(LOC, List.of(n(100, 109)), EnvelopeFormat.PARQUET, OptionalLong.of(100)).objects())
                .hasSize(1);
    }
}
