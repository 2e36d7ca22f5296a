package dev.mirrorv3.chain.envelope;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * How the envelope's enums are spelled where they leave the code (a setting's value, an object name's extension, the
 * {@code timestamp_type} column): the constant's name in lower case. The one place that spells them and reads them back;
 * the spellings are computed once per enum, as codecs spell a constant per record.
 */
final class WireName {
    private static final ClassValue<List<String>> SPELLINGS = new ClassValue<>() {
        @Override
        protected List<String> computeValue(Class<?> type) {
            return Arrays.stream(type.getEnumConstants()).map(c -> ((Enum<?>) c).name().toLowerCase(Locale.ROOT)).toList();
        }
    };

    private WireName() {
    }

    static String of(Enum<?> constant) {
        return SPELLINGS.get(constant.getDeclaringClass()).get(constant.ordinal());
    }

    /** The constant spelled exactly {@code value} (a name or a stored column), empty if there is none. */
    static <E extends Enum<E>> Optional<E> exact(Class<E> type, String value) {
        int i = SPELLINGS.get(type).indexOf(value);
        return i < 0 ? Optional.empty() : Optional.of(type.getEnumConstants()[i]);
    }

    /**
     * A setting's value in any case.
     *
     * @throws IllegalArgumentException naming {@code what} the value is and the values allowed
     */
    static <E extends Enum<E>> E parse(Class<E> type, String value, String what) {
        List<String> allowed = SPELLINGS.get(type);
        for (int i = 0; i < allowed.size(); i++) {
            if (allowed.get(i).equalsIgnoreCase(value)) {
                return type.getEnumConstants()[i];
            }
        }
        String rest = String.join(", ", allowed.subList(0, allowed.size() - 1));
        throw new IllegalArgumentException("unknown " + what + " '" + value + "': use " + rest + " or " + allowed.get(allowed.size() - 1));
    }
}
