package dev.gpulint.settle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.gpulint.core.Finding;
import dev.gpulint.core.Span;
import dev.gpulint.meta.RuleCatalog;
import dev.gpulint.read.SourceFile;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Inline suppressions: their forms, what they cover, and every way one can be wrong (SYN005). */
class SuppressionsTest {

    private static final LocalDate TODAY = LocalDate.of(2026, 12, 3);

    private static Finding at(String rule, String file, int line, int col) {
        return Finding.of(rule, Span.at(file, line, col), rule + "@" + line, rule + " found");
    }

    private static List<String> apply(SourceFile file, Finding... findings) {
        return Suppressions.apply(List.of(file), List.of(findings), RuleCatalog.builtIn(), TODAY).stream()
                .map(f -> f.span() + " " + f.ruleId() + " " + f.message() + (f.suppressed() ? " [" + f.suppression() + "]" : ""))
                .toList();
    }

    @Test
    void aTrailingCommentCoversItsOwnLineOnly() {
        SourceFile f = SourceFile.of("c.yaml", "a: 1\nfabric: roce  # gpulint: ignore NET001 -- lab network, no RDMA\nb: 2\n");
        assertEquals(List.of("c.yaml:2:3 NET001 NET001 found. [lab network, no RDMA]", "c.yaml:3:1 NET001 NET001 found."),
                apply(f, at("NET001", "c.yaml", 2, 3), at("NET001", "c.yaml", 3, 1)));
    }

    @Test
    void aCommentAloneOnItsLineCoversTheNextLineInYamlAndDsl() {
        SourceFile y = SourceFile.of("c.yaml", "  # gpulint: ignore net001, NET002 -- both intended\nfabric: roce\n");
        assertEquals(List.of("c.yaml:2:1 NET001 NET001 found. [both intended]", "c.yaml:2:1 NET002 NET002 found. [both intended]"),
                apply(y, at("NET001", "c.yaml", 2, 1), at("NET002", "c.yaml", 2, 1)));
        SourceFile t = SourceFile.of("c.topo", "// gpulint: ignore PAR002 -- NVL36 rack\ntp = 16\n");
        assertEquals(List.of("c.topo:2:6 PAR002 PAR002 found. [NVL36 rack]"), apply(t, at("PAR002", "c.topo", 2, 6)));
    }

    @Test
    void aSuppressionInAnotherFileOrForAnotherRuleDoesNotApply() {
        SourceFile f = SourceFile.of("a.yaml", "x: 1  # gpulint: ignore NET001 -- ok\n");
        assertEquals(List.of("b.yaml:1:1 NET001 NET001 found.", "a.yaml:1:1 NET002 NET002 found.",
                        "a.yaml:1:7 SYN005 this suppression of NET001 matches no finding on its line: remove it, or move it next to the finding."),
                apply(f, at("NET001", "b.yaml", 1, 1), at("NET002", "a.yaml", 1, 1)));
    }

    @Test
    void untilInTheFutureOrTodayStillApplies() {
        SourceFile f = SourceFile.of("c.yaml", "a: 1  # gpulint: ignore NET001 until=2026-12-03 -- until the switch upgrade\n"
                + "b: 2  # gpulint: ignore NET001 -- after the reason until=2027-01-01\n");
        assertEquals(List.of("c.yaml:1:1 NET001 NET001 found. [until the switch upgrade]", "c.yaml:2:1 NET001 NET001 found. [after the reason]"),
                apply(f, at("NET001", "c.yaml", 1, 1), at("NET001", "c.yaml", 2, 1)));
    }

    @Test
    void anExpiredSuppressionNoLongerAppliesAndTheMessageSaysSo() {
        SourceFile f = SourceFile.of("c.yaml", "a: 1  # gpulint: ignore NET001 until=2026-12-02 -- until the upgrade\n");
        // the note follows the finding's own sentence, full stop included
        assertEquals(List.of("c.yaml:1:1 NET001 NET001 found. (its suppression at line 1 expired on 2026-12-02)."),
                apply(f, at("NET001", "c.yaml", 1, 1)));
    }

    @Test
    void aSuppressionWithoutAReasonIsReportedAndDoesNotApply() {
        SourceFile f = SourceFile.of("c.yaml", "a: 1  # gpulint: ignore NET001\n");
        assertEquals(List.of("c.yaml:1:1 NET001 NET001 found.",
                        "c.yaml:1:7 SYN005 this suppression of NET001 gives no reason, so it does not apply: "
                                + "add one after --, e.g. # gpulint: ignore NET001 -- why this is intended."),
                apply(f, at("NET001", "c.yaml", 1, 1)));
    }

    @Test
    void anUnknownRuleIsReportedWithTheClosestId() {
        SourceFile f = SourceFile.of("c.yaml", "a: 1  # gpulint: ignore NET01 -- typo\n");
        assertEquals(List.of("c.yaml:1:1 NET001 NET001 found.",
                        "c.yaml:1:7 SYN005 this suppression names NET01, which is no gpulint rule; did you mean NET001?"),
                apply(f, at("NET001", "c.yaml", 1, 1)));
    }

    @Test
    void aSuppressionNamingNoRuleOrABadDateIsReported() {
        SourceFile f = SourceFile.of("c.yaml", "a: 1  # gpulint: ignore -- no rule\nb: 2  # gpulint: ignore NET001 until=soon -- later\n");
        assertEquals(List.of("c.yaml:2:1 NET001 NET001 found.",
                        "c.yaml:1:7 SYN005 this suppression names no rule: write # gpulint: ignore RULE-ID -- reason.",
                        "c.yaml:2:7 SYN005 this suppression's until=soon is not a date (YYYY-MM-DD), so it does not apply."),
                apply(f, at("NET001", "c.yaml", 2, 1)));
    }

    @Test
    void suppressionProblemsSpanTheCommentToTheEndOfItsLineAndCarryNoLevel() {
        SourceFile f = SourceFile.of("c.yaml", "a: 1  # gpulint: ignore NET01 -- typo\n");
        Finding p = Suppressions.apply(List.of(f), List.of(), RuleCatalog.builtIn(), TODAY).get(0);
        assertEquals(new Span("c.yaml", 1, 7, 1, 38), p.span());
        assertEquals("suppression:NET01 -- typo[1]/NET01", p.identity(), "what it says, not where: fingerprints survive moved lines");
        assertNull(p.level(), "levels are the Settler's to set");
    }

    @Test
    void filesWithoutSuppressionsLeaveFindingsAsTheyAre() {
        List<Finding> in = List.of(at("NET001", "c.yaml", 1, 1));
        assertEquals(in, Suppressions.apply(List.of(SourceFile.of("c.yaml", "a: 1 # a comment\n")), in, RuleCatalog.builtIn(), TODAY));
    }
}
