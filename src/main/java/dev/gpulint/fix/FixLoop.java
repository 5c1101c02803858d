package dev.gpulint.fix;

import dev.gpulint.core.Finding;
import dev.gpulint.core.Safety;
import dev.gpulint.read.SourceFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
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
     * @param before    the changed files' texts as read, by display path
     * @param after     their texts with the fixes applied
     * @param sources   every linted file as read (its path to write to)
     * @param fixed     how many fixes were applied
     * @param stdin     standard input's display path, or null
     * @param fixFiles  the files each applied fix edits (display paths), one set per fix
     * @param roots     the folders a fix may be written into through a symbolic link: the base folder and each folder
     *                  given, as real paths ({@link FixWriter})
     * @param refused   why no fix was applied at all (the configuration's {@code fix:} has errors), or null
     * @param unwritten the changed files {@link FixWriter} could not write (after {@link #without})
     */
    public record Result(Map<String, String> before, Map<String, String> after, Map<String, SourceFile> sources, int fixed,
                         String stdin, List<Set<String>> fixFiles, List<Path> roots, String refused, List<String> unwritten) {
        public boolean changed() { return !after.isEmpty(); }

        /**
         * This result without the files that could not be written: their fixes are not counted (app.Checks#unwritten
         * lints the run again with those files' texts as read), so that a file --fix could not write is reported with
         * its findings as linted, never as fixed.
         */
        public Result without(List<String> notWritten) {
            if (notWritten.isEmpty()) return this;
            Map<String, String> b = new TreeMap<>(before), a = new TreeMap<>(after);
            b.keySet().removeAll(notWritten);
            a.keySet().removeAll(notWritten);
            List<Set<String>> kept = fixFiles.stream().filter(f -> f.stream().noneMatch(notWritten::contains)).toList();
            return new Result(b, a, sources, kept.size(), stdin, kept, roots, refused, List.copyOf(notWritten));
        }
    }

    /**
     * Why the configuration's fix settings forbid any fix: a {@code fix:} entry with an error (SYN002 at
     * {@code config/fix...}: an unknown level, a name that is no rule) is reported, and then nothing is fixed, as a
     * misspelt {@code UNIT001: of} must not fall back to that rule's default (safe) fix. Null when they are sound.
     */
    static String refused(List<Finding> findings) {
        long bad = findings.stream()
                .filter(f -> f.ruleId().equals("SYN002") && f.identity() != null && f.identity().startsWith("config/fix")).count();
        return bad == 0 ? null : "the fix settings of the configuration have " + (bad == 1 ? "an error" : bad + " errors")
                + " (SYN002 above): nothing was fixed; correct them and run again";
    }

    /**
     * The folders a fix may be written into through a link: {@code base} and each of {@code paths} (as given, relative
     * to it) that is a folder, as real paths.
     */
    public static List<Path> roots(Path base, List<String> paths) {
        List<Path> out = new ArrayList<>();
        Path b = base.toAbsolutePath().normalize();
        List<Path> candidates = new ArrayList<>(List.of(b));
        for (String p : paths) {
            try {
                Path given = b.resolve(dev.gpulint.core.PathNames.given(p, b));
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

    /**
     * Applies fixes up to {@code atMost} to {@code sources} until none applies.
     *
     * @param findings the first lint's findings
     * @param relint   lints the texts fixed so far (by display path, standing for those files) and returns its findings
     * @param roots    the folders a fix may be written into through a link ({@link #roots})
     */
    public static Result run(Map<String, SourceFile> sources, String stdin, List<Finding> findings,
                             Function<Map<String, String>, List<Finding>> relint, Safety atMost, List<Path> roots) {
        Map<String, String> texts = new LinkedHashMap<>();
        for (SourceFile f : sources.values()) texts.put(f.displayPath(), f.text());
        Map<String, String> current = new LinkedHashMap<>(texts);
        List<Set<String>> fixFiles = new ArrayList<>();
        String refused = refused(findings);
        for (int pass = 0; pass < MAX_PASSES && refused == null; pass++) {
            FixApplier.Result r = FixApplier.apply(current, findings, atMost);
            if (r.texts().isEmpty()) break;
            current.putAll(r.texts());
            for (FixApplier.Applied a : r.applied()) {
                Set<String> files = new TreeSet<>();
                for (var e : a.fix().edits()) files.add(e.file());
                fixFiles.add(files);
            }
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
        return new Result(before, after, java.util.Collections.unmodifiableMap(new LinkedHashMap<>(sources)), fixFiles.size(), stdin,
                List.copyOf(fixFiles), roots, refused, List.of());
    }
}
