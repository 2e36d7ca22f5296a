package dev.mirrorv3.bench.results;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/** A bench's runs file, bench/results/&lt;bench&gt;.jsonl: one {@link RunRecord} per line, appended, never rewritten. */
public final class RunsFile {
    static final ObjectMapper JSON = new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private RunsFile() {
    }

    public static void append(Path file, RunRecord run) throws IOException {
        if (file.toAbsolutePath().getParent() != null) {
            Files.createDirectories(file.toAbsolutePath().getParent());
        }
        Files.writeString(file, JSON.writeValueAsString(run) + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
    }

    /** Every run of the file, oldest first; a line that is not a run stops with its number. */
    public static List<RunRecord> read(Path file) throws IOException {
        List<RunRecord> runs = new ArrayList<>();
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).isBlank()) {
                continue;
            }
            try {
                runs.add(JSON.readValue(lines.get(i), RunRecord.class));
            } catch (IOException e) {
                throw new IOException(file + " line " + (i + 1) + " is not a bench run (" + e.getMessage() + ")", e);
            }
        }
        return runs;
    }
}
