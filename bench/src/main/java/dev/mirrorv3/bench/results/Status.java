package dev.mirrorv3.bench.results;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** Whether a ratio or a figure is a result that can be judged against its goal. */
public enum Status {
    /** A result: judged against its goal, if it has one. */
    RESULT("result"),
    /** Its per-round values disagree more than BENCH_MAX_SPREAD: not published as a figure. */
    WITHHELD("withheld"),
    /** Too few rounds to measure a spread, or the measure could not see what it claims (said in its reason). */
    NOT_A_RESULT("not a result"),
    /** A run it needs did not run or failed. */
    MISSING("missing");

    private final String text;

    Status(String text) {
        this.text = text;
    }

    @JsonValue
    public String text() {
        return text;
    }

    @JsonCreator
    static Status of(String text) {
        for (Status s : values()) {
            if (s.text.equals(text)) {
                return s;
            }
        }
        throw new IllegalArgumentException("not a status: " + text);
    }
}
