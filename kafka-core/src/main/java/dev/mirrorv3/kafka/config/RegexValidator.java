package dev.mirrorv3.kafka.config;

import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/** A setting that holds a Java regular expression (empty allowed): refused with the pattern's error at validation. */
public final class RegexValidator implements ConfigDef.Validator {
    @Override
    public void ensureValid(String name, Object value) {
        if (value == null) {
            return;
        }
        try {
            Pattern.compile(value.toString());
        } catch (PatternSyntaxException e) {
            throw new ConfigException(name, value, "not a Java regular expression: " + e.getDescription());
        }
    }

    @Override
    public String toString() {
        return "a Java regular expression";
    }
}
