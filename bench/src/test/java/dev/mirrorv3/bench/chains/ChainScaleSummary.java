package dev.mirrorv3.bench.chains;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The summary of {@link ChainScaleBench}'s RESULT lines: per store and chain length the medians over the rounds of each
 * variant, the ratios this version / baseline, how flat this version stays from the shortest chain to the longest
 * (goal: start-up and LIST requests within 2×), and the S3 request cost per hour per partition by flush cadence and chain
 * length, computed from the measured requests per flush and per periodic check at S3's list prices.
 *
 * <p>Usage: {@code ChainScaleSummary <results file>}
 */
public final class ChainScaleSummary {
    /** S3 Standard request prices, USD per 1,000 requests (us-east-1). */
    static final double LIST_PRICE = 0.005;
    static final double PUT_PRICE = 0.005;
    static final double GET_PRICE = 0.0004;
    /** The default chain.check.interval.ms the cost table is computed for. */
    static final double CHECKS_PER_HOUR = 60;

    private final Map<String, Map<String, List<Map<String, Double>>>> runs = new TreeMap<>(); // "store size" -> variant -> rounds

    private ChainScaleSummary(List<String> lines) {
        for (String line : lines) {
            String[] f = line.trim().split(" +");
            if (f.length < 6 || !"RESULT".equals(f[0]) || !"chains".equals(f[1])) {
                continue;
            }
            Map<String, Double> values = new HashMap<>();
            for (int i = 6; i < f.length; i++) {
                String[] kv = f[i].split("=", 2);
                values.put(kv[0], Double.valueOf(kv[1]));
            }
            String key = String.format(Locale.ROOT, "%s %10d", f[3], Long.parseLong(f[4]));
            runs.computeIfAbsent(key, k -> new TreeMap<>()).computeIfAbsent(f[2], k -> new ArrayList<>()).add(values);
        }
    }

    public static void main(String[] args) throws Exception {
        ChainScaleSummary s = new ChainScaleSummary(Files.readAllLines(Path.of(args[0])));
        s.table();
        s.flatness();
        s.cost();
    }

    private double median(String key, String variant, String field) {
        List<Map<String, Double>> rounds = runs.getOrDefault(key, Map.of()).getOrDefault(variant, List.of());
        List<Double> v = rounds.stream().map(r -> r.getOrDefault(field, -1.0)).filter(x -> x >= 0).sorted().toList();
        if (v.isEmpty()) {
            return -1;
        }
        int n = v.size();
        return n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
    }

    private String baseline() {
        return variants().stream().filter(v -> v.startsWith("baseline")).findFirst().orElse("baseline");
    }

    private TreeSet<String> variants() {
        TreeSet<String> names = new TreeSet<>();
        runs.values().forEach(m -> names.addAll(m.keySet()));
        return names;
    }

    /** LIST requests a periodic check makes, from the idle window (one check every ChainScaleBench.CHECK_INTERVAL_MS). */
    private double perCheck(String key, String variant, String source) {
        return perCheckOf(key, variant, "idle_lists_" + source);
    }

    private double perCheckOf(String key, String variant, String field) {
        double requests = median(key, variant, field);
        double seconds = median(key, variant, "idle_s");
        return requests < 0 || seconds <= 0 ? -1 : requests / (seconds * 1000 / ChainScaleBench.CHECK_INTERVAL_MS);
    }

    /** The LIST count of a variant: the connector's metric, or the S3 server's count for a version without the metric. */
    private String source(String key, String variant) {
        return median(key, variant, "start_lists_metric") >= 0 ? "metric" : "server";
    }

    private void table() {
        String base = baseline();
        System.out.printf(Locale.ROOT, "%-3s %10s | %-27s | %-21s | %-25s | %-27s%n", "", "objects", "start-up s (main / new / ratio)",
                "LIST at start (main/new)", "LIST per check (main/new)", "verify listing s (main / new)");
        for (String key : runs.keySet()) {
            double b = median(key, base, "startup_s");
            double c = median(key, "change", "startup_s");
            System.out.printf(Locale.ROOT, "%-14s | %7.2f / %7.2f / %5s | %9s / %9s | %10s / %10s | %8.3f / %8.3f (%s)%n", key, b, c,
                    ratio(c, b), count(median(key, base, "start_lists_" + source(key, base))),
                    count(median(key, "change", "start_lists_metric")), fixed(perCheck(key, base, source(key, base))),
                    fixed(perCheck(key, "change", "metric")), median(key, base, "verify_listing_s"),
                    median(key, "change", "verify_listing_s"), ratio(median(key, "change", "verify_listing_s"),
                            median(key, base, "verify_listing_s")));
        }
        System.out.println("(LIST at start and per check: the connector's metric; for main, which has none, the S3 server's count"
                + " less the bench's own listings, n/a on the filesystem)");
    }

