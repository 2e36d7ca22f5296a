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
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split(" \\| ", -1);
            String at = source + " line " + (i + 1);
            if (f.length != 6) {
                throw new IllegalArgumentException(at + " has " + f.length + " fields, not 6 (id | what | compared with | goal"
                        + " | command | page): " + line);
            }
            Matcher m = BOUND.matcher(f[3].trim());
            if (!m.matches()) {
                throw new IllegalArgumentException(at + ": the goal '" + f[3].trim() + "' is not '>= N', '<= N' or '= N' with an"
                        + " optional unit");
            }
            String id = f[0].trim();
            if (goals.put(id, new Goal(id, f[1].trim(), f[2].trim(), m.group(1), Double.parseDouble(m.group(2)), m.group(3).trim(),
                    f[4].trim(), f[5].trim())) != null) {
                throw new IllegalArgumentException(at + ": goal " + id + " is there twice");
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
