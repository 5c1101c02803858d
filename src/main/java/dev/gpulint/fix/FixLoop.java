package dev.gpulint.fix;

import dev.gpulint.core.Finding;
import dev.gpulint.core.Safety;
import dev.gpulint.read.SourceFile;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * {@code check --fix} and {@code --diff} in memory, ruff's way: lint, apply the fixes that do not overlap, lint the
 * fixed texts again, and so on until a pass applies nothing or {@link #MAX_PASSES} passes have run. Nothing is
 * written here ({@link FixWriter} does that): the result is each changed file's text before and after, and the number
 * of fixes applied. The lint itself is handed in (app.Checks#fix runs it, post-run steps included): this package sits
 * below the run and only applies, settles, writes and shows fixes.
 */
public final class FixLoop {
    private FixLoop() {}

    /** Passes at most: edits that keep making room for others settle in two or three; a pair undoing each other stops here. */
    public static final int MAX_PASSES = 10;

    /**
     * @param before  the changed files' texts as read, by display path
     * @param after   their texts with the fixes applied
     * @param sources every linted file as read (its path to write to)
     * @param fixed   how many fixes were applied
     * @param stdin   standard input's display path, or null
     */
    public record Result(Map<String, String> before, Map<String, String> after, Map<String, SourceFile> sources, int fixed,
                         String stdin) {
        public boolean changed() { return !after.isEmpty(); }
    }

    /**
     * Applies fixes up to {@code atMost} to {@code sources} until none applies.
     *
     * @param findings the first lint's findings
     * @param relint   lints the texts fixed so far (by display path, standing for those files) and returns its findings
     */
    public static Result run(Map<String, SourceFile> sources, String stdin, List<Finding> findings,
                             Function<Map<String, String>, List<Finding>> relint, Safety atMost) {
        Map<String, String> texts = new LinkedHashMap<>();
        for (SourceFile f : sources.values()) texts.put(f.displayPath(), f.text());
        Map<String, String> current = new LinkedHashMap<>(texts);
        int fixed = 0;
        for (int pass = 0; pass < MAX_PASSES; pass++) {
            FixApplier.Result r = FixApplier.apply(current, findings, atMost);
            if (r.texts().isEmpty()) break;
            current.putAll(r.texts());
            fixed += r.applied().size();
            // standard input is read once: every pass lints the texts it has, fixed or not
            findings = relint.apply(Map.copyOf(current));
        }
        Map<String, String> before = new TreeMap<>(), after = new TreeMap<>();
        // a file reached by two names (a link and its target) is one source already: Discovery reads each file once
        for (Map.Entry<String, String> e : current.entrySet()) {
            if (!e.getValue().equals(texts.get(e.getKey()))) {
                before.put(e.getKey(), texts.get(e.getKey()));
                after.put(e.getKey(), e.getValue());
            }
        }
        return new Result(before, after, java.util.Collections.unmodifiableMap(new LinkedHashMap<>(sources)), fixed, stdin);
    }
}
