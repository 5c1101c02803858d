package dev.gpulint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The redesign's two structural rules, read from the sources: imports run only downward through
 * the stages, and no class in the pipeline grows past ~300 lines. A subpackage belongs to its
 * top-level stage (bind.adapt is bind, derive.par is derive).
 */
class ArchitectureTest {

    /** The stages, low to high: a class may name its own stage and lower ones only. */
    static final List<String> STAGES = List.of("core", "tree", "read", "spec", "catalog", "meta", "facts", "bind",
            "derive", "engine", "config", "settle", "report", "lint", "plan", "ruletest", "discover", "fix", "lsp", "daemon", "cli");

    /** Stages whose classes the line limit applies to. */
    static final Set<String> PIPELINE = Set.of("read", "bind", "derive", "engine", "settle", "config", "lint", "plan");

    static final int MAX_LINES = 320;

    /** The test working directory is the module, src/, whose sources are main/java. */
    private static final Path MAIN = Path.of("main/java");
    private static final Pattern REFERENCE = Pattern.compile("\\bdev\\s*\\.\\s*gpulint\\s*\\.\\s*([A-Za-z_][A-Za-z0-9_]*)");
    private static final Pattern PACKAGE = Pattern.compile("^\\s*package\\s+dev\\.gpulint\\.([a-z0-9_]+)[.;]", Pattern.MULTILINE);

    @Test
    void importsRunOnlyDownwardAndPipelineClassesStaySmall() throws IOException {
        List<String> violations = violations(MAIN);
        if (!violations.isEmpty()) {
            fail(violations.size() + " architecture violation(s):\n  " + String.join("\n  ", violations));
        }
    }

    /** Every violation under {@code root}, one line each, in path order. */
    static List<String> violations(Path root) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.walk(root)) {
            files = s.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
        assertTrue(files.size() > 50, "expected the sources under " + root.toAbsolutePath());
        List<String> out = new ArrayList<>();
        for (Path f : files) out.addAll(check(root.relativize(f).toString().replace('\\', '/'),
                Files.readString(f, StandardCharsets.UTF_8)));
        return out;
    }

    /** The violations of one source file, named {@code name} in the messages. */
    static List<String> check(String name, String source) {
        List<String> out = new ArrayList<>();
        String code = stripCommentsAndLiterals(source);
        Matcher pm = PACKAGE.matcher(code);
        if (!pm.find()) {
            out.add(name + ": not in a dev.gpulint stage package");
            return out;
        }
        String own = pm.group(1);
        int ownRank = STAGES.indexOf(own);
        if (ownRank < 0) {
            out.add(name + ": package dev.gpulint." + own + " is no stage of " + STAGES);
            return out;
        }
        String body = code.substring(pm.end());
        Set<String> higher = new TreeSet<>();
        Matcher m = REFERENCE.matcher(body);
        while (m.find()) {
            String target = m.group(1);
            int rank = STAGES.indexOf(target);
            if (rank > ownRank) higher.add(target);
            else if (rank < 0 && Character.isLowerCase(target.charAt(0))) higher.add(target + " (no stage)");
        }
        for (String t : higher) {
            out.add(name + ": " + own + " names dev.gpulint." + t + ", a higher stage");
        }
        if (PIPELINE.contains(own)) {
            long lines = source.lines().count();
            if (lines > MAX_LINES) out.add(name + ": " + lines + " lines, over " + MAX_LINES);
        }
        return out;
    }

    /**
     * The source with comments, string and text-block literals and char literals blanked, line
     * breaks kept: what is left is code only.
     */
    static String stripCommentsAndLiterals(String s) {
        StringBuilder b = new StringBuilder(s.length());
        int i = 0, n = s.length();
        while (i < n) {
            char c = s.charAt(i);
            if (c == '/' && i + 1 < n && s.charAt(i + 1) == '/') {
                while (i < n && s.charAt(i) != '\n') i++;
            } else if (c == '/' && i + 1 < n && s.charAt(i + 1) == '*') {
                int end = s.indexOf("*/", i + 2);
                end = end < 0 ? n : end + 2;
                blank(b, s, i, end);
                i = end;
            } else if (s.startsWith("\"\"\"", i)) {
                int j = i + 3;
                while (j < n && !s.startsWith("\"\"\"", j)) j += s.charAt(j) == '\\' ? 2 : 1;
                int end = Math.min(n, j + 3);
                blank(b, s, i, end);
                i = end;
            } else if (c == '"' || c == '\'') {
                int j = i + 1;
                while (j < n && s.charAt(j) != c && s.charAt(j) != '\n') j += s.charAt(j) == '\\' ? 2 : 1;
                int end = Math.min(n, j + 1);
                blank(b, s, i, end);
                i = end;
            } else {
                b.append(c);
                i++;
            }
        }
        return b.toString();
    }

    private static void blank(StringBuilder b, String s, int from, int to) {
        b.append(' ');
        for (int k = from; k < to; k++) if (s.charAt(k) == '\n') b.append('\n');
    }

    // ---------------------------------------------------------------- the checker itself

    @Test
    void anUpwardImportOrFullyQualifiedNameIsAViolationButACommentOrStringIsNot() {
        String src = """
                package dev.gpulint.bind.adapt;

                import dev.gpulint.spec.Specs;
                import dev.gpulint.bind.Binder;
                import static dev.gpulint.engine.RuleEngine.MAX_FIRINGS;
                /** Like {@link dev.gpulint.lint.Linter}, see dev.gpulint.cli.Main. */
                class X {
                    // dev.gpulint.report.SarifRenderer
                    String s = "dev.gpulint.settle.Settler";
                    char c = '"';
                    Object o = new dev.gpulint.derive.Facts();
                    String t = \"""
                        dev.gpulint.config.Config
                        \""";
                }
                """;
        assertEquals(List.of(
                        "X.java: bind names dev.gpulint.derive, a higher stage",
                        "X.java: bind names dev.gpulint.engine, a higher stage"),
                check("X.java", src));
    }

    @Test
    void theLineLimitAppliesToPipelineStagesOnly() {
        String big = "x\n".repeat(MAX_LINES);
        assertEquals(List.of(), check("a/Ok.java", "package dev.gpulint.derive.par;\n" + big.substring(2)));
        assertEquals(List.of("a/Big.java: 321 lines, over 320"), check("a/Big.java", "package dev.gpulint.derive.par;\n" + big));
        assertEquals(List.of(), check("a/Cli.java", "package dev.gpulint.cli;\n" + big));
    }

    @Test
    void anUnknownPackageIsReported() {
        assertEquals(List.of("Y.java: package dev.gpulint.misc is no stage of " + STAGES),
                check("Y.java", "package dev.gpulint.misc;\nclass Y {}\n"));
        assertEquals(List.of("Z.java: core names dev.gpulint.newstage (no stage), a higher stage"),
                check("Z.java", "package dev.gpulint.core;\nclass Z { dev.gpulint.newstage.A a; }\n"));
    }
}
