package dev.mirrorv3.connect.blob;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.docs.ConfigDocs;
import dev.mirrorv3.testsupport.GeneratedDocs;
import org.junit.jupiter.api.Test;

/**
 * Every setting is documented, grouped and displayed, and the reference in docs/configuration.md is the one generated from the
 * ConfigDef. Regenerate it with {@code mvn -pl connector-sink-blob -am test -Dtest=ConfigReferenceTest
 * -Dsurefire.failIfNoSpecifiedTests=false -DupdateReadme=true}.
 */
class ConfigReferenceTest {
    private static final String START = "<!-- blob-sink-config:start (generated from BlobSinkConfig; see ConfigReferenceTest) -->";
    private static final String END = "<!-- blob-sink-config:end -->";

    @Test
    void everySettingIsDocumentedGroupedAndDisplayed() {
        GeneratedDocs.assertDocumentedGroupedAndDisplayed(BlobSinkConfig.CONFIG_DEF);
    }

    @Test
    void configurationPageHoldsTheGeneratedReference() throws Exception {
        String current = GeneratedDocs.checkSection(GeneratedDocs.CONFIGURATION, START, END,
                ConfigDocs.markdown(BlobSinkConfig.CONFIG_DEF), "blob sink");
        if (GeneratedDocs.updatingDocs()) {
            return;
        }
        for (String key : BlobSinkConfig.CONFIG_DEF.names()) {
            assertThat(current).contains("`" + key + "`");
        }
    }
}
