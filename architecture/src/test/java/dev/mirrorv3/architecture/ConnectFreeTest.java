package dev.mirrorv3.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static dev.mirrorv3.architecture.Modules.CHAIN_CORE;
import static dev.mirrorv3.architecture.Modules.KAFKA_SUPPORT;
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

    /** The sink skeletons and their failures: kafka-support's one Connect-bound package today. */
    static final String KAFKA_SUPPORT_CONNECT_PACKAGE = "dev.mirrorv3.kafka.sink..";

    @ArchTest
    static final ArchRule chainCoreImportsNoKafka = noClasses().that(CHAIN_CORE.classes())
            .should().dependOnClassesThat().resideInAPackage("org.apache.kafka..")
            .because("chain-core is the backup format and its stores, with no Kafka or Connect dependency");

    @ArchTest
    static final ArchRule kafkaSupportImportsConnectOnlyInItsSinkPackage = noClasses().that(KAFKA_SUPPORT.classes())
            .and().resideOutsideOfPackage(KAFKA_SUPPORT_CONNECT_PACKAGE)
            .should().dependOnClassesThat().resideInAnyPackage("org.apache.kafka.connect..", KAFKA_SUPPORT_CONNECT_PACKAGE)
            .because("kafka-support's Connect-free part (positions, retries, config fragments, metrics) is to compile without"
                    + " connect-api, as its own module one day");

    @ArchTest
    static final ArchRule restoreEngineAndCliImportNoConnect = noClasses().that(Modules.classesOf(RESTORE_ENGINE, RESTORE_CLI))
            .should().dependOnClassesThat().resideInAPackage("org.apache.kafka.connect..")
            .because("the restore CLI runs without a Connect worker and ships without connect-api");
}
