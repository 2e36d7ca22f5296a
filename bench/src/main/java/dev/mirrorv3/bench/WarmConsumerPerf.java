package dev.mirrorv3.bench;

import dev.mirrorv3.quickstart.Usage;
import java.util.Locale;
import org.apache.kafka.tools.ConsumerPerformance;

/**
 * Kafka's consumer perf tool as the broker's limit, run warm: in one JVM it reads a warm-up topic once (class loading,
 * JIT, a first group join; not timed), then reads the timed topic in a fresh group, timed by wall clock from the call to
 * its return (group join, fetching, close: as a connector run is timed from its deploy on a warm worker). Its own
 * output (the header and the figures line, twice) goes to standard output, the timed run's last.
 *
 * <p>Prints {@code RESULT <label> <records> <seconds> <records/s>} for the script's summary.
 *
 * <p>Usage: {@code WarmConsumerPerf <label> <bootstrap> <warm-up topic> <warm-up records> <topic> <records> <group>}
 */
public final class WarmConsumerPerf {
    private WarmConsumerPerf() {
    }

    public static void main(String[] args) {
        Usage.exactly(args, 7, "WarmConsumerPerf <label> <bootstrap> <warm-up topic> <warm-up records> <topic> <records> <group>");
        ConsumerPerformance.main(new String[] {"--bootstrap-server", args[1], "--topic", args[2], "--messages", args[3],
            "--group", args[6] + "-warmup", "--timeout", "60000"});
        long t0 = System.nanoTime();
        ConsumerPerformance.main(new String[] {"--bootstrap-server", args[1], "--topic", args[4], "--messages", args[5],
            "--group", args[6], "--timeout", "60000"});
        double seconds = (System.nanoTime() - t0) / 1e9;
        long records = Long.parseLong(args[5]);
        System.out.printf(Locale.ROOT, "RESULT %s %d %.3f %.0f%n", args[0], records, seconds, records / seconds);
    }
}
