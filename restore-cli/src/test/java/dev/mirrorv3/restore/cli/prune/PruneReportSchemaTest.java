package dev.mirrorv3.restore.cli.prune;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import dev.mirrorv3.chain.meta.MetaName;
import dev.mirrorv3.chain.prune.MetaPrune;
import dev.mirrorv3.chain.prune.PartitionPrune;
import java.time.Instant;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The prune report's schema accepts every shape prune writes and refuses a report that drifted from it. */
class PruneReportSchemaTest {
    static final ObjectName OBJECT = ObjectName.plain(0, 99, EnvelopeFormat.PARQUET);

    ObjectNode report(MetaPrune meta) throws Exception {
        PartitionPrune p = new PartitionPrune(0, OptionalLong.of(100), List.of(new PartitionPrune.Removed(OBJECT, 10)),
                List.of(new PartitionPrune.Locked(ObjectName.plain(100, 199, EnvelopeFormat.PARQUET), "locked")), 2, 20);
        return (ObjectNode) new ObjectMapper().readTree(PruneReport.json("c", "t", "chain", false, Instant.EPOCH, List.of(p), meta));
    }

    @Test
    void acceptsWhatPruneWritesWithAndWithoutMeta() throws Exception {
        MetaPrune meta = new MetaPrune(List.of(new MetaPrune.Removed("_meta/topic", new MetaName(5, null), 3)),
                List.of(new MetaPrune.Locked("_meta/groups", new MetaName(6, "k1"), "locked")), 4);
        assertThat(PruneReportSchema.errors(report(meta))).isEmpty();
        assertThat(PruneReportSchema.errors(report(null))).isEmpty();
    }

    @Test
    void refusesAReportThatDriftedFromIt() throws Exception {
        ObjectNode extra = report(null);
        extra.put("removed_total", 1);
        assertThat(PruneReportSchema.errors(extra)).as("a field the schema does not describe").isNotEmpty();
        ObjectNode missing = report(null);
        missing.remove("cut");
        assertThat(PruneReportSchema.errors(missing)).as("a required field gone").isNotEmpty();
        ObjectNode wrongKind = report(null);
        wrongKind.put("kind", "log");
        assertThat(PruneReportSchema.errors(wrongKind)).isNotEmpty();
        ObjectNode badName = report(null);
        ((ObjectNode) badName.at("/partitions/0/removed/0")).put("object", "0-99.parquet");
        assertThat(PruneReportSchema.errors(badName)).as("an object name not a chain object's").isNotEmpty();
    }
}
