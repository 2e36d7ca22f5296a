package dev.mirrorv3.bench.results;

/** The ratios and figures a bench asks its summary for, as the scripts write them. */
final class Specs {
    private Specs() {
    }

    /**
     * {@code <goal id or ->|<numerator run>|<denominator run>|<label>}.
     *
     * @param goal null for a ratio without a goal
     */
    record Ratio(String goal, String numerator, String denominator, String label) {
        static Ratio parse(String spec) {
            String[] f = spec.split("\\|", -1);
            if (f.length != 4 || f[1].isBlank() || f[2].isBlank() || f[3].isBlank()) {
                throw new IllegalArgumentException("a ratio is '<goal id or ->|<numerator run>|<denominator run>|<label>', not '"
                        + spec + "'");
            }
            return new Ratio(f[0].equals("-") ? null : f[0], f[1], f[2], f[3]);
        }
    }

    /**
     * {@code <goal id>|<value or ->|<label>[|<why it is not a result>]}.
     *
     * @param value  null when it could not be measured
     * @param reason why it is not a result, null when it is one
     */
    record Check(String goal, Double value, String label, String reason) {
        static Check parse(String spec) {
            String[] f = spec.split("\\|", -1);
            if (f.length < 3 || f.length > 4 || f[0].isBlank() || f[2].isBlank()) {
                throw new IllegalArgumentException("a figure is '<goal id>|<value or ->|<label>[|<why it is not a result>]', not '"
                        + spec + "'");
            }
            Double value = null;
            if (!f[1].equals("-")) {
                try {
                    value = Double.valueOf(f[1]);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("the value of figure " + f[2] + " is not a number: '" + f[1] + "'", e);
                }
            }
            String reason = f.length == 4 && !f[3].isBlank() ? f[3] : null;
            if (value == null && reason == null) {
                reason = "not measured";
            }
            return new Check(f[0], value, f[2], reason);
        }
    }
}
