package dev.gpulint.core;

import java.util.Arrays;
import java.util.Locale;

/**
 * The lowest level that fails a run ({@code --fail-on} of the command line, {@code failOn} of the
 * Maven plugin), parsed in this one place: error, warning, note, or never. Input that could not be
 * read or parsed fails a run whatever this says (exit 2, a failed build).
 */
public enum FailOn {
    error(Level.ERROR), warning(Level.WARNING), note(Level.NOTE), never(null);

    private final Level threshold;

    FailOn(Level threshold) { this.threshold = threshold; }

    /** The lowest failing level, or null for never. */
    public Level threshold() { return threshold; }

    /** Unsuppressed findings that count against this level (0 for never). */
    public long count(LintResult r) {
        return threshold == null ? 0 : r.countAtOrAbove(threshold);
    }

    /** Whether a finding reaches this level. */
    public boolean failed(LintResult r) {
        return threshold != null && r.anyAtOrAbove(threshold);
    }

    /**
     * The level named by {@code s} (any case, surrounding blanks ignored).
     * @throws IllegalArgumentException saying what was expected, with the nearest level when there is one
     */
    public static FailOn parse(String s) {
        String v = s == null ? "" : s.strip().toLowerCase(Locale.ROOT);
        for (FailOn f : values()) if (f.name().equals(v)) return f;
        String near = DidYouMean.closest(v, Arrays.stream(values()).map(Enum::name).toList());
        throw new IllegalArgumentException("must be error, warning, note or never, not '" + s + "'"
                + (near != null ? " (did you mean " + near + "?)" : ""));
    }
}
