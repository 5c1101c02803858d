package dev.gpulint.ruletest;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/** The rule cases of rules/&lt;family&gt;/ID.test.yaml (docs/writing-rules.md, "4. Test them"). */
public final class RuleCases {
    private RuleCases() {}

    /** The built-in rules' folder, seen from the core module (tests). */
    public static final Path RULES = Path.of("..", "rules");

    /**
     * @param fix the fixes the finding offers, one per line as {@code safe: TITLE} or {@code unsafe: TITLE}
     *            ({@code fix: none} in the case: an empty list); null when the case does not state them
     */
    public record Expected(String file, int line, int column, String message, List<int[]> related, String relatedFile, String level,
                           List<String> fix) {
        public Expected(String file, int line, int column, String message, List<int[]> related, String relatedFile, String level) {
            this(file, line, column, message, related, relatedFile, level, null);
        }
    }

    /**
     * @param fixed the case's files after applying its rule's fixes (file name to whole text; a file not named
     *              must stay as it was), or null when the case states none ({@link FixCases})
     */
    public record Case(String rule, String name, Map<String, String> files, List<Expected> expect, Path source,
                       Map<String, String> fixed) {
        public Case(String rule, String name, Map<String, String> files, List<Expected> expect, Path source) {
            this(rule, name, files, expect, source, null);
        }
    }

    public static List<Path> testFiles() throws IOException {
        return testFiles(RULES);
    }

