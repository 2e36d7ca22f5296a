package dev.mirrorv3.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static dev.mirrorv3.architecture.Modules.BENCH;
import static dev.mirrorv3.architecture.Modules.CACHE_SIDECAR;
import static dev.mirrorv3.architecture.Modules.CHAIN_CORE;
import static dev.mirrorv3.architecture.Modules.CONFIG_DOCS;
import static dev.mirrorv3.architecture.Modules.CONNECTORS;
import static dev.mirrorv3.architecture.Modules.CONNECTOR_SINK_BLOB;
import static dev.mirrorv3.architecture.Modules.CONNECTOR_SINK_KAFKA;
import static dev.mirrorv3.architecture.Modules.CONNECTOR_SOURCE_CHAIN;
import static dev.mirrorv3.architecture.Modules.KAFKA_CORE;
import static dev.mirrorv3.architecture.Modules.KAFKA_SUPPORT;
import static dev.mirrorv3.architecture.Modules.QUICKSTART_TOOLS;
import static dev.mirrorv3.architecture.Modules.RESTORE_CLI;
import static dev.mirrorv3.architecture.Modules.RESTORE_ENGINE;
import static dev.mirrorv3.architecture.Modules.TEST_SUPPORT;
import static dev.mirrorv3.architecture.Modules.TRANSFORMS;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import com.tngtech.archunit.library.dependencies.SlicesRuleDefinition;
import java.util.Arrays;

/**
 * What each module's main code may import of the others: the table in docs/architecture.md ("What each module may
 * import"), and the rules that matter most stated on their own, so that a failure names its reason. Maven's
 * dependencies allow a module to compile against what it declares; these rules say what it is meant to, so a new
 * dependency in a pom does not silently widen a module.
 */
@AnalyzeClasses(packages = "dev.mirrorv3", importOptions = ImportOption.DoNotIncludeTests.class)
class ModuleImportsTest {

    @ArchTest
    static final ArchRule restoreEngineImportsNoConnector = noClasses().that(RESTORE_ENGINE.classes())
            .should().dependOnClassesThat(Modules.classesOf(CONNECTORS))
            .because("the restore engine serves the CLI and the chain source alike: a connector builds on it, never the reverse");

    @ArchTest
    static final ArchRule noConnectorImportsAnother = SlicesRuleDefinition.slices().assignedFrom(connectorModules())
            .should().notDependOnEachOther()
            .because("each connector is its own plugin: what two share belongs in kafka-support, kafka-core or chain-core");

    @ArchTest
    static final ArchRule nothingImportsTheCli = noClasses().that(RESTORE_CLI.outside())
            .should().dependOnClassesThat(RESTORE_CLI.classes())
            .because("the restore CLI is the top of the tree: the restore logic it runs lives in restore-engine");

    @ArchTest
    static final ArchRule modulesImportOnlyWhatTheTableAllows = moduleTable();

    private static ArchRule moduleTable() {
        LayeredArchitecture table = layeredArchitecture().consideringOnlyDependenciesInLayers()
                .ensureAllClassesAreContainedInArchitecture();
        for (Modules m : Modules.values()) {
            table = table.layer(m.dir).definedBy(m.classes());
        }
        return table
                .whereLayer(CHAIN_CORE.dir).mayNotAccessAnyLayer()
                .whereLayer(KAFKA_CORE.dir).mayOnlyAccessLayers(CHAIN_CORE.dir)
                .whereLayer(KAFKA_SUPPORT.dir).mayOnlyAccessLayers(CHAIN_CORE.dir, KAFKA_CORE.dir)
                .whereLayer(RESTORE_ENGINE.dir).mayOnlyAccessLayers(CHAIN_CORE.dir, KAFKA_CORE.dir)
                .whereLayer(CONFIG_DOCS.dir).mayOnlyAccessLayers(CHAIN_CORE.dir, KAFKA_CORE.dir)
                .whereLayer(TEST_SUPPORT.dir).mayNotAccessAnyLayer()
                .whereLayer(CONNECTOR_SINK_BLOB.dir).mayOnlyAccessLayers(CHAIN_CORE.dir, KAFKA_CORE.dir, KAFKA_SUPPORT.dir)
                .whereLayer(CONNECTOR_SINK_KAFKA.dir).mayOnlyAccessLayers(CHAIN_CORE.dir, KAFKA_CORE.dir, KAFKA_SUPPORT.dir)
                .whereLayer(CONNECTOR_SOURCE_CHAIN.dir).mayOnlyAccessLayers(CHAIN_CORE.dir, KAFKA_CORE.dir, KAFKA_SUPPORT.dir,
                        RESTORE_ENGINE.dir)
                .whereLayer(TRANSFORMS.dir).mayOnlyAccessLayers(CHAIN_CORE.dir)
                .whereLayer(QUICKSTART_TOOLS.dir).mayOnlyAccessLayers(CHAIN_CORE.dir, KAFKA_CORE.dir)
                .whereLayer(BENCH.dir).mayOnlyAccessLayers(CHAIN_CORE.dir, KAFKA_CORE.dir, KAFKA_SUPPORT.dir, QUICKSTART_TOOLS.dir)
                .whereLayer(CACHE_SIDECAR.dir).mayNotAccessAnyLayer()
                .whereLayer(RESTORE_CLI.dir).mayOnlyAccessLayers(CHAIN_CORE.dir, KAFKA_CORE.dir, RESTORE_ENGINE.dir,
                        CONNECTOR_SINK_BLOB.dir, CONNECTOR_SINK_KAFKA.dir, CONNECTOR_SOURCE_CHAIN.dir)
                .because("docs/architecture.md draws what each module may import");
    }

    /** A slice per connector module; every other class is left out. */
    private static SliceAssignment connectorModules() {
        return new SliceAssignment() {
            @Override
            public SliceIdentifier getIdentifierOf(JavaClass c) {
                String dir = Modules.moduleDir(c);
                return Arrays.stream(CONNECTORS).anyMatch(m -> m.dir.equals(dir)) ? SliceIdentifier.of(dir) : SliceIdentifier.ignore();
            }

            @Override
            public String getDescription() {
                return "the connector modules";
            }
        };
    }
}
