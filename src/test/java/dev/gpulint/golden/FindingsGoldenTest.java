package dev.gpulint.golden;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpulint.core.LintResult;
import dev.gpulint.lint.Linter;
import dev.gpulint.read.SourceFile;
import dev.gpulint.ruletest.RuleCases;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every finding gpulint gives on samples/ and on every file of every rule case, with its level,
 * location, message and related locations: all of them, not only the rule under test. A change
 * of behaviour shows as a diff of the golden file; regenerate it with
 * -Dgpulint.updateGolden=true and explain every changed line in the commit.
 */
class FindingsGoldenTest {

    private static final Path GOLDEN = Path.of("test", "resources", "golden", "findings.txt");

    @Test
    void findingsOnSamplesAndRuleCasesAreUnchanged() throws IOException {
        StringBuilder out = new StringBuilder();
        Linter linter = new Linter().serial();
        List<SourceFile> samples = new ArrayList<>();
        try (Stream<Path> s = Files.walk(Path.of("..", "samples"))) {
            for (Path p : s.filter(Files::isRegularFile).sorted().toList()) {
                String display = Path.of("..").relativize(p).toString().replace('\\', '/');
                samples.add(SourceFile.of(display, Files.readString(p, StandardCharsets.UTF_8)));
            }
        }
        out.append("== samples/\n");
        dump(linter.lint(samples), out);
        for (Path file : RuleCases.testFiles()) {
            for (RuleCases.Case c : RuleCases.load(file)) {
                out.append("== ").append(file.getFileName()).append(" / ").append(c.name()).append('\n');
                List<SourceFile> files = new ArrayList<>();
                c.files().forEach((k, v) -> { if (!k.startsWith(RuleCases.TEAM_RULES)) files.add(SourceFile.of(k, v)); });
                dump(linter.lint(files), out);
            }
        }
        String actual = out.toString();
        if (Boolean.getBoolean("gpulint.updateGolden")) Files.writeString(GOLDEN, actual, StandardCharsets.UTF_8);
        assertEquals(Files.readString(GOLDEN, StandardCharsets.UTF_8), actual);
    }

    private static void dump(LintResult r, StringBuilder out) {
        for (var f : r.findings()) {
            out.append(f.span().file()).append(':').append(f.span().startLine()).append(':').append(f.span().startColumn())
               .append('-').append(f.span().endLine()).append(':').append(f.span().endColumn()).append(' ')
               .append(f.level().id()).append(' ').append(f.ruleId()).append(' ').append(f.identity()).append(" | ")
               .append(f.message()).append('\n');
            for (var rel : f.related()) {
                out.append("    related ").append(rel.span().file()).append(':').append(rel.span().startLine()).append(':')
                   .append(rel.span().startColumn()).append(' ').append(rel.message()).append('\n');
            }
        }
        out.append("  files: ").append(String.join(", ", r.files())).append(r.inputFailed() ? " (input failed)" : "").append('\n');
    }
}
