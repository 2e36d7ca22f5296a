package dev.mirrorv3.kafka.restore;

import java.util.ArrayList;
import java.util.List;

/**
 * The order in which one sending thread sends the partitions' objects: an object of each partition in turn (the first
 * object of every partition, then the second of each that has one, and so on), so every partition keeps its own order
 * and all of them advance together.
 */
final class SendTurns {
    private SendTurns() {
    }

    /** One object to send: which partition (its index in the list given) and the object. */
    record Turn<T>(int partition, T object) {
    }

    /** Every object of {@code partitions}, an object of each partition in turn, each partition's objects in their order. */
    static <T> List<Turn<T>> of(List<? extends List<T>> partitions) {
        List<Turn<T>> turns = new ArrayList<>(partitions.stream().mapToInt(List::size).sum());
        int rounds = partitions.stream().mapToInt(List::size).max().orElse(0);
        for (int round = 0; round < rounds; round++) {
            for (int i = 0; i < partitions.size(); i++) {
                if (round < partitions.get(i).size()) {
                    turns.add(new Turn<>(i, partitions.get(i).get(round)));
                }
            }
        }
        return turns;
    }
}
