package dev.mirrorv3.quickstart;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/**
 * Compares two topics record by record: same partitions, and in each the same offsets, keys, values, headers and
 * timestamps (a restore with {@code --offsets preserve} must produce exactly that). Exit 0 when they are equal.
 * Reading each topic has a deadline ({@link TopicReader#DEADLINE}): a stuck read fails the smoke with a message.
 * Usage: CompareTopics <bootstrap servers> <source topic> <restored topic>
 */
public final class CompareTopics {
    private CompareTopics() {
    }

    public static void main(String[] args) {
        Usage.exactly(args, 3, "CompareTopics <bootstrap servers> <source topic> <restored topic>");
        Map<Integer, List<ConsumerRecord<byte[], byte[]>>> source = TopicReader.readAll(args[0], args[1]);
        Map<Integer, List<ConsumerRecord<byte[], byte[]>>> restored = TopicReader.readAll(args[0], args[2]);
        String difference = firstDifference(source, restored);
        long records = source.values().stream().mapToLong(List::size).sum();
        if (difference == null) {
            System.out.println(args[2] + " equals " + args[1] + " record by record: " + records
                    + " records at their original offsets (keys, values, headers, timestamps)  OK");
            System.exit(0);
        }
        System.out.println(args[2] + " differs from " + args[1] + ": " + difference);
        System.exit(1);
    }

    private static String firstDifference(Map<Integer, List<ConsumerRecord<byte[], byte[]>>> a,
                                          Map<Integer, List<ConsumerRecord<byte[], byte[]>>> b) {
        if (!a.keySet().equals(b.keySet())) {
            return "partitions " + a.keySet() + " vs " + b.keySet();
        }
        for (Integer p : a.keySet()) {
            List<ConsumerRecord<byte[], byte[]>> x = a.get(p);
            List<ConsumerRecord<byte[], byte[]>> y = b.get(p);
            if (x.size() != y.size()) {
                return "partition " + p + " holds " + x.size() + " vs " + y.size() + " records";
            }
            for (int i = 0; i < x.size(); i++) {
                ConsumerRecord<byte[], byte[]> r = x.get(i);
                ConsumerRecord<byte[], byte[]> s = y.get(i);
                if (r.offset() != s.offset() || !Arrays.equals(r.key(), s.key()) || !Arrays.equals(r.value(), s.value())
                        || r.timestamp() != s.timestamp() || !headers(r).equals(headers(s))) {
                    return "partition " + p + " offset " + r.offset() + " (restored at offset " + s.offset() + ")";
                }
            }
        }
        return null;
    }

    private static List<String> headers(ConsumerRecord<byte[], byte[]> r) {
        List<String> out = new ArrayList<>();
        for (Header h : r.headers()) {
            out.add(h.key() + "=" + (h.value() == null ? "null" : Arrays.toString(h.value())));
        }
        return out;
    }
}
