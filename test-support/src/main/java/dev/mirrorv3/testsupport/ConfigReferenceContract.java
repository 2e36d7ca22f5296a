package dev.mirrorv3.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Function;
import org.apache.kafka.common.config.ConfigDef;
import org.junit.jupiter.api.Test;

/**
 * Every setting of a connector's ConfigDef is documented, grouped and displayed, its secrets are passwords (Connect
 * masks them), and its section of docs/configuration.md is the reference generated from it: each connector's reference
 * test subclasses this with its ConfigDef, its secrets and the markers of its section. Regenerate the section with
 * {@code -DupdateReadme=true} ({@link GeneratedDocs#checkSection}).
 */
public abstract class ConfigReferenceContract {
    private final ConfigDef config;
    private final List<String> secrets;
    /** Checks the section of docs/configuration.md, or writes it when regenerating; returns what it holds. */
    private final Callable<String> section;

    /**
     * @param secrets the settings that hold a secret
     * @param start the comment that opens the generated section in docs/configuration.md ({@code end} closes it)
     * @param markdown renders the reference of a ConfigDef
     * @param title names the section in assertion messages
     */
    protected ConfigReferenceContract(ConfigDef config, List<String> secrets, String start, String end,
                                      Function<ConfigDef, String> markdown, String title) {
        this.config = config;
        this.secrets = secrets;
        this.section = () -> GeneratedDocs.checkSection(GeneratedDocs.CONFIGURATION, start, end, markdown.apply(config), title);
    }

    @Test
    void everySettingIsDocumentedGroupedAndDisplayed() {
        GeneratedDocs.assertDocumentedGroupedAndDisplayed(config);
    }

    @Test
    void secretsArePasswords() {
        for (String key : secrets) {
            assertThat(config.configKeys().get(key).type).as(key).isEqualTo(ConfigDef.Type.PASSWORD);
        }
    }

    @Test
    void configurationPageHoldsTheGeneratedReference() throws Exception {
        section.call();
    }
}
