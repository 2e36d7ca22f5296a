package dev.mirrorv3.bench.results;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** {@code --name value} options (a name may repeat) and the arguments after them, as bench/lib.sh passes them. */
final class Args {
    private final Map<String, List<String>> options = new LinkedHashMap<>();
    private final List<String> rest = new ArrayList<>();

    /** Stops on an option not in {@code known} or one without its value, naming it. */
    Args(String[] args, int from, Set<String> known) {
        int i = from;
        while (i < args.length && args[i].startsWith("--")) {
            String name = args[i].substring(2);
            if (!known.contains(name)) {
                throw new IllegalArgumentException("unknown option --" + name + " (known: " + known + ")");
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("--" + name + " needs a value");
            }
            options.computeIfAbsent(name, k -> new ArrayList<>()).add(args[i + 1]);
            i += 2;
        }
        for (; i < args.length; i++) {
            rest.add(args[i]);
        }
    }

    String one(String name, String otherwise) {
        List<String> v = options.get(name);
        return v == null ? otherwise : v.get(v.size() - 1);
    }

    String required(String name) {
        String v = one(name, null);
        if (v == null) {
            throw new IllegalArgumentException("--" + name + " is required");
        }
        return v;
    }

    List<String> all(String name) {
        return options.getOrDefault(name, List.of());
    }

    int integer(String name, int otherwise) {
        String v = one(name, null);
        try {
            return v == null ? otherwise : Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + name + " takes a whole number, not '" + v + "'", e);
        }
    }

    List<String> rest() {
        return rest;
    }
}