    private void flatness() {
        for (String store : List.of("fs", "s3")) {
            List<String> keys = runs.keySet().stream().filter(k -> k.startsWith(store + " ")).toList();
            if (keys.size() < 2) {
                continue;
            }
            String first = keys.get(0);
            String last = keys.get(keys.size() - 1);
            String span = first.trim().replaceAll(" +", " ") + " -> " + last.trim().replaceAll(" +", " ").substring(store.length() + 1);
            System.out.printf(Locale.ROOT, "flat %s: start-up %s, LIST at start %s, LIST per check %s (goal <= 2 each; main: %s, %s,"
                            + " %s)%n", span,
                    ratio(median(last, "change", "startup_s"), median(first, "change", "startup_s")),
                    ratio(median(last, "change", "start_lists_metric"), median(first, "change", "start_lists_metric")),
                    ratio(perCheck(last, "change", "metric"), perCheck(first, "change", "metric")),
                    ratio(median(last, baseline(), "startup_s"), median(first, baseline(), "startup_s")),
                    ratio(median(last, baseline(), "start_lists_server"), median(first, baseline(), "start_lists_server")),
                    ratio(perCheck(last, baseline(), "server"), perCheck(first, baseline(), "server")));
        }
    }

    /**
     * Requests and their price per hour per partition on S3, by flush cadence and chain length: flushes × the measured
     * requests per flush, plus 60 periodic checks × the measured requests per check, plus this version's manifests.
     */
    private void cost() {
        System.out.println();
        System.out.println("S3 requests per hour per partition (chain.check.interval.ms 60 s), from the measured requests per flush and"
                + " per check; USD at LIST $0.005, PUT $0.005, GET $0.0004 per 1,000:");
        System.out.printf(Locale.ROOT, "%-12s %10s | %-32s | %-32s%n", "flushes/h", "objects", "main: LIST PUT GET  USD/h",
                "new: LIST PUT GET  USD/h");
        for (int flushesPerHour : new int[] {3600, 60, 6}) {
            for (String key : runs.keySet()) {
                if (!key.startsWith("s3 ")) {
                    continue;
                }
                System.out.printf(Locale.ROOT, "%-12d %10s | %s | %s%n", flushesPerHour, key.substring(3).trim(),
                        hourly(key, baseline(), "server", flushesPerHour), hourly(key, "change", "metric", flushesPerHour));
            }
        }
    }

    /**
     * One cell of the cost table. A flush makes the same requests in both versions (the tail check's listing, the PUT, the
     * twin check's listing: the same code), so both use this version's per-flush counts from its metric; main's own
     * estimate from the S3 server's count is drowned by its periodic checks on a long chain.
     */
    private String hourly(String key, String variant, String source, int flushesPerHour) {
        double flushLists = median(key, "change", "flush_lists_metric");
        double check = perCheck(key, variant, source);
        if (flushLists < 0 || check < 0) {
            return String.format(Locale.ROOT, "%32s", "n/a");
        }
        boolean manifests = "change".equals(variant);
        double flushPuts = median(key, "change", "flush_puts_metric");
        // A manifest every 1,000 objects or every 24 hours: one PUT and the listing of the manifests' tail before it.
        double manifestsPerHour = manifests ? Math.max(flushesPerHour / 1000.0, 1 / 24.0) : 0;
        double lists = flushesPerHour * flushLists + CHECKS_PER_HOUR * check + manifestsPerHour;
        double puts = flushesPerHour * Math.max(0, flushPuts) + manifestsPerHour;
        double getsPerCheck = perCheckOf(key, variant, "idle_gets_metric");
        double gets = CHECKS_PER_HOUR * Math.max(0, getsPerCheck); // the probe's manifest; main's check reads nothing
        double usd = (lists * LIST_PRICE + puts * PUT_PRICE + gets * GET_PRICE) / 1000;
        return String.format(Locale.ROOT, "%7.0f %6.0f %5.0f  %9.5f", lists, puts, gets, usd);
    }

    private static String ratio(double a, double b) {
        return a < 0 || b <= 0 ? "n/a" : String.format(Locale.ROOT, "%.2f", a / b);
    }

    private static String count(double v) {
        return v < 0 ? "n/a" : String.format(Locale.ROOT, "%.0f", v);
    }

    private static String fixed(double v) {
        return v < 0 ? "n/a" : String.format(Locale.ROOT, "%.2f", v);
    }
}
