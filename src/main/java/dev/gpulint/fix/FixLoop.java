package dev.gpulint.fix;

import dev.gpulint.core.Safety;
import dev.gpulint.lint.LintRequest;
import dev.gpulint.lint.Project;
import dev.gpulint.read.SourceFile;
import dev.gpulint.settle.FixApplier;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code check --fix} and {@code --diff} in memory, ruff's way: lint, apply the fixes that do not overlap, lint the
 * fixed texts again, and so on until a pass applies nothing or {@link #MAX_PASSES} passes have run. Nothing is
 * written here ({@link FixWriter} does that): the result is each changed file's text before and after, the number
 * of fixes applied, and the last pass's lint result (what remains).
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
     * @param last    the last pass's outcome: the findings that remain
     * @param stdin   standard input's display path, or null
     */
    public record Result(Map<String, String> before, Map<String, String> after, Map<String, SourceFile> sources, int fixed,
                         Project.Outcome last, String stdin) {
        public boolean changed() { return !after.isEmpty(); }

        /** Findings left with a fix of exactly this safety (the closing line's "more with --unsafe-fixes"). */
        public long fixable(Safety s) {
            return last.result().findings().stream().filter(f -> !f.suppressed() && f.fixes().stream().anyMatch(x -> x.safety() == s)
                    && (s == Safety.SAFE || !f.fixable(Safety.SAFE))).count();
        }
    }

    /** Lints {@code request} with {@code project} and applies fixes up to {@code atMost} until none applies. */
    public static Result run(Project project, LintRequest request, Safety atMost) {
        Project.Outcome outcome = project.lint(request);
        Map<String, SourceFile> sources = new LinkedHashMap<>(project.sources());
        String stdin = project.stdinShown();
        Map<String, String> texts = new LinkedHashMap<>();
        for (SourceFile f : sources.values()) texts.put(f.displayPath(), f.text());
        Map<String, String> current = new LinkedHashMap<>(texts);
        int fixed = 0;
        for (int pass = 0; pass < MAX_PASSES; pass++) {
            FixApplier.Result r = FixApplier.apply(current, outcome.result().findings(), atMost);
            if (r.texts().isEmpty()) break;
            current.putAll(r.texts());
            fixed += r.applied().size();
            // standard input is read once: every pass lints the texts it has, fixed or not
            project.fixedTexts(current);
            outcome = project.lint(request);
        }
        Map<String, String> before = new TreeMap<>(), after = new TreeMap<>();
        // a file reached by two names (a link and its target) is one source already: Discovery reads each file once
        for (Map.Entry<String, String> e : current.entrySet()) {
            if (!e.getValue().equals(texts.get(e.getKey()))) {
                before.put(e.getKey(), texts.get(e.getKey()));
                after.put(e.getKey(), e.getValue());
            }
        }
        return new Result(before, after, sources, fixed, outcome, stdin);
    }
}
