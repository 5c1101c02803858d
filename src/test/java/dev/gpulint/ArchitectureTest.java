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
 * The shape of the code, read from the sources: imports run only downward through the stages, and no packages import
 * each other in a cycle. A subpackage belongs to its top-level stage (bind.adapt is bind, derive.par is derive). How
 * long a class is does not matter here: a class is as long as its one job needs (shape-check lists the very long ones
 * for a reader to judge).
 */
class ArchitectureTest {

    /**
     * The stages, low to high: a class may name its own stage and lower ones only. First what every stage shares (the
     * spans, the document tree, the bound specs, the facts the rules match, the hardware catalog), then the pipeline in
     * the order data flows (read, bind, configuration, derive, the rules' metadata, the rule engine, settle, the fix
     * mechanics, render), then the run (lint), the plan, the one entry of every front end (app), and the front ends.
     * So derive words nothing (meta is above it), facts and configuration import no reader or estimator, settle knows no
     * rule engine, and a run's request knows no renderer.
     */
    static final List<String> STAGES = List.of("core", "tree", "spec", "facts", "catalog", "read", "bind", "config", "derive",
            "meta", "engine", "settle", "fix", "report", "lint", "plan", "diagnose", "app", "ruletest", "discover", "lsp", "daemon", "cli");

    /** The test working directory is the module, src/, whose sources are main/java. */
    private static final Path MAIN = Path.of("main/java");
    private static final Pattern REFERENCE = Pattern.compile("\\bdev\\s*\\.\\s*gpulint\\s*\\.\\s*([A-Za-z_][A-Za-z0-9_]*)");
    private static final Pattern PACKAGE = Pattern.compile("^\\s*package\\s+dev\\.gpulint\\.([a-z0-9_]+)[.;]", Pattern.MULTILINE);

    @Test
    void importsRunOnlyDownward() throws IOException {
        List<String> violations = violations(MAIN);
        if (!violations.isEmpty()) {
            fail(violations.size() + " architecture violation(s):\n  " + String.join("\n  ", violations));
        }
    }

    @Test
    void noPackagesImportEachOtherInACycle() throws IOException {
        List<String> cycles = cycles(imports(MAIN));
        if (!cycles.isEmpty()) fail(cycles.size() + " import cycle(s):\n  " + String.join("\n  ", cycles));
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
        return out;
    }

    private static final Pattern FULL_PACKAGE = Pattern.compile("^\\s*package\\s+(dev\\.gpulint(?:\\.[a-z0-9_]+)*)\\s*;", Pattern.MULTILINE);
    private static final Pattern NAMED = Pattern.compile("\\b(dev\\s*\\.\\s*gpulint(?:\\s*\\.\\s*[a-z][a-z0-9_]*)*)\\s*\\.\\s*[A-Z]");

    /** The packages each package's code names (imports and qualified names), by package, in name order. */
    static java.util.Map<String, Set<String>> imports(Path root) throws IOException {
        java.util.Map<String, Set<String>> out = new java.util.TreeMap<>();
        try (Stream<Path> s = Files.walk(root)) {
            for (Path f : s.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                String code = stripCommentsAndLiterals(Files.readString(f, StandardCharsets.UTF_8));
                Matcher pm = FULL_PACKAGE.matcher(code);
                if (!pm.find()) continue;
                String own = pm.group(1);
                Set<String> named = out.computeIfAbsent(own, k -> new TreeSet<>());
                Matcher m = NAMED.matcher(code.substring(pm.end()));
                while (m.find()) {
                    String target = m.group(1).replaceAll("\\s", "");
                    if (!target.equals(own)) named.add(target);
                }
            }
        }
        return out;
    }

    /**
     * The cycles among packages, one line each ("a -> b -> a"), from {@code imports}. A stage's root package naming its own
     * subpackages is left out: that is a registry of its members (read.Readers names read.yaml, derive.Deriver names
     * derive.par), and the members use the root's shared types; any other cycle is one, in a stage or between stages.
     */
    static List<String> cycles(java.util.Map<String, Set<String>> imports) {
        java.util.Map<String, Set<String>> edges = new java.util.TreeMap<>();
        imports.forEach((from, tos) -> {
            Set<String> kept = new TreeSet<>();
            for (String to : tos) if (!to.startsWith(from + ".")) kept.add(to);
            edges.put(from, kept);
        });
        // Tarjan's strongly connected components, iterative over the packages in name order: deterministic messages
        java.util.Map<String, Integer> index = new java.util.HashMap<>(), low = new java.util.HashMap<>();
        java.util.Deque<String> stack = new java.util.ArrayDeque<>();
        Set<String> on = new java.util.HashSet<>();
        List<String> out = new ArrayList<>();
        int[] counter = {0};
        for (String v : edges.keySet()) if (!index.containsKey(v)) strong(v, edges, index, low, stack, on, counter, out);
        java.util.Collections.sort(out);
        return out;
    }

    private static void strong(String v, java.util.Map<String, Set<String>> edges, java.util.Map<String, Integer> index,
                               java.util.Map<String, Integer> low, java.util.Deque<String> stack, Set<String> on, int[] counter,
                               List<String> out) {
        index.put(v, counter[0]);
        low.put(v, counter[0]++);
        stack.push(v);
        on.add(v);
        for (String w : edges.getOrDefault(v, Set.of())) {
            if (!index.containsKey(w)) {
                strong(w, edges, index, low, stack, on, counter, out);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (on.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            List<String> component = new ArrayList<>();
            String w;
            do {
                w = stack.pop();
                on.remove(w);
                component.add(w);
            } while (!w.equals(v));
            if (component.size() > 1) {
                java.util.Collections.sort(component);
                out.add(String.join(" <-> ", component));
            }
        }
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
    void aCycleIsReportedButARootNamingItsOwnSubpackagesIsNot() {
        java.util.Map<String, Set<String>> imports = new java.util.TreeMap<>();
        imports.put("dev.gpulint.read", Set.of("dev.gpulint.read.yaml", "dev.gpulint.core"));
        imports.put("dev.gpulint.read.yaml", Set.of("dev.gpulint.read"));
        imports.put("dev.gpulint.derive.net", Set.of("dev.gpulint.derive.par"));
        imports.put("dev.gpulint.derive.par", Set.of("dev.gpulint.derive.mem"));
        assertEquals(List.of(), cycles(imports));
        imports.put("dev.gpulint.derive.mem", Set.of("dev.gpulint.derive.net"));
        assertEquals(List.of("dev.gpulint.derive.mem <-> dev.gpulint.derive.net <-> dev.gpulint.derive.par"), cycles(imports));
    }

    @Test
    void longClassesAreNoViolation() {
        String big = "x\n".repeat(2_000);
        assertEquals(List.of(), check("a/Big.java", "package dev.gpulint.derive.par;\n" + big));
    }

    @Test
    void anUnknownPackageIsReported() {
        assertEquals(List.of("Y.java: package dev.gpulint.misc is no stage of " + STAGES),
                check("Y.java", "package dev.gpulint.misc;\nclass Y {}\n"));
        assertEquals(List.of("Z.java: core names dev.gpulint.newstage (no stage), a higher stage"),
                check("Z.java", "package dev.gpulint.core;\nclass Z { dev.gpulint.newstage.A a; }\n"));
    }
}
