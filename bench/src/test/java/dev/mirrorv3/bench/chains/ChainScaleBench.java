package dev.mirrorv3.bench.chains;

import dev.mirrorv3.chain.manifest.ChainListing;
import dev.mirrorv3.chain.manifest.Manifest;
import dev.mirrorv3.chain.manifest.ManifestTrail;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.chain.store.StoreRequests;
import dev.mirrorv3.chain.store.StoreRequests.Operation;
import dev.mirrorv3.chain.store.s3.S3Identity;
import dev.mirrorv3.chain.store.s3.S3Settings;
import dev.mirrorv3.chain.store.s3.S3Store;
import dev.mirrorv3.testsupport.ConnectTestCluster;
import dev.mirrorv3.testsupport.ConnectorConfigs;
import dev.mirrorv3.testsupport.s3.S3TestServer;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Properties;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Start-up and listing cost of long chains (docs/performance.md, "Chains over years"): for each store (filesystem,
 * S3Proxy, S3Proxy with an indexed listing), chain length and variant (a plugin directory: today's main without
 * manifests, this version with them), a chain is synthesised ({@link ChainSynth}), a blob sink is deployed on a topic
 * that holds one record more, and the bench measures the time from the deploy to that record's object in the store
 * (start-up), the store's LIST requests until then, the requests over a steady window of one record (one flush) per
 * check interval, so that every periodic check runs, and over a burst of ten flushes (the summary tells a flush's
 * requests from a check's with the two), and the listing a verify pass makes before it reads objects. LIST requests
 * come from the connector's own metric (mirror_v3_store_requests_total, this version only) and, on S3, from the
 * server's count minus the bench's own listings. Prints one RESULT line per run.
 *
 * <p>Usage: {@code ChainScaleBench <sizes,...> <stores,...> <rounds> <window seconds> <fs root> <out file> <variant>=<plugin dir>...}
 */
public final class ChainScaleBench {
    static final long CHECK_INTERVAL_MS = 2000;
    private static final String BUCKET = "backups";
    private static final String ID = "bench";
    private static final String SECRET = "bench-secret";
    private static final int SYNTH_THREADS = 4;
    private static final int FLUSHES = 10;
    /**
     * The store kind whose S3 server answers listings from a sorted index of the keys, as S3 does; "s3" is S3Proxy's own
     * store, which walks every key of the bucket for each page.
     */
    static final String INDEXED = "s3-indexed";

    private final List<Integer> sizes;
    private final List<String> stores;
    private final int windowSeconds;
    private final Path fsRoot;
    private final List<String> out = new ArrayList<>();
    private final Map<String, S3TestServer> servers = new java.util.HashMap<>(); // by store kind: s3, s3-indexed
    private ConnectTestCluster cluster;

    private ChainScaleBench(List<Integer> sizes, List<String> stores, int windowSeconds, Path fsRoot) {
        this.sizes = sizes;
        this.stores = stores;
        this.windowSeconds = windowSeconds;
        this.fsRoot = fsRoot;
    }

    public static void main(String[] args) throws Exception {
        List<Integer> sizes = List.of(args[0].split(",")).stream().map(Integer::valueOf).toList();
        List<String> stores = List.of(args[1].split(","));
        int rounds = Integer.parseInt(args[2]);
        Map<String, Path> variants = new java.util.LinkedHashMap<>();
        for (int i = 6; i < args.length; i++) {
            String[] kv = args[i].split("=", 2);
            variants.put(kv[0], Path.of(kv[1]));
        }
        ChainScaleBench bench = new ChainScaleBench(sizes, stores, Integer.parseInt(args[3]), Path.of(args[4]));
        List<String> names = new ArrayList<>(variants.keySet());
        for (int round = 1; round <= rounds; round++) {
            for (int i = 0; i < names.size(); i++) {
                String variant = names.get((round - 1 + i) % names.size()); // the order rotates every round
                bench.runVariant(variant, variants.get(variant), round);
            }
        }
        Files.write(Path.of(args[5]), bench.out);
        System.exit(0); // the embedded clusters' non-daemon threads
    }

    private void runVariant(String variant, Path pluginDir, int round) throws Exception {
        for (String store : stores) {
            if (store.startsWith("s3")) {
                S3TestServer server = S3TestServer.start(ID, SECRET, INDEXED.equals(store));
                server.createBucket(BUCKET);
                servers.put(store, server);
            }
        }
        cluster = ConnectTestCluster.start(1, Map.of("plugin.path", pluginDir.toAbsolutePath().toString(),
                "plugin.discovery", "hybrid_warn"));
        try {
            for (String store : stores) {
                run(variant, store, 10, round, false); // untimed: the worker's first deploy and the store's first requests
                for (int size : sizes) {
                    run(variant, store, size, round, true);
                }
            }
        } finally {
            cluster.close();
            servers.values().forEach(S3TestServer::close);
            servers.clear();
        }
    }

    private void run(String variant, String storeKind, int size, int round, boolean timed) throws Exception {
        String topic = "chains-" + storeKind + "-" + size + "-" + variant + "-r" + round + (timed ? "" : "-warmup");
        boolean manifests = !variant.startsWith("baseline");
        cluster.kafka().createTopic(topic, 1);
        produce(topic, 0, size + 1);
        StoreRequests own = new StoreRequests();
        try (Store store = open(storeKind, topic, own)) {
            long t = System.nanoTime();
            ChainSynth.write(store, topic, size, manifests, SYNTH_THREADS);
            double synth = seconds(t);
            double[] verify = verifyListing(storeKind, topic, manifests);
            int serverLists = serverLists(storeKind);
            long ownLists = own.count(Operation.LIST);
            cluster.deploy(topic, config(storeKind, topic));
            t = System.nanoTime();
            awaitObject(store, topic, size);
            double startup = seconds(t);
            long startMetric = metric(topic, Operation.LIST);
            long startServer = !servers.containsKey(storeKind) ? -1
                    : serverLists(storeKind) - serverLists - (own.count(Operation.LIST) - ownLists);

            // Steady state: one record per check interval, so that every periodic check runs (an idle partition is not
            // checked at all); the window's requests are its flushes' and its checks', told apart by the summary with
            // the burst of flushes below.
            Counts steady = counts(storeKind, topic);
            long steadyOwn = own.count(Operation.LIST);
            long next = size + 1;
            t = System.nanoTime();
            while (timed && seconds(t) < windowSeconds) {
                long due = System.nanoTime() + CHECK_INTERVAL_MS * 1_000_000;
                produce(topic, next, 1);
                awaitObject(store, topic, next++);
                Thread.sleep(Math.max(0, (due - System.nanoTime()) / 1_000_000));
            }
            double steadySeconds = timed ? seconds(t) : 0;
            long steadyFlushes = next - (size + 1);
            Counts steadyEnd = counts(storeKind, topic).lessOwnLists(own.count(Operation.LIST) - steadyOwn);

            Counts flowStart = counts(storeKind, topic);
            long flowOwn = own.count(Operation.LIST);
            t = System.nanoTime();
            for (int i = 0; i < FLUSHES; i++) {
                produce(topic, next, 1);
                awaitObject(store, topic, next++);
            }
            double flowSeconds = seconds(t);
            Counts flowEnd = counts(storeKind, topic).lessOwnLists(own.count(Operation.LIST) - flowOwn);
            cluster.delete(topic);
            Counts steadyDelta = steadyEnd.minus(steady);
            Counts flowDelta = flowEnd.minus(flowStart);
            String line = String.format(java.util.Locale.ROOT, "RESULT chains %s %s %d r%d startup_s=%.3f start_lists_metric=%d"
                            + " start_lists_server=%d steady_s=%.1f steady_flushes=%d steady_lists_metric=%d steady_gets_metric=%d"
                            + " steady_puts_metric=%d steady_lists_server=%d flow_s=%.2f flow_flushes=%d flow_lists_metric=%d"
                            + " flow_puts_metric=%d flow_lists_server=%d flow_puts_server=%d"
                            + " verify_listing_s=%.3f verify_listing_lists=%d verify_listing_gets=%d synth_s=%.1f",
                    variant, storeKind, size, round, startup, startMetric, startServer, steadySeconds, steadyFlushes,
                    steadyDelta.metricLists, steadyDelta.metricGets, steadyDelta.metricPuts, steadyDelta.serverLists, flowSeconds,
                    FLUSHES, flowDelta.metricLists, flowDelta.metricPuts, flowDelta.serverLists, flowDelta.serverPuts, verify[0],
                    (long) verify[1], (long) verify[2], synth);
            if (timed) {
                System.out.println(line);
                out.add(line);
            }
        }
        if ("fs".equals(storeKind)) {
            removeTree(fsRoot.resolve(topic)); // a tmpfs holds a few million files at most: one run's chain at a time
        }
    }

    /** Removes {@code dir}; a deleted connector's task may still write its closing manifest meanwhile: walk again. */
    private static void removeTree(Path dir) throws java.io.IOException, InterruptedException {
        for (int attempt = 1; Files.exists(dir); attempt++) {
            try (var paths = Files.walk(dir)) {
                for (Path p : (Iterable<Path>) paths.sorted(java.util.Comparator.reverseOrder())::iterator) {
                    Files.deleteIfExists(p);
                }
            } catch (java.nio.file.DirectoryNotEmptyException | java.io.UncheckedIOException e) {
                if (attempt == 20) {
                    throw e;
                }
                Thread.sleep(250);
            }
        }
    }

    /** Requests counted so far: by the connector's metric (-1 without it) and by the S3 server (-1 when not on S3). */
    private record Counts(long metricLists, long metricPuts, long metricGets, long serverLists, long serverPuts) {
        Counts minus(Counts o) {
            return new Counts(diff(metricLists, o.metricLists), diff(metricPuts, o.metricPuts), diff(metricGets, o.metricGets),
                    diff(serverLists, o.serverLists), diff(serverPuts, o.serverPuts));
        }

        Counts lessOwnLists(long own) {
            return new Counts(metricLists, metricPuts, metricGets, serverLists < 0 ? -1 : serverLists - own, serverPuts);
        }

        private static long diff(long a, long b) {
            return a < 0 || b < 0 ? -1 : a - b;
        }
    }

    private Counts counts(String storeKind, String topic) throws Exception {
        S3TestServer server = servers.get(storeKind);
        return new Counts(metric(topic, Operation.LIST), metric(topic, Operation.PUT), metric(topic, Operation.GET),
                server != null ? server.calls("list") : -1, server != null ? server.calls("putBlob") : -1);
    }

    private int serverLists(String storeKind) {
        S3TestServer server = servers.get(storeKind);
        return server == null ? 0 : server.calls("list");
    }

    /**
     * What a verify pass lists before it reads objects, on this version's code: the whole chain, and with manifests the
     * manifests' hash chain. Seconds, LIST and GET requests.
     */
    private double[] verifyListing(String storeKind, String topic, boolean manifests) {
        StoreRequests requests = new StoreRequests();
        try (Store store = open(storeKind, topic, requests)) {
            long t = System.nanoTime();
            ChainListing listing = new ChainListing(store, 0, Manifest.Kind.CHAIN);
            listing.chain(ChainSynth.SETTINGS.format(), OptionalLong.empty());
            if (manifests) {
                ManifestTrail.read(listing, Runtime.getRuntime().availableProcessors()); // as the verify pass reads them
            }
            return new double[] {seconds(t), requests.count(Operation.LIST), requests.count(Operation.GET)};
        }
    }

    /** The connector's own count of its store requests of one operation, all outcomes; -1 without the metric. */
    private static long metric(String topic, Operation op) throws Exception {
        MBeanServer mbeans = ManagementFactory.getPlatformMBeanServer();
        long sum = 0;
        boolean found = false;
        for (String outcome : List.of("ok", "refused", "failed")) {
            ObjectName name = new ObjectName("kafka.connect:type=plugins,connector=" + topic + ",task=0,mirror=" + topic + ",topic="
                    + topic + ",operation=" + op.label() + ",outcome=" + outcome);
            if (mbeans.isRegistered(name)) {
                found = true;
                sum += ((Number) mbeans.getAttribute(name, "store-requests-total")).longValue();
            }
        }
        return found ? sum : -1;
    }

    private void awaitObject(Store store, String topic, long offset) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(30).toNanos();
        String name = ChainSynth.name(offset).fileName().substring(0, 20);
        // On a filesystem a listing reads the whole directory (a million names: most of a second, on the same two cores
        // as the connector), so the bench looks for the one name it expects (one record per object) instead.
        Path expected = fsRoot.resolve(topic).resolve("0").resolve(ChainSynth.name(offset).fileName());
        while (store instanceof FilesystemStore ? !Files.exists(expected) : store.listFrom(0, name, 1).isEmpty()) {
            String trace = cluster.failureTrace(topic);
            if (trace != null) {
                throw new IllegalStateException("connector " + topic + " failed: " + trace);
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(topic + ": no object at offset " + offset + " within 30 minutes");
            }
            Thread.sleep(20);
        }
    }

    private Store open(String storeKind, String topic, StoreRequests requests) {
        if ("fs".equals(storeKind)) {
            return new FilesystemStore(fsRoot, topic, requests);
        }
        S3Identity id = new S3Identity("read", ID, SECRET);
        return new S3Store(S3Settings.of(Optional.of(servers.get(storeKind).endpoint()), "us-east-1", BUCKET, "bench", true, id, id)
                .withCallTimeout(Duration.ofSeconds(30)), topic, requests);
    }

    private Map<String, String> config(String storeKind, String topic) {
        Map<String, String> c = ConnectorConfigs.sink("dev.mirrorv3.connect.blob.BlobSinkConnector", topic, cluster.bootstrapServers());
        c.put("format", "ndjson");
        c.put("flush.max.records", "1");
        c.put("flush.max.time.ms", "1000");
        c.put("chain.check.interval.ms", Long.toString(CHECK_INTERVAL_MS));
        c.put("metadata.interval.ms", "0");
        c.put("groups.interval.ms", "0");
        if ("fs".equals(storeKind)) {
            c.put("filesystem.root", fsRoot.toString());
        } else {
            c.putAll(ConnectorConfigs.s3(servers.get(storeKind).endpoint().toString(), BUCKET, ID, SECRET, ID, SECRET));
            c.put("s3.prefix", "bench");
            c.put("encryption", "none");
        }
        return c;
    }

    private void produce(String topic, long first, int count) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
        p.put(ProducerConfig.LINGER_MS_CONFIG, "20");
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, "262144");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (long o = first; o < first + count; o++) {
                producer.send(new ProducerRecord<>(topic, 0, null, ("v" + o).getBytes(java.nio.charset.StandardCharsets.UTF_8)));
            }
            producer.flush();
        }
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }
}
