package dev.gpulint.testing;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.core.Finding;
import dev.gpulint.lint.Linter;
import dev.gpulint.read.SourceFile;
import java.util.ArrayList;
import java.util.List;

/**
 * The set-up of the tests that lint one file of another format and check the run went on: the file is linted (serially)
 * beside {@link #GOOD}, a sound job whose one finding, SYN003 at 3:10, shows the run's other files were still linted.
 */
public final class LintBeside {

    private LintBeside() {}

    /** A training job on a cluster that does not exist: SYN003 at ok.yaml:3:10 and nothing else. */
    public static final SourceFile GOOD = SourceFile.of("ok.yaml", "kind: training_job\nname: ok\ncluster: missing\n");

    /**
     * Every finding of {@code f} linted beside {@link #GOOD}, {@code file:line:col RULE message} each, in the run's order;
     * fails unless GOOD's SYN003 is among them and no finding is an internal error.
     */
    public static List<String> lint(SourceFile f) {
        List<String> out = new ArrayList<>();
        for (Finding x : new Linter().serial().lint(List.of(f, GOOD)).findings()) {
            out.add(x.span().file() + ":" + x.span().startLine() + ":" + x.span().startColumn() + " " + x.ruleId() + " " + x.message());
        }
        assertTrue(out.stream().anyMatch(s -> s.startsWith("ok.yaml:3:10 SYN003")), "the other file is still linted: " + out);
        assertTrue(out.stream().noneMatch(s -> s.contains("internal error")), "no crash: " + out);
        return out;
    }
}
