package dev.mirrorv3.quickstart;

import dev.mirrorv3.chain.Chain;
import dev.mirrorv3.chain.ChainException;
import dev.mirrorv3.chain.read.ChainReader;
import dev.mirrorv3.chain.store.Store;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * Waits until a blob sink's chains have caught up with the topic: for every partition the chain's next offset
 * (or, for an empty chain, the log-start offset) equals the high watermark. Fails fast when the connector or its
 * task has FAILED (Connect REST status), and on timeout says which partitions lag and by how much. With a timeout of
 * 0 it only says, once, whether the chains have caught up and which partitions lag.
 *
 * <p>Usage: {@code WaitCaughtUp <connector-config.json> <connector-name> <connect-url> <timeout-seconds> [destination]}
 * (the destination of a connector with several)
 */
public final class WaitCaughtUp {
    private WaitCaughtUp() {
    }

    public static void main(String[] args) throws Exception {
        Usage.atLeast(args, 4, "WaitCaughtUp <connector-config.json> <connector-name> <connect-url> <timeout-seconds> [destination]");
        BlobSinkSettings s = BlobSinkSettings.load(Path.of(args[0]), args[1], args.length > 4 ? args[4] : null);
        String connectUrl = args[2];
        long deadline = System.nanoTime() + Long.parseLong(args[3]) * 1_000_000_000L;
        long start = System.nanoTime();
        try (TopicOffsets offsets = new TopicOffsets(s.bootstrapServers())) {
            if (Long.parseLong(args[3]) == 0) {
                String now = lag(s, offsets);
                System.out.println(now.isEmpty() ? "caught up: every partition's chain ends at its high watermark" : "behind: " + now);
                return;
            }
            String lag = "";
            while (System.nanoTime() < deadline) {
                Optional<String> failed = ConnectorStatus.failure(connectUrl, s.connector());
                if (failed.isPresent()) {
                    System.err.println(failed.get());
                    System.exit(1);
                }
                try {
                    lag = lag(s, offsets);
                } catch (ChainException e) {
                    // A listing taken while an object is being written may show the store's upload in progress
                    // (S3Proxy's filesystem backend lists <key>-<uuid> until the upload completes): poll again.
                    // A chain that stays invalid is reported at the timeout, and VerifyBackup checks the final one.
                    lag = "the chain does not validate: " + e.getMessage();
                }
                if (lag.isEmpty()) {
                    System.out.printf("caught up: every partition's chain ends at its high watermark (%.1f s)%n",
                            (System.nanoTime() - start) / 1e9);
                    return;
                }
                Thread.sleep(250);
            }
            System.err.println("timed out after " + args[3] + " s waiting for the chains under " + s.chainDir()
                    + " to catch up with topic " + s.topic() + ": " + lag);
            System.exit(1);
        }
    }

    /** Empty when caught up, otherwise which partitions lag ("p0: chain next 100, high watermark 250; ..."). */
    public static String lag(BlobSinkSettings s, TopicOffsets offsets) throws Exception {
        Map<Integer, Long> hw = offsets.highWatermarks(s.topic());
        Map<Integer, Long> logStart = offsets.logStartOffsets(s.topic());
        Map<Integer, Long> next;
        try (Store store = s.store()) {
            next = chainNextOffsets(s.reader(store), hw.keySet(), logStart);
        }
        StringBuilder b = new StringBuilder();
        for (Map.Entry<Integer, Long> e : hw.entrySet()) {
            long n = next.get(e.getKey());
            if (n != e.getValue()) {
                b.append(b.length() == 0 ? "" : "; ").append("p").append(e.getKey()).append(": chain next ").append(n)
                        .append(", high watermark ").append(e.getValue());
            }
        }
        return b.toString();
    }

    public static Map<Integer, Long> chainNextOffsets(ChainReader reader, Iterable<Integer> partitions, Map<Integer, Long> logStart) {
        Map<Integer, Long> next = new TreeMap<>();
        for (int p : partitions) {
            Chain chain = reader.listChain(p, OptionalLong.empty());
            next.put(p, chain.nextOffset().orElse(logStart.get(p)));
        }
        return next;
    }
}
