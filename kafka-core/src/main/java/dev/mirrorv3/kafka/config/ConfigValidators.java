package dev.mirrorv3.kafka.config;

import java.util.List;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/** Small reusable single-field validators, shared by every connector's ConfigDef. */
public final class ConfigValidators {
    private ConfigValidators() {
    }

    /** Case-insensitive choice among fixed values. */
    public static ConfigDef.Validator oneOf(String... values) {
        List<String> allowed = List.of(values);
        return new ConfigDef.Validator() {
            @Override
            public void ensureValid(String name, Object value) {
                if (value == null || allowed.stream().noneMatch(a -> a.equalsIgnoreCase(value.toString()))) {
                    throw new ConfigException(name, value, "must be one of " + String.join(", ", allowed));
                }
            }

            @Override
            public String toString() {
                return String.join(", ", allowed);
            }
        };
    }

    /** Empty (not set) or one of fixed values, case-insensitive; whether it is required is a cross-field rule. */
    public static ConfigDef.Validator oneOfOrEmpty(String... values) {
        ConfigDef.Validator oneOf = oneOf(values);
        return new ConfigDef.Validator() {
            @Override
            public void ensureValid(String name, Object value) {
                if (value != null && !value.toString().isBlank()) {
                    oneOf.ensureValid(name, value);
                }
            }

            @Override
            public String toString() {
                return oneOf.toString();
            }
        };
    }

    /** Null (not set) or valid for {@code validator}. */
    public static ConfigDef.Validator nullOr(ConfigDef.Validator validator) {
        return new ConfigDef.Validator() {
            @Override
            public void ensureValid(String name, Object value) {
                if (value != null) {
                    validator.ensureValid(name, value);
                }
            }

            @Override
            public String toString() {
                return validator.toString();
            }
        };
    }

    /** 0, which turns a periodic job off, or at least {@code min}: an interval whose small values would only load the cluster. */
    public static ConfigDef.Validator offOrAtLeast(long min) {
        ConfigDef.Validator range = ConfigDef.Range.atLeast(min);
        return new ConfigDef.Validator() {
            @Override
            public void ensureValid(String name, Object value) {
                if (value instanceof Number n && n.longValue() == 0) {
                    return;
                }
                try {
                    range.ensureValid(name, value);
                } catch (ConfigException e) {
                    throw new ConfigException(name, value, "must be 0 (off) or at least " + min);
                }
            }

            @Override
            public String toString() {
                return "0 (off) or " + range;
            }
        };
    }

    /** A list of non-negative partition numbers. */
    public static ConfigDef.Validator partitionList() {
        return new ConfigDef.Validator() {
            @Override
            public void ensureValid(String name, Object value) {
                if (value == null) {
                    return;
                }
                for (Object o : (List<?>) value) {
                    String s = o.toString().trim();
                    try {
                        if (Integer.parseInt(s) < 0) {
                            throw new ConfigException(name, value, "partition numbers are not negative: " + s);
                        }
                    } catch (NumberFormatException e) {
                        throw new ConfigException(name, value, "'" + s + "' is not a partition number; use e.g. 0,1,5");
                    }
                }
            }

            @Override
            public String toString() {
                return "comma-separated partition numbers, e.g. 0,1,5";
            }
        };
    }
}
