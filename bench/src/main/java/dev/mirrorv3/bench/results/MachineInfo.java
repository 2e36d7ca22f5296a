package dev.mirrorv3.bench.results;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** This machine and its load, read from /proc where Linux has them. */
final class MachineInfo {
    private MachineInfo() {
    }

    static RunRecord.Machine current() {
        return new RunRecord.Machine(Runtime.getRuntime().availableProcessors(), memoryMib(), cpu(),
                System.getProperty("os.name") + " " + System.getProperty("os.version"), System.getProperty("java.version"));
    }

    /** The 1, 5 and 15 minute load averages, empty where /proc/loadavg is missing. */
    static List<Double> load() {
        try {
            return parseLoad(Files.readString(Path.of("/proc/loadavg")));
        } catch (IOException e) {
            return List.of();
        }
    }

    static List<Double> parseLoad(String text) {
        List<Double> out = new ArrayList<>();
        String[] f = text.trim().split("\\s+");
        for (int i = 0; i < Math.min(3, f.length); i++) {
            try {
                out.add(Double.valueOf(f[i]));
            } catch (NumberFormatException e) {
                return List.of();
            }
        }
        return out;
    }

    private static long memoryMib() {
        return field(Path.of("/proc/meminfo"), "MemTotal:").map(v -> Long.parseLong(v.replaceAll("[^0-9]", "")) / 1024).orElse(0L);
    }

    private static String cpu() {
        return field(Path.of("/proc/cpuinfo"), "model name").map(v -> v.replaceFirst("^[\\s:]+", "")).orElse("unknown");
    }

    private static java.util.Optional<String> field(Path file, String prefix) {
        try {
            return Files.readAllLines(file).stream().filter(l -> l.startsWith(prefix)).map(l -> l.substring(prefix.length()).trim())
                    .findFirst();
        } catch (IOException e) {
            return java.util.Optional.empty();
        }
    }
}
