package dev.gpulint.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.core.Finding;
import dev.gpulint.core.LintResult;
import dev.gpulint.core.Safety;
import dev.gpulint.derive.unit.UnitEdits;
import dev.gpulint.fix.FixSettings;
import dev.gpulint.lint.Linter;
import dev.gpulint.read.SourceFile;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The unit fix is given after the run, in app.RuleFixes, as the layout fix is: to the settled finding about the value,
 * settled by the configuration's fix: as a rule's own fixes are, never to a suppressed finding.
 */
class RuleFixesTest {
    private static final String CLUSTER = "kind: cluster\nname: c\nnode_groups:\n  - name: g\n    count: 1\n"
            + "    gpu: { model: H100-SXM5-80GB, count: 8 }\n    nvlink: { bandwidth: 900 }%s\n";

    private record Run(LintResult bare, List<Object> derived, Linter linter, SourceFile file) {}

    private static Run run(String comment) {
        Linter linter = new Linter();
        SourceFile file = SourceFile.of("c.yaml", String.format(CLUSTER, comment));
        List<Object> derived = new ArrayList<>();
        LintResult bare = linter.lint(List.of(file), List.of(), Set.of(), derived::addAll);
        return new Run(bare, derived, linter, file);
    }

    private static Finding unit003(LintResult r) {
        return r.findings().stream().filter(f -> f.ruleId().equals("UNIT003")).findFirst().orElseThrow();
    }

    private static LintResult fixed(Run r, FixSettings settings) {
        return RuleFixes.apply(List.of(), r.derived(), r.bare(), SourceFile.texts(List.of(r.file()), Set.of()), r.linter().rules(), settings, Map.of());
    }

    @Test
    void theLintStageHandsOutTheEditsAndTheApplicationLayerTitlesThem() {
        Run r = run("");
        assertTrue(unit003(r.bare()).fixes().isEmpty(), "the lint stage gives no Java-made fix");
        assertEquals(1, r.derived().stream().filter(o -> o instanceof UnitEdits).count());
        Finding f = unit003(fixed(r, FixSettings.ALL));
        assertEquals(1, f.fixes().size());
        assertEquals("write 900 GB/s instead of 900, and add direction: bidirectional", f.fixes().get(0).title());
        assertEquals(Safety.SAFE, f.fixes().get(0).safety());
        assertTrue(f.fixes().get(0).edits().stream().allMatch(e -> e.resolved()), "placed in the text linted");
    }

    @Test
    void theConfigurationsFixSettingsHoldForIt() {
        Run r = run("");
        assertTrue(unit003(fixed(r, new FixSettings(Set.of(), Set.of("UNIT003"), Set.of(), Set.of()))).fixes().isEmpty(), "unfixable");
        assertEquals(Safety.UNSAFE, unit003(fixed(r, new FixSettings(Set.of(), Set.of(), Set.of(), Set.of("UNIT003")))).fixes().get(0).safety());
        assertTrue(unit003(fixed(r, new FixSettings(Set.of("UNIT001"), Set.of(), Set.of(), Set.of()))).fixes().isEmpty(), "not among fixable");
    }

    @Test
    void aSuppressedFindingGetsNone() {
        Run r = run("   # gpulint: ignore UNIT003 -- vendor sheet in Gb/s, fixed upstream");
        Finding f = unit003(fixed(r, FixSettings.ALL));
        assertTrue(f.suppressed(), f.toString());
        assertTrue(f.fixes().isEmpty(), f.toString());
    }
}
