package dev.gpulint.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpulint.RuleCases;
import dev.gpulint.lint.LintResult;
import dev.gpulint.lint.Linter;
import dev.gpulint.read.SourceFile;
import dev.gpulint.report.Finding;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every case of every rule, as a dynamic test: the files are linted together
 * and the findings of the rule under test must be exactly the expected ones
 * (file, line, column, message, and related locations where given).
 */
class RuleCasesTest {

    private static final Linter LINTER = new Linter();

    @TestFactory
    Stream<DynamicNode> everyCaseOfEveryRule() throws Exception {
        List<DynamicNode> rules = new ArrayList<>();
        for (Path file : RuleCases.testFiles()) {
            List<DynamicNode> tests = new ArrayList<>();
            for (RuleCases.Case c : RuleCases.load(file)) {
                tests.add(DynamicTest.dynamicTest(c.name(), file.toUri(), () -> check(c)));
            }
            rules.add(DynamicContainer.dynamicContainer(file.getFileName().toString(), tests));
        }
        return rules.stream();
    }

    static void check(RuleCases.Case c) {
        List<SourceFile> files = new ArrayList<>();
        for (Map.Entry<String, String> e : c.files().entrySet()) files.add(SourceFile.of(e.getKey(), e.getValue()));
        LintResult result = LINTER.lint(files);
        List<String> actual = new ArrayList<>();
        for (Finding f : result.findings()) {
            if (f.ruleId().equals(c.rule())) actual.add(describe(f, c));
        }
        List<String> expected = new ArrayList<>();
        for (RuleCases.Expected e : c.expect()) expected.add(describe(e));
        assertEquals(String.join("\n", expected), String.join("\n", actual),
                "findings of " + c.rule() + " in case '" + c.name() + "'");
    }

    private static String describe(RuleCases.Expected e) {
        StringBuilder sb = new StringBuilder(e.file() + ":" + e.line() + ":" + e.column() + ": "
                + (e.level() != null ? e.level() + ": " : "") + e.message());
        if (e.related() != null) {
            for (int[] r : e.related()) sb.append("\n  related ").append(e.relatedFile()).append(':').append(r[0]).append(':').append(r[1]);
        }
        return sb.toString();
    }

    private static boolean same(RuleCases.Expected e, Finding f) {
        return e.line() == f.span().startLine() && e.column() == f.span().startColumn() && e.file().equals(f.span().file());
    }

    /** Related locations and levels are compared only where the case states them. */
    private static String describe(Finding f, RuleCases.Case c) {
        boolean wantsLevel = c.expect().stream().anyMatch(e -> e.level() != null && same(e, f));
        StringBuilder sb = new StringBuilder(f.span().file() + ":" + f.span().startLine() + ":" + f.span().startColumn()
                + ": " + (wantsLevel ? f.level().id() + ": " : "") + f.message());
        boolean wantsRelated = c.expect().stream().anyMatch(e -> e.related() != null && same(e, f));
        if (wantsRelated) {
            for (Finding.Related r : f.related()) {
                sb.append("\n  related ").append(r.span().file()).append(':').append(r.span().startLine()).append(':')
                  .append(r.span().startColumn());
            }
        }
        return sb.toString();
    }
}
