package dev.gpulint.bind;

import dev.gpulint.core.Finding;
import dev.gpulint.tree.ScalarNode;

/**
 * A value left for a person to fill in: {@code "<fill in: what is needed>"}. {@code gpulint discover}
 * writes one where the machine's captures cannot tell a value (the node count, the fabric's topology,
 * PFC and ECN); unlike a template placeholder (${VAR}, ???), which stays quietly unknown, it is reported
 * (SYN008) until it is replaced, so a written manifest cannot pass with a hole in it.
 */
public final class FillIn {
    /** How the marker starts. */
    public static final String PREFIX = "<fill in:";

    private FillIn() {}

    /** The marker for a value described by {@code what}. */
    public static String marker(String what) {
        return PREFIX + " " + what + ">";
    }

    /** The scalar is such a marker. */
    public static boolean is(String text) {
        String t = text.strip();
        return t.length() <= 512 && t.startsWith(PREFIX) && t.endsWith(">");
    }

    /** SYN008 for a marker found at {@code key}. */
    static Finding finding(ScalarNode key, ScalarNode value, Object path) {
        String t = value.text().strip();
        String what = t.substring(PREFIX.length(), t.length() - 1).strip();
        return Finding.of("SYN008", value.span(), path + "#fill-in", "'" + key.text() + "' is still a placeholder to fill in ("
                + what + "): gpulint discover left it because the captures it read cannot tell it; write the value, and until "
                + "then the checks that need it do not run");
    }
}
