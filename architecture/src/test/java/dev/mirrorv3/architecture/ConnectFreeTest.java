package dev.mirrorv3.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static dev.mirrorv3.architecture.Modules.CHAIN_CORE;
import static dev.mirrorv3.architecture.Modules.CONNECTOR_SINK_BLOB;
import static dev.mirrorv3.architecture.Modules.CONNECTOR_SINK_KAFKA;
import static dev.mirrorv3.architecture.Modules.CONNECTOR_SOURCE_CHAIN;
import static dev.mirrorv3.architecture.Modules.KAFKA_CORE;
import static dev.mirrorv3.architecture.Modules.KAFKA_SUPPORT;
import static dev.mirrorv3.architecture.Modules.RESTORE_CLI;
import static dev.mirrorv3.architecture.Modules.RESTORE_ENGINE;
import static dev.mirrorv3.architecture.Modules.TRANSFORMS;

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
    private static final String KAFKA_PACKAGE = "dev.mirrorv3.kafka.";

    @ArchTest
    static final ArchRule chainCoreImportsNoKafka = noClasses().that(CHAIN_CORE.classes())
            .should().dependOnClassesThat().resideInAPackage("org.apache.kafka..")
            .because("chain-core is the backup format and its stores, with no Kafka or Connect dependency");

    @ArchTest
    static final ArchRule kafkaCoreImportsNoConnect = noClasses().that(KAFKA_CORE.classes())
            .should().dependOnClassesThat().resideInAPackage("org.apache.kafka.connect..")
            .because("kafka-core (positions, retries, failures, config fragments, metrics) compiles without connect-api:"
                    + " what needs Connect lives in kafka-support");

    /**
     * kafka-core's failure decisions know Connect's exceptions only when told (kafka-support's ConnectFailures): code
     * that runs in a Connect worker never uses their Connect-free forms, which would take Connect's RetriableException
     * for a fatal failure.
     */
    @ArchTest
    static final ArchRule connectCodeClassifiesWithConnectsKinds = noClasses()
            .that(Modules.classesOf(KAFKA_SUPPORT, CONNECTOR_SINK_BLOB, CONNECTOR_SINK_KAFKA, CONNECTOR_SOURCE_CHAIN, TRANSFORMS))
            .should().callMethod(KAFKA_PACKAGE + "Failures", "isTransient", Throwable.class.getName())
            .orShould().callMethod(KAFKA_PACKAGE + "FailureVerdict", "of", Throwable.class.getName())
            .orShould().callConstructor(KAFKA_PACKAGE + "PerPartition")
            .orShould().callConstructor(KAFKA_PACKAGE + "PartitionRetry", "long", "long", Runnable.class.getName())
            .because("a Connect task meets Connect's RetriableException and DataException: it asks ConnectFailures, or hands"
                    + " ConnectFailures.KINDS to kafka-core");

    @ArchTest
    static final ArchRule restoreEngineAndCliImportNoConnect = noClasses().that(Modules.classesOf(RESTORE_ENGINE, RESTORE_CLI))
            .should().dependOnClassesThat().resideInAPackage("org.apache.kafka.connect..")
            .orShould().dependOnClassesThat(KAFKA_SUPPORT.classes())
            .because("the restore CLI runs without a Connect worker and ships without connect-api: kafka-support, which"
                    + " needs it, is on its class path only for the connectors' config classes");
}
