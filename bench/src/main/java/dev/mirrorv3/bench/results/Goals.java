package dev.mirrorv3.bench.results;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** bench/goals.txt: the one table of goals the benches judge by and the docs render. */
public final class Goals {
    /** The table, seen from the bench module's directory (surefire's working directory). */
    public static final Path FILE = Path.of("goals.txt");
    private static final Pattern BOUND = Pattern.compile("(>=|<=|=) *([0-9]+(?:\\.[0-9]+)?) *(.*)");
    private final Map<String, Goal> byId;

    private Goals(Map<String, Goal> byId) {
        this.byId = byId;
    }

    public static Goals read(Path file) throws IOException {
        return parse(Files.readAllLines(file, StandardCharsets.UTF_8), file.toString());
    }

    /** The goals of these lines; a line that is not a goal stops with its number and what is wrong. */
    static Goals parse(List<String> lines, String source) {
        Map<String, Goal> goals = new LinkedHashMap<>();
        for (PipeTable.Row f : PipeTable.rows(lines, source, "id | what | compared with | goal | command | page")) {
            Matcher m = BOUND.matcher(f.get(3));
            if (!m.matches()) {
                throw new IllegalArgumentException(f.at() + ": the goal '" + f.get(3) + "' is not '>= N', '<= N' or '= N' with an"
                        + " optional unit");
            }
            String id = f.get(0);
            if (goals.put(id, new Goal(id, f.get(1), f.get(2), m.group(1), Double.parseDouble(m.group(2)), m.group(3).trim(),
                    f.get(4), f.get(5))) != null) {
                throw new IllegalArgumentException(f.at() + ": goal " + id + " is there twice");
            }
        }
        return new Goals(goals);
    }

    /** The goal named {@code id}; a name the table does not have stops the summary naming the file. */
    public Goal get(String id) {
        Goal g = byId.get(id);
        if (g == null) {
            throw new IllegalArgumentException("no goal " + id + " in bench/goals.txt (it has " + byId.keySet() + ")");
        }
        return g;
    }

    public Optional<Goal> find(String id) {
        return Optional.ofNullable(byId.get(id));
    }

    public List<Goal> all() {
        return new ArrayList<>(byId.values());
    }
}
