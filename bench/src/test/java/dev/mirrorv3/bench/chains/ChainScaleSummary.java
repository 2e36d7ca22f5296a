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
 * (goal listing-flat of bench/goals.txt, one CHECK line per store for bench_report), and the S3 request cost per hour
 * per partition by flush cadence and chain length, computed from the measured requests per flush and per periodic check
 * at S3's list prices.
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
    /** The store kinds of {@link ChainScaleBench}, as the CHECK lines name them. */
    private static final Map<String, String> STORES = new java.util.LinkedHashMap<>(Map.of("fs", "filesystem", "s3", "S3Proxy"));

    static {
        STORES.put(ChainScaleBench.INDEXED, "S3Proxy with a listing indexed as S3's");
    }

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

    /**
     * Requests of one operation a periodic check makes ({@code check}) and a flush makes, from the steady window (a flush
     * and a check per interval) and the burst of flushes: W = fw·F + cw·C and L = fl·F + cl·C, with cw and cl the checks
     * the windows held (their seconds over ChainScaleBench.CHECK_INTERVAL_MS). -1 where the counts are missing.
     */
    private double[] flushAndCheck(String key, String variant, String op, String source) {
        double w = median(key, variant, "steady_" + op + "_" + source);
        double l = median(key, variant, "flow_" + op + "_" + source);
        double fw = median(key, variant, "steady_flushes");
        double fl = median(key, variant, "flow_flushes");
        double cw = median(key, variant, "steady_s") * 1000 / ChainScaleBench.CHECK_INTERVAL_MS;
        double cl = median(key, variant, "flow_s") * 1000 / ChainScaleBench.CHECK_INTERVAL_MS;
        double det = cw * fl - cl * fw;
        if (w < 0 || l < 0 || fl <= 0 || det <= 0) {
            return new double[] {-1, -1};
        }
        double check = Math.max(0, (w * fl - l * fw) / det);
        return new double[] {Math.max(0, (l - cl * check) / fl), check};
    }

    /** LIST requests a periodic check makes. */
    private double perCheck(String key, String variant, String source) {
        return flushAndCheck(key, variant, "lists", source)[1];
    }

    /** LIST requests per hour in the steady window: one flush and one check per interval. */
    private double listsPerHour(String key, String variant, String source) {
        double lists = median(key, variant, "steady_lists_" + source);
        double seconds = median(key, variant, "steady_s");
        return lists < 0 || seconds <= 0 ? -1 : lists * 3600 / seconds;
    }

    /** The LIST count of a variant: the connector's metric, or the S3 server's count for a version without the metric. */
    private String source(String key, String variant) {
        return median(key, variant, "start_lists_metric") >= 0 ? "metric" : "server";
    }

    private void table() {
        String base = baseline();
        System.out.printf(Locale.ROOT, "%-10s %10s | %-27s | %-21s | %-25s | %-27s%n", "", "objects", "start-up s (main / new / ratio)",
                "LIST at start (main/new)", "LIST per check (main/new)", "verify listing s (main / new)");
        for (String key : runs.keySet()) {
            double b = median(key, base, "startup_s");
            double c = median(key, "change", "startup_s");
            System.out.printf(Locale.ROOT, "%-21s | %7.2f / %7.2f / %5s | %9s / %9s | %10s / %10s | %8.3f / %8.3f (%s)%n", key, b, c,
                    ratio(c, b), count(median(key, base, "start_lists_" + source(key, base))),
                    count(median(key, "change", "start_lists_metric")), fixed(perCheck(key, base, source(key, base))),
                    fixed(perCheck(key, "change", "metric")), median(key, base, "verify_listing_s"),
                    median(key, "change", "verify_listing_s"), ratio(median(key, "change", "verify_listing_s"),
                            median(key, base, "verify_listing_s")));
        }
        System.out.println("(LIST at start and per check: the connector's metric; for main, which has none, the S3 server's count"
                + " less the bench's own listings, n/a on the filesystem)");
    }

    /**
     * How flat each figure stays from the shortest chain to the longest, and per store the CHECK line bench_report judges by
     * goal listing-flat: the largest of this version's three ratios (start-up, LIST at start, LIST per hour).
     */
    private void flatness() {
        for (String store : STORES.keySet()) {
            List<String> keys = runs.keySet().stream().filter(k -> k.startsWith(store + " ")).toList();
            if (keys.size() < 2) {
                continue;
            }
            String first = keys.get(0);
            String last = keys.get(keys.size() - 1);
            String span = first.trim().replaceAll(" +", " ") + " -> " + last.trim().replaceAll(" +", " ").substring(store.length() + 1);
            String startup = ratio(median(last, "change", "startup_s"), median(first, "change", "startup_s"));
            String atStart = ratio(median(last, "change", "start_lists_metric"), median(first, "change", "start_lists_metric"));
            String perHour = ratio(listsPerHour(last, "change", "metric"), listsPerHour(first, "change", "metric"));
            String base = baseline();
            System.out.printf(Locale.ROOT, "flat %s: start-up %s, LIST at start %s, LIST per hour %s (goal listing-flat; main: %s, %s,"
                            + " %s)%n", span, startup, atStart, perHour,
                    ratio(median(last, base, "startup_s"), median(first, base, "startup_s")),
                    ratio(median(last, base, "start_lists_server"), median(first, base, "start_lists_server")),
                    ratio(listsPerHour(last, base, "server"), listsPerHour(first, base, "server")));
            checkLine(store, span, startup, atStart, perHour, first, last);
        }
    }

    private void checkLine(String store, String span, String startup, String atStart, String perHour, String first, String last) {
        double worst = -1;
        for (String r : List.of(startup, atStart, perHour)) {
            worst = "n/a".equals(r) ? worst : Math.max(worst, Double.parseDouble(r));
        }
        long from = Long.parseLong(first.substring(store.length()).trim());
        long to = Long.parseLong(last.substring(store.length()).trim());
        int rounds = runs.get(last).getOrDefault("change", List.of()).size();
        String why = worst < 0 ? "not measured" : from > 1000 || to < 1_000_000 ? "a run from " + from + " to " + to
                + " objects: the goal spans 1,000 to 1,000,000" : rounds < 3 ? rounds + " round(s): a result needs 3" : "";
        System.out.printf(Locale.ROOT, "CHECK listing-flat|%s|%s, %s: the largest of start-up %s, LIST at start %s and LIST per"
                + " hour %s (one flush per %d ms)|%s%n", worst < 0 ? "-" : String.format(Locale.ROOT, "%.2f", worst),
                STORES.get(store), span, startup, atStart, perHour, ChainScaleBench.CHECK_INTERVAL_MS, why);
    }

    /**
     * Requests and their price per hour per partition on S3, by flush cadence and chain length: flushes × the measured
     * requests per flush, plus 60 periodic checks × the measured requests per check, plus this version's manifests.
     */
    private void cost() {
        System.out.println();
        System.out.println("S3 requests per hour per partition (chain.check.interval.ms 60 s), from the measured requests per flush and"
                + " per check; USD at LIST $0.005, PUT $0.005, GET $0.0004 per 1,000:");
        System.out.printf(Locale.ROOT, "%-12s %21s | %-32s | %-32s%n", "flushes/h", "store, objects", "main: LIST PUT GET  USD/h",
                "new: LIST PUT GET  USD/h");
        for (int flushesPerHour : new int[] {3600, 60, 6}) {
            for (String key : runs.keySet()) {
                if (!key.startsWith("s3")) {
                    continue;
                }
                System.out.printf(Locale.ROOT, "%-12d %21s | %s | %s%n", flushesPerHour, key.trim().replaceAll(" +", " "),
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
        double flushLists = flushAndCheck(key, "change", "lists", "metric")[0];
        double check = perCheck(key, variant, source);
        if (flushLists < 0 || check < 0) {
            return String.format(Locale.ROOT, "%32s", "n/a");
        }
        boolean manifests = "change".equals(variant);
        double flows = median(key, "change", "flow_flushes");
        double flushPuts = flows > 0 ? median(key, "change", "flow_puts_metric") / flows : -1;
        // A manifest every 1,000 objects or every 24 hours: one PUT and the listing of the manifests' tail before it.
        double manifestsPerHour = manifests ? Math.max(flushesPerHour / 1000.0, 1 / 24.0) : 0;
        double lists = flushesPerHour * flushLists + CHECKS_PER_HOUR * check + manifestsPerHour;
        double puts = flushesPerHour * Math.max(0, flushPuts) + manifestsPerHour;
        double checks = median(key, variant, "steady_s") * 1000 / ChainScaleBench.CHECK_INTERVAL_MS;
        double getsPerCheck = median(key, variant, "steady_gets_metric") / checks; // a flush reads nothing
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
