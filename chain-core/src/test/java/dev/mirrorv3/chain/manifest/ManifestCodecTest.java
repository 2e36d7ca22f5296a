package dev.mirrorv3.chain.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ManifestCodecTest {
    private static final String SHA = "a".repeat(64);

    private static ObjectName plain(long from, long to) {
        return ObjectName.plain(from, to, EnvelopeFormat.PARQUET);
    }

    private static Manifest recorded() {
        return Manifest.recorded(Manifest.Kind.CHAIN, 3, 0, new Manifest.Link("x.json", "b".repeat(64)),
                List.of(new Manifest.Entry(plain(100, 199), 10, SHA), new Manifest.Entry(new ObjectName(200, 249, EnvelopeFormat.PARQUET,
                        "k1"), 20, SHA)), Map.of("k0", plain(0, 99).fileName()));
    }

    @Test
    void aManifestReadsBackAsWrittenAndEncodesToTheSameBytesEachTime() {
        Manifest m = recorded();
        byte[] bytes = ManifestCodec.encode(m);
        assertThat(ManifestCodec.encode(m)).as("a re-issued manifest has the bytes of its first attempt").isEqualTo(bytes);
        Manifest back = ManifestCodec.decode(bytes, "where");
        assertThat(back).isEqualTo(m);
        assertThat(back.range()).isEqualTo(new ManifestName(100, 249));
        assertThat(back.keyIds()).as("the key ids of the chain so far, each with an object").containsOnlyKeys("k0", "k1");
        assertThat(new String(bytes, StandardCharsets.UTF_8)).startsWith("{\"format_version\":1,\"kind\":\"chain\",\"partition\":3,"
                + "\"start\":0,\"from\":100,\"to\":249,\"previous\":{\"name\":\"x.json\"");

        Manifest range = Manifest.unrecorded(Manifest.Kind.CHAIN, 0, 5, null, List.of(plain(5, 9), plain(10, 19)), Map.of());
        assertThat(range.recorded()).isFalse();
        assertThat(ManifestCodec.decode(ManifestCodec.encode(range), "w")).isEqualTo(range);
        assertThat(range.last()).isEqualTo(plain(10, 19));
    }

    @Test
    void aNewerFormatVersionOrNotAManifestIsRefusedNamingIt() {
        String json = new String(ManifestCodec.encode(recorded()), StandardCharsets.UTF_8);
        assertThatThrownBy(() -> ManifestCodec.decode(json.replace("\"format_version\":1", "\"format_version\":2")
                .getBytes(StandardCharsets.UTF_8), "s3://b/p/_manifest/3/m.json")).isInstanceOf(ManifestException.class)
                .hasMessageContaining("s3://b/p/_manifest/3/m.json has format_version 2").hasMessageContaining("use a newer mirror-v3");
        assertThatThrownBy(() -> ManifestCodec.decode("{\"a\"".getBytes(StandardCharsets.UTF_8), "m.json"))
                .isInstanceOf(ManifestException.class).hasMessageContaining("m.json is not a manifest this mirror-v3 can read");
        assertThatThrownBy(() -> ManifestCodec.decode(json.replace("\"from\":100", "\"from\":101").getBytes(StandardCharsets.UTF_8),
                "m.json")).isInstanceOf(ManifestException.class).hasMessageContaining("do not span its range");
        byte[] later = json.replace("{\"format_version\":1,", "{\"format_version\":1,\"added_later\":[1],")
                .getBytes(StandardCharsets.UTF_8);
        assertThat(ManifestCodec.decode(later, "m.json")).as("fields added later are ignored").isEqualTo(recorded());
    }

    @Test
    void aChainManifestsObjectsContinueEachOtherAndSnapshotsMayLeaveGaps() {
        List<Manifest.Entry> gap = List.of(new Manifest.Entry(plain(0, 9), 1, SHA), new Manifest.Entry(plain(20, 29), 1, SHA));
        assertThatThrownBy(() -> Manifest.recorded(Manifest.Kind.CHAIN, 0, 0, null, gap, Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("does not continue");
        assertThat(Manifest.recorded(Manifest.Kind.SNAPSHOTS, 0, 0, null, gap, Map.of()).range()).isEqualTo(new ManifestName(0, 29));
        assertThat(ManifestName.parse("00000000000000000000-00000000000000000029.json")).contains(new ManifestName(0, 29));
        assertThat(ManifestName.parse("00000000000000000029-00000000000000000000.json")).isEmpty();
        assertThat(ManifestName.parse("0-29.json")).isEmpty();
    }
}
