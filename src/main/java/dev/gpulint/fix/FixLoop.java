package dev.gpulint.fix;

import dev.gpulint.core.Safety;
import dev.gpulint.lint.LintRequest;
import dev.gpulint.lint.Project;
import dev.gpulint.read.SourceFile;
import dev.gpulint.settle.FixApplier;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

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
     * @param before    the changed files' texts as read, by display path
     * @param after     their texts with the fixes applied
     * @param sources   every linted file as read (its path to write to)
     * @param fixed     how many fixes were applied
     * @param last      the last pass's outcome: the findings that remain
     * @param stdin     standard input's display path, or null
     * @param fixFiles  the files each applied fix edits (display paths), one set per fix
     * @param roots     the folders a fix may be written into through a symbolic link: the base folder and each folder
     *                  given, as real paths ({@link FixWriter})
     * @param refused   why no fix was applied at all (the configuration's {@code fix:} has errors), or null
     * @param unwritten the changed files {@link FixWriter} could not write (after {@link #without})
     */
    public record Result(Map<String, String> before, Map<String, String> after, Map<String, SourceFile> sources, int fixed,
                         Project.Outcome last, String stdin, List<Set<String>> fixFiles, List<Path> roots, String refused,
                         List<String> unwritten) {
        public boolean changed() { return !after.isEmpty(); }

        /** Findings left with a fix of exactly this safety (the closing line's "more with --unsafe-fixes"). */
        public long fixable(Safety s) {
            if (refused != null) return 0;
            return last.result().findings().stream().filter(f -> !f.suppressed() && f.fixes().stream().anyMatch(x -> x.safety() == s)
                    && (s == Safety.SAFE || !f.fixable(Safety.SAFE))).count();
        }

        /**
         * This result without the files that could not be written: their fixes are not counted, and {@code relinted}
         * (the run linted again with those files' texts as read) says what remains, so that a file --fix could not
         * write is reported with its findings as linted, never as fixed.
         */
        public Result without(List<String> notWritten, Project.Outcome relinted) {
            if (notWritten.isEmpty()) return this;
            Map<String, String> b = new TreeMap<>(before), a = new TreeMap<>(after);
            b.keySet().removeAll(notWritten);
            a.keySet().removeAll(notWritten);
            List<Set<String>> kept = fixFiles.stream().filter(f -> f.stream().noneMatch(notWritten::contains)).toList();
            return new Result(b, a, sources, kept.size(), relinted, stdin, kept, roots, refused, List.copyOf(notWritten));
        }
    }

    /**
     * Why the configuration's fix settings forbid any fix: a {@code fix:} entry with an error (SYN002 at
     * {@code config/fix...}: an unknown level, a name that is no rule) is reported, and then nothing is fixed, as a
     * misspelt {@code UNIT001: of} must not fall back to that rule's default (safe) fix. Null when they are sound.
     */
    static String refused(Project.Outcome o) {
        long bad = o.result().findings().stream()
                .filter(f -> f.ruleId().equals("SYN002") && f.identity() != null && f.identity().startsWith("config/fix")).count();
        return bad == 0 ? null : "the fix settings of the configuration have " + (bad == 1 ? "an error" : bad + " errors")
                + " (SYN002 above): nothing was fixed; correct them and run again";
    }

    /** The folders a fix may be written into through a link: the base folder and each folder given, as real paths. */
    static List<Path> roots(LintRequest request) {
        List<Path> out = new ArrayList<>();
        Path base = request.base().toAbsolutePath().normalize();
        List<Path> candidates = new ArrayList<>(List.of(base));
        for (String p : request.paths()) {
            try {
                Path given = base.resolve(dev.gpulint.core.PathNames.given(p, base));
                if (java.nio.file.Files.isDirectory(given)) candidates.add(given);
            } catch (java.nio.file.InvalidPathException e) {
                // not a path: nothing was linted under it
            }
        }
        for (Path c : candidates) {
            try {
                out.add(c.toRealPath());
            } catch (java.io.IOException e) {
                // a folder that is gone holds nothing to write
            }
        }
        return List.copyOf(out);
    }

    /** Lints {@code request} with {@code project} and applies fixes up to {@code atMost} until none applies. */
    public static Result run(Project project, LintRequest request, Safety atMost) {
        Project.Outcome outcome = project.lint(request);
        Map<String, SourceFile> sources = new LinkedHashMap<>(project.sources());
        String stdin = project.stdinShown();
        Map<String, String> texts = new LinkedHashMap<>();
        for (SourceFile f : sources.values()) texts.put(f.displayPath(), f.text());
        Map<String, String> current = new LinkedHashMap<>(texts);
        List<Set<String>> fixFiles = new ArrayList<>();
        String refused = refused(outcome);
        for (int pass = 0; pass < MAX_PASSES && refused == null; pass++) {
            FixApplier.Result r = FixApplier.apply(current, outcome.result().findings(), atMost);
            if (r.texts().isEmpty()) break;
            current.putAll(r.texts());
            for (FixApplier.Applied a : r.applied()) {
                Set<String> files = new TreeSet<>();
                for (var e : a.fix().edits()) files.add(e.file());
                fixFiles.add(files);
            }
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
        return new Result(before, after, sources, fixFiles.size(), outcome, stdin, fixFiles, roots(request), refused, List.of());
    }

    /**
     * The run linted again with the files {@code notWritten} as read (their fixes undone), the other fixed files as
     * fixed: what the report says after a --fix that could not write them.
     */
    public static Project.Outcome relint(Project project, LintRequest request, Result r, List<String> notWritten) {
        Map<String, String> texts = new LinkedHashMap<>();
        for (SourceFile f : r.sources().values()) texts.put(f.displayPath(), f.text());
        for (Map.Entry<String, String> e : r.after().entrySet()) if (!notWritten.contains(e.getKey())) texts.put(e.getKey(), e.getValue());
        project.fixedTexts(texts);
        return project.lint(request);
    }
}
