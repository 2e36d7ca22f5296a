package dev.mirrorv3.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static dev.mirrorv3.architecture.Modules.CHAIN_CORE;
import static dev.mirrorv3.architecture.Modules.KAFKA_CORE;
import static dev.mirrorv3.architecture.Modules.RESTORE_CLI;
import static dev.mirrorv3.architecture.Modules.RESTORE_ENGINE;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * Where Kafka Connect may be imported (docs/architecture.md, "What each module may import"): the logic shared by the
 * connectors, the restore engine and the CLI is tested and run without a Connect worker.
 */
@AnalyzeClasses(packages = "dev.mirrorv3", importOptions = ImportOption.DoNotIncludeTests.class)
class ConnectFreeTest {

    @ArchTest
    static final ArchRule chainCoreImportsNoKafka = noClasses().that(CHAIN_CORE.classes())
            .should().dependOnClassesThat().resideInAPackage("org.apache.kafka..")
            .because("chain-core is the backup format and its stores, with no Kafka or Connect dependency");

    @ArchTest
    static final ArchRule kafkaCoreImportsNoConnect = noClasses().that(KAFKA_CORE.classes())
            .should().dependOnClassesThat().resideInAPackage("org.apache.kafka.connect..")
            .because("kafka-core (positions, retries, failures, config fragments, metrics) compiles without connect-api:"
                    + " what needs Connect lives in kafka-support");

    @ArchTest
    static final ArchRule restoreEngineAndCliImportNoConnect = noClasses().that(Modules.classesOf(RESTORE_ENGINE, RESTORE_CLI))
            .should().dependOnClassesThat().resideInAPackage("org.apache.kafka.connect..")
            .because("the restore CLI runs without a Connect worker and ships without connect-api");
}
