package dev.mirrorv3.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.describe;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import com.tngtech.archunit.library.dependencies.SliceRule;
import com.tngtech.archunit.library.dependencies.SlicesRuleDefinition;
import java.util.List;
import java.util.Set;

/**
 * No import cycle among a module's packages: each package depends one way. Maven keeps the modules acyclic, so a cycle
 * of packages always lies inside one module, and one rule over every package covers each module.
 *
 * <p>A module's entry point, which assembles its packages into a process, is a slice of its own rather than part of its
 * package: {@code mirror-v3}'s {@code Main} and {@code MirrorV3Command} name every subcommand, and the subcommands use
 * the shared classes beside them in {@code dev.mirrorv3.restore.cli}; the cache sidecar's {@code Main} and
 * {@code Sidecar} wire its HTTP API to the caches beside them. Nothing else may depend on an entry point.
 */
@AnalyzeClasses(packages = "dev.mirrorv3", importOptions = ImportOption.DoNotIncludeTests.class)
class PackageCyclesTest {

    /** The classes that assemble a module's packages into a process (see the class comment). */
    static final Set<String> ENTRY_POINTS = Set.of(
            "dev.mirrorv3.restore.cli.Main", "dev.mirrorv3.restore.cli.MirrorV3Command",
            "dev.mirrorv3.cache.Main", "dev.mirrorv3.cache.Sidecar");

    /**
     * The cycles there are today, each by the one dependency that closes it (ignored by the rule, so that any other
     * dependency closing a cycle fails it). Break one and remove its line: {@link #everyKnownCycleStillCloses} fails
     * on a line whose dependency is gone.
     */
    static final List<KnownCycle> KNOWN_CYCLES = List.of(
            // chain -> chain.envelope -> chain.crypto -> chain: an object name knows its format's extension
            new KnownCycle("dev.mirrorv3.chain.ObjectName", "dev.mirrorv3.chain.envelope.EnvelopeFormat"),
            new KnownCycle("dev.mirrorv3.chain.ChainValidator", "dev.mirrorv3.chain.envelope.EnvelopeFormat"),
            new KnownCycle("dev.mirrorv3.chain.ChainException", "dev.mirrorv3.chain.envelope.EnvelopeFormat"),
            new KnownCycle("dev.mirrorv3.chain.SnapshotChain", "dev.mirrorv3.chain.envelope.EnvelopeFormat"),
            // chain.store <-> chain.store.s3: StoreFactory builds the S3 store, which implements chain.store's Store
            new KnownCycle("dev.mirrorv3.chain.store.StoreFactory", "dev.mirrorv3.chain.store.s3.."),
            // kafka <-> kafka.config (and through kafka.groups): the group seeder reads a sink's topics list
            new KnownCycle("dev.mirrorv3.kafka.GroupOffsetSeeder", "dev.mirrorv3.kafka.config.TopicsSetting"));

    @ArchTest
    static final ArchRule packagesDependOneWay = packagesFreeOfCycles();

    @ArchTest
    static void everyKnownCycleStillCloses(JavaClasses classes) {
        for (KnownCycle known : KNOWN_CYCLES) {
            boolean present = classes.stream().filter(known.origin()::test)
                    .flatMap(c -> c.getDirectDependenciesFromSelf().stream())
                    .anyMatch(d -> known.target().test(d.getTargetClass()));
            if (!present) {
                throw new AssertionError("the known cycle " + known + " no longer closes: remove it from KNOWN_CYCLES");
            }
        }
    }

    private static ArchRule packagesFreeOfCycles() {
        SliceRule rule = SlicesRuleDefinition.slices().assignedFrom(packagesAndEntryPoints()).should().beFreeOfCycles();
        for (KnownCycle known : KNOWN_CYCLES) {
            rule = rule.ignoreDependency(known.origin(), known.target());
        }
        return rule.because("a module's packages depend one way (docs/architecture.md, \"What each module may import\")");
    }

    /** A slice per package under dev.mirrorv3, and one per entry point. */
    private static SliceAssignment packagesAndEntryPoints() {
        return new SliceAssignment() {
            @Override
            public SliceIdentifier getIdentifierOf(JavaClass c) {
                if (!c.getPackageName().startsWith("dev.mirrorv3")) {
                    return SliceIdentifier.ignore();
                }
                String top = topLevel(c.getName());
                return ENTRY_POINTS.contains(top) ? SliceIdentifier.of(top + " (entry point)") : SliceIdentifier.of(c.getPackageName());
            }

            @Override
            public String getDescription() {
                return "the packages under dev.mirrorv3 and the entry points";
            }
        };
    }

    private static String topLevel(String className) {
        int nested = className.indexOf('$');
        return nested < 0 ? className : className.substring(0, nested);
    }

    /**
     * A dependency that closes a cycle today: from a class (and its nested classes) to a class, or to a package when
     * {@code target} ends with "..".
     */
    record KnownCycle(String from, String to) {
        DescribedPredicate<JavaClass> origin() {
            return describe(from, c -> topLevel(c.getName()).equals(from));
        }

        DescribedPredicate<JavaClass> target() {
            return describe(to, c -> to.endsWith("..") ? c.getPackageName().startsWith(to.substring(0, to.length() - 2))
                    : c.getName().equals(to));
        }

        @Override
        public String toString() {
            return from + " -> " + to;
        }
    }
}
