package dev.mirrorv3.kafka.groups;

import java.util.Collection;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Which consumer groups are copied (synced, snapshotted, restored): those whose id matches the include pattern and not
 * the exclude pattern; exclude always wins (the rule of KIP-1279's group mirroring). Always excluded, whatever the
 * patterns say: the connector's own groups (given by the caller: their offsets position the connector, not an
 * application) and ids starting with {@code __} (Kafka's internal names). Connect's worker groups use the "connect"
 * protocol, not "consumer", and are never listed as consumer groups ({@link CommittedOffsets#listGroups()}).
 * Patterns are Java regular expressions matched against the whole id.
 */
public final class GroupSelection {
    private static final Pattern INTERNAL = Pattern.compile("__.*");

    private final Pattern include;
    private final Pattern exclude;
    private final Set<String> own;

    private GroupSelection(Pattern include, Pattern exclude, Set<String> own) {
        this.include = include;
        this.exclude = exclude;
        this.own = own;
    }

    /**
     * @param include the groups to copy, e.g. {@code .*}
     * @param exclude groups not to copy even if included; empty or null for none
     * @param ownGroups the connector's own groups, always excluded
     * @throws IllegalArgumentException a pattern that does not compile, naming it
     */
    public static GroupSelection of(String include, String exclude, Collection<String> ownGroups) {
        return new GroupSelection(compile("include", include), exclude == null || exclude.isBlank() ? null : compile("exclude", exclude),
                Set.copyOf(ownGroups));
    }

    private static Pattern compile(String which, String regex) {
        try {
            return Pattern.compile(regex == null ? "" : regex);
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("the groups " + which + " pattern '" + regex + "' is not a Java regular expression: "
                    + e.getDescription(), e);
        }
    }

    /** Whether the group is copied. */
    public boolean selected(String groupId) {
        if (own.contains(groupId) || INTERNAL.matcher(groupId).matches()) {
            return false;
        }
        if (exclude != null && exclude.matcher(groupId).matches()) {
            return false;
        }
        return include.matcher(groupId).matches();
    }

    @Override
    public String toString() {
        return "include '" + include + "'" + (exclude == null ? "" : ", exclude '" + exclude + "'")
                + (own.isEmpty() ? "" : ", never " + own.stream().sorted().toList());
    }
}
