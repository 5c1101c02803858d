package dev.gpulint.report;

import dev.gpulint.core.Finding;
import dev.gpulint.core.Fingerprints;
import dev.gpulint.core.Fix;
import dev.gpulint.core.LintResult;
import dev.gpulint.core.Span;
import dev.gpulint.core.TextEdit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import dev.gpulint.core.ProjectPaths;
import java.nio.file.Path;

/**
 * The paths CI reports (JUnit, GitLab Code Quality) name: relative to the project root, as SARIF's
 * are, with forward slashes, so the same run gives the same report from any working directory. GitLab
 * resolves Code Quality paths from the repository root, {@code CI_PROJECT_DIR}: where that is set it is
 * the root instead ({@link #root}).
 */
public final class ReportPaths {
    private ReportPaths() {}

    /**
     * A document a command writes beside the findings (plan's and diagnose's JSON: maps, lists, strings, numbers) with
     * the run's files named as the machine reports name them ({@link ProjectPaths#stable}: relative to the project root,
     * absolute outside it), wherever a string names one ("evidence": "logs/train.log:12", a sentence that cites a
     * line), so that it is the same bytes from any working directory. A new document; {@code doc} is not changed.
     */
    public static Object stableDocument(Object doc, LintResult r) {
        ProjectPaths p = r.paths();
        Map<String, String> names = new HashMap<>();
        for (String f : r.files()) {
            String to = f.isEmpty() ? f : p.stable(f);
            if (!to.equals(f)) names.put(f, to);
        }
        return rewrite(doc, Fingerprints.rewriter(names));
    }

    private static Object rewrite(Object o, UnaryOperator<String> words) {
        if (o instanceof String s) return words.apply(s);
        if (o instanceof Map<?, ?> m) {
            Map<Object, Object> out = new java.util.LinkedHashMap<>();
            for (Map.Entry<?, ?> e : m.entrySet()) out.put(e.getKey(), rewrite(e.getValue(), words));
            return out;
        }
        if (o instanceof List<?> l) {
            List<Object> out = new ArrayList<>(l.size());
            for (Object x : l) out.add(rewrite(x, words));
            return out;
        }
        return o;
    }

    /** The folder reports are relative to: {@code override} when given (CI_PROJECT_DIR), else the project root. */
    static Path root(Path override, ProjectPaths paths) {
        return (override != null ? override : paths.root()).toAbsolutePath().normalize();
    }

    /**
     * A display path relative to {@code root} (with {@code ../} for a file outside it, as CI tools
     * take no absolute paths), or as given when it is no path. Never starts with {@code ./}.
     */
    static String relative(Path root, ProjectPaths paths, String file) {
        Path abs = paths.absolute(file);
        if (abs == null) return file;
        String rel = root.getRoot() != null && root.getRoot().equals(abs.getRoot()) ? root.relativize(abs).toString() : abs.toString();
        return dev.gpulint.core.PathNames.slashes(rel);
    }

    /** Relative to {@code root} when the file lies inside it, else as given (normalized): GitHub's annotations. */
    static String inside(Path root, ProjectPaths paths, String file) {
        Path abs = paths.absolute(file);
        if (abs == null) return file;
        String rel = abs.startsWith(root) ? root.relativize(abs).toString() : Path.of(file).normalize().toString();
        return dev.gpulint.core.PathNames.slashes(rel);
    }

    /**
     * The result as the machine-read reports (JSON, SARIF, GitLab, JUnit) name its files, so that
     * they are the same bytes from any working directory: each display path of a finding (its file, its related places'
     * and its fixes' edits', and where its message, related messages and identity write them) becomes the path the
     * fingerprints use ({@link ProjectPaths#stable}: relative to the project root, absolute outside it), the linted
     * files likewise, with the root as the base; the files in the order of those paths (a file's findings keep theirs).
     * Text output keeps the display paths, relative to the working directory, for the person reading it; GitHub's
     * annotations name files from {@code GITHUB_WORKSPACE} (GithubRenderer).
     */
    static LintResult stable(LintResult r) {
        ProjectPaths p = r.paths();
        Map<String, String> names = new HashMap<>();
        java.util.function.Function<String, String> stable = d -> names.computeIfAbsent(d, x -> x.isEmpty() ? x : p.stable(x));
        List<Finding> out = new ArrayList<>(r.findings().size());
        for (Finding f : r.findings()) {
            Map<String, String> own = new HashMap<>();
            own.put(f.span().file(), stable.apply(f.span().file()));
            for (Finding.Related x : f.related()) own.putIfAbsent(x.span().file(), stable.apply(x.span().file()));
            own.entrySet().removeIf(e -> e.getKey().isEmpty() || e.getKey().equals(e.getValue()));
            // the texts with the paths of the finding's file and related places, as its fingerprint reads them
            // (Fingerprints.of): the fingerprint of the finding as written here is the one the run settled with
            Map<String, String> all = new HashMap<>(own);
            for (Fix x : f.fixes()) for (TextEdit e : x.edits()) if (!e.file().equals(stable.apply(e.file()))) all.putIfAbsent(e.file(), stable.apply(e.file()));
            if (all.isEmpty()) {
                out.add(f);
                continue;
            }
            UnaryOperator<String> words = Fingerprints.rewriter(own);
            List<Finding.Related> related = new ArrayList<>(f.related().size());
            for (Finding.Related x : f.related()) related.add(new Finding.Related(moved(x.span(), own), words.apply(x.message())));
            List<Fix> fixes = new ArrayList<>(f.fixes().size());
            for (Fix x : f.fixes()) {
                fixes.add(x.withEdits(x.edits().stream().map(e -> new TextEdit(moved(e.span(), all), e.replacement(), e.match(),
                        e.startOffset(), e.endOffset())).toList()));
            }
            out.add(new Finding(f.ruleId(), f.level(), moved(f.span(), own), words.apply(f.message()), related,
                    words.apply(f.identity()), f.suppression(), fixes));
        }
        // a stable sort by file: the settled order within a file (and the cap's notes after their findings) stays
        out.sort(java.util.Comparator.comparing(f -> f.span().file()));
        List<String> files = r.files().stream().map(stable).toList();
        return new LintResult(out, files, r.inputFailed(), r.baselined(), new ProjectPaths(p.root(), p.root()));
    }

    private static Span moved(Span s, Map<String, String> names) {
        String to = names.get(s.file());
        return to == null ? s : new Span(to, s.startLine(), s.startColumn(), s.endLine(), s.endColumn());
    }
}
