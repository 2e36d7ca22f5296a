package dev.mirrorv3.connect.transforms;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.docs.ConfigDocs;
import dev.mirrorv3.testsupport.GeneratedDocs;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.junit.jupiter.api.Test;

/**
 * Every SMT setting is documented, and the SMT reference in docs/transforms.md is the one generated from the CONFIG_DEFs.
 * Regenerate it with {@code mvn -pl transforms -am test -Dtest=TransformsReferenceTest
 * -Dsurefire.failIfNoSpecifiedTests=false -DupdateReadme=true}.
 */
class TransformsReferenceTest {
    private static final String START =
            "<!-- transforms-config:start (generated from the SMTs' CONFIG_DEFs; see TransformsReferenceTest) -->";
    private static final String END = "<!-- transforms-config:end -->";

    /** class names as used in a connector's transforms.*.type, with their overview and settings. */
    static Map<String, Object[]> smts() {
        Map<String, Object[]> smts = new LinkedHashMap<>();
        smts.put("dev.mirrorv3.connect.transforms.ValidateFormat$Key / $Value",
                new Object[] {ValidateFormat.OVERVIEW_DOC, ValidateFormat.CONFIG_DEF});
        smts.put(InsertSourcePosition.class.getName(), new Object[] {InsertSourcePosition.OVERVIEW_DOC, InsertSourcePosition.CONFIG_DEF});
        return smts;
    }

    static String generated() {
        StringBuilder sb = new StringBuilder("\n");
        smts().forEach((name, v) -> sb.append("### `").append(name).append("`\n\n").append(v[0]).append("\n\n")
                .append(ConfigDocs.markdown((ConfigDef) v[1]).replace("#### ", "#### Settings: ")));
        return sb.toString();
    }

    @Test
    void everySettingIsDocumentedGroupedAndDisplayed() {
        for (Object[] v : smts().values()) {
            for (ConfigDef.ConfigKey key : ((ConfigDef) v[1]).configKeys().values()) {
                assertThat(key.documentation).as("documentation of " + key.name).isNotBlank();
                assertThat(key.group).as("group of " + key.name).isNotBlank();
                assertThat(key.displayName).as("display name of " + key.name).isNotBlank();
            }
            assertThat((String) v[0]).isNotBlank();
        }
    }

    @Test
    void transformsPageHoldsTheGeneratedReference() throws Exception {
        // generated() starts with its own newline, as GeneratedDocs expects of the text after the start marker
        GeneratedDocs.checkSection(GeneratedDocs.TRANSFORMS, START, END, generated().substring(1), "SMT");
    }
}