    public static List<Path> testFiles(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".test.yaml")).sorted().toList();
        }
    }

    @SuppressWarnings("unchecked")
    public static List<Case> load(Path file) throws IOException {
        Map<String, Object> root = (Map<String, Object>) new Load(LoadSettings.builder().build())
                .loadFromString(Files.readString(file, StandardCharsets.UTF_8));
        String rule = (String) root.get("rule");
        List<Case> cases = new ArrayList<>();
        for (Map<String, Object> c : (List<Map<String, Object>>) root.get("cases")) {
            List<Expected> expect = new ArrayList<>();
            for (Map<String, Object> e : (List<Map<String, Object>>) c.get("expect")) {
                List<int[]> related = new ArrayList<>();
                String relatedFile = null;
                for (Map<String, Object> r : (List<Map<String, Object>>) e.getOrDefault("related", List.of())) {
                    related.add(new int[] {((Number) r.get("line")).intValue(), ((Number) r.get("column")).intValue()});
                    relatedFile = (String) r.get("file");
                }
                expect.add(new Expected((String) e.get("file"), ((Number) e.get("line")).intValue(),
                        ((Number) e.get("column")).intValue(), (String) e.get("message"),
                        e.containsKey("related") ? related : null, relatedFile, (String) e.get("level"),
                        e.containsKey("fix") ? FixCases.expected(e.get("fix")) : null));
            }
            cases.add(new Case(rule, (String) c.get("name"), (Map<String, String>) c.get("files"), expect, file,
                    (Map<String, String>) c.get("fixed")));
        }
        return cases;
    }

    /**
     * Runs one case: lints its files together and compares the findings of its rule with the
     * expected ones. Returns null when they agree, else the expected and actual lists, one per line.
     */
    public static String check(Case c, dev.gpulint.lint.Linter linter) {
        List<dev.gpulint.read.SourceFile> files = new ArrayList<>();
        Map<String, String> teamRules = new java.util.TreeMap<>();
        for (java.util.Map.Entry<String, String> e : c.files().entrySet()) {
            if (e.getKey().equals(CONFIG)) continue;
            if (e.getKey().startsWith(TEAM_RULES)) teamRules.put(e.getKey().substring(TEAM_RULES.length()), e.getValue());
            else files.add(dev.gpulint.read.SourceFile.of(e.getKey(), e.getValue()));
        }
        if (c.files().containsKey(CONFIG)) linter = withEvidenceLinks(c.files().get(CONFIG));
        if (!teamRules.isEmpty()) linter = withTeamRules(teamRules);
        dev.gpulint.core.LintResult result = lint(linter, files);
        List<String> actual = new ArrayList<>();
        for (dev.gpulint.core.Finding f : result.findings()) if (f.ruleId().equals(c.rule())) actual.add(describe(f, c));
        List<String> expected = new ArrayList<>();
        for (Expected e : c.expect()) expected.add(describe(e));
        String a = String.join("\n", actual), x = String.join("\n", expected);
        if (!a.equals(x)) return "expected:\n" + x + "\nactual:\n" + a;
        return c.fixed() == null ? null : FixCases.check(c, files, result, linter);
    }

    /** Lints {@code files} through the front door (app.Checks): the post-run steps (layout fixes) as check runs them. */
    static dev.gpulint.core.LintResult lint(dev.gpulint.lint.Linter linter, List<dev.gpulint.read.SourceFile> files) {
        return dev.gpulint.app.Checks.check(linter, files);
    }

    /**
     * A case's file of this name is its configuration: its {@code evidence:} entries link the case's evidence files, and its
     * {@code job_clusters:} entries place the jobs of other formats (a launch script) on a cluster of the case's files.
     */
    public static final String CONFIG = ".gpulint.yaml";

    /** A case's files under this folder are a team's rules (ID.drl and ID.yaml), run as with --rules. */
    public static final String TEAM_RULES = "rules/";

    /** A linter that runs the team rules {@code texts} (file name to text) after the built-in ones. */
    private static dev.gpulint.lint.Linter withTeamRules(Map<String, String> texts) {
        try {
            Path dir = Files.createTempDirectory("gpulint-case-rules");
            try {
                for (Map.Entry<String, String> e : texts.entrySet()) Files.writeString(dir.resolve(e.getKey()), e.getValue());
                dev.gpulint.engine.UserRules rules = dev.gpulint.engine.UserRules.load(dir, p -> TEAM_RULES + dir.relativize(p));
                return new dev.gpulint.lint.Linter().withUserRules(rules, dev.gpulint.core.Span.at("rules", 1, 1));
            } finally {
                try (Stream<Path> s = Files.list(dir)) {
                    for (Path p : s.toList()) Files.delete(p);
                }
                Files.delete(dir);
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * A linter whose evidence links, job placements and rule parameters are those of the configuration {@code text}, the
     * globs relative to the case's files.
     */
    private static dev.gpulint.lint.Linter withEvidenceLinks(String text) {
        try {
            java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("gpulint-case");
            java.nio.file.Path file = dir.resolve(CONFIG);
            java.nio.file.Files.writeString(file, text);
            dev.gpulint.config.Config config = dev.gpulint.config.Config.load(file, CONFIG);
            java.nio.file.Files.delete(file);
            java.nio.file.Files.delete(dir);
            java.util.Map<String, Double> params = new java.util.LinkedHashMap<>();
            for (dev.gpulint.config.Config.ParamSetting x : config.params()) params.put(x.rule() + "." + x.name(), x.value());
            return new dev.gpulint.lint.Linter().evidenceLinks(p -> config.evidenceLink(dir.resolve(p).toString()))
                    .jobPlacement(p -> config.placement(dir.resolve(p).toString())).params(params);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static String describe(Expected e) {
        StringBuilder sb = new StringBuilder(e.file() + ":" + e.line() + ":" + e.column() + ": "
                + (e.level() != null ? e.level() + ": " : "") + e.message());
        if (e.related() != null) {
            for (int[] r : e.related()) sb.append("\n  related ").append(e.relatedFile()).append(':').append(r[0]).append(':').append(r[1]);
        }
        if (e.fix() != null) for (String x : e.fix()) sb.append("\n  fix ").append(x);
        return sb.toString();
    }

    private static boolean same(Expected e, dev.gpulint.core.Finding f) {
        return e.line() == f.span().startLine() && e.column() == f.span().startColumn() && e.file().equals(f.span().file());
    }

    /** Related locations and levels are compared only where the case states them. */
    static String describe(dev.gpulint.core.Finding f, Case c) {
        boolean wantsLevel = c.expect().stream().anyMatch(e -> e.level() != null && same(e, f));
        StringBuilder sb = new StringBuilder(f.span().file() + ":" + f.span().startLine() + ":" + f.span().startColumn()
                + ": " + (wantsLevel ? f.level().id() + ": " : "") + f.message());
        if (c.expect().stream().anyMatch(e -> e.related() != null && same(e, f))) {
            for (dev.gpulint.core.Finding.Related r : f.related()) {
                sb.append("\n  related ").append(r.span().file()).append(':').append(r.span().startLine()).append(':')
                  .append(r.span().startColumn());
            }
        }
        if (c.expect().stream().anyMatch(e -> e.fix() != null && same(e, f))) {
            for (dev.gpulint.core.Fix x : f.fixes()) sb.append("\n  fix ").append(x.safety().id()).append(": ").append(x.title());
        }
        return sb.toString();
    }
}
