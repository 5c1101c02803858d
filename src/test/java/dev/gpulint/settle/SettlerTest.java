package dev.gpulint.settle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpulint.core.Finding;
import dev.gpulint.core.Fingerprints;
import dev.gpulint.core.Level;
import dev.gpulint.core.Span;
import dev.gpulint.meta.RuleCatalog;
import dev.gpulint.meta.RuleMeta;
import dev.gpulint.read.SourceFile;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The Settler alone, on hand-made findings: which level wins, what is dropped, kept once, ordered
 * and left to the baseline. Built-in metadata used: NET001 roce-without-pfc (error), NET002
 * roce-without-ecn (warning), NET005 oversubscribed-fabric (note).
 */
class SettlerTest {

    private static final LocalDate TODAY = LocalDate.of(2026, 12, 3);
    private static final RuleCatalog RULES = RuleCatalog.builtIn();

    private static Finding at(String rule, String file, int line, int col, String message) {
        return Finding.of(rule, Span.at(file, line, col), rule.toLowerCase() + "@" + file + ":" + line, message);
    }

    private static Settler settler(Map<String, String> settings) {
        return new Settler(RULES, settings, Set.of(), TODAY);
    }

    private static String line(Finding f) {
        return f.span() + " " + f.level().id() + " " + f.ruleId() + " " + f.message()
                + (f.suppressed() ? " [suppressed: " + f.suppression() + "]" : "");
    }

    private static List<String> lines(Settler.Settled s) {
        return s.findings().stream().map(SettlerTest::line).toList();
    }

    @Test
    void levelsComeFromMetadataWhenNothingElseSaysSo() {
        Settler s = settler(Map.of());
        assertEquals(Optional.of(Level.ERROR), s.level(at("NET001", "c.yaml", 1, 1, "m")));
        assertEquals(Optional.of(Level.WARNING), s.level(at("NET002", "c.yaml", 1, 1, "m")));
        assertEquals(Optional.of(Level.NOTE), s.level(at("NET005", "c.yaml", 1, 1, "m")));
    }

    @Test
    void aRulesOwnChoiceBeatsMetadata() {
        Finding chosen = at("NET001", "c.yaml", 1, 1, "m").withLevel(Level.NOTE);
        assertEquals(Optional.of(Level.NOTE), settler(Map.of()).level(chosen));
    }

    @Test
    void configurationBeatsTheRulesChoiceByIdOrByName() {
        Finding chosen = at("NET001", "c.yaml", 1, 1, "m").withLevel(Level.NOTE);
        assertEquals(Optional.of(Level.WARNING), settler(Map.of("NET001", "warning")).level(chosen));
        assertEquals(Optional.of(Level.ERROR), settler(Map.of("roce-without-pfc", "error")).level(chosen));
        // the ID is looked up before the name
        assertEquals(Optional.of(Level.NOTE), settler(Map.of("NET001", "note", "roce-without-pfc", "off")).level(chosen));
        assertEquals(Optional.empty(), settler(Map.of("roce-without-pfc", "off")).level(chosen));
    }

    @Test
    void aUserRuleWithoutMetadataIsAWarningAndOneWithMetadataKeepsItsLevel() {
        assertEquals(Optional.of(Level.WARNING), settler(Map.of()).level(at("TEAM9", "j.yaml", 1, 1, "m")));
        RuleMeta team = new RuleMeta("TEAM1", "team-one", Level.NOTE, "t", "d", "r", "1", List.of(), "TEAM", "drools", null);
        Settler s = new Settler(RULES.withExtra(List.of(team)), Map.of("team-one", "error"), Set.of(), TODAY);
        assertEquals(Optional.of(Level.ERROR), s.level(at("TEAM1", "j.yaml", 1, 1, "m")));
        assertEquals(Optional.of(Level.NOTE),
                new Settler(RULES.withExtra(List.of(team)), Map.of(), Set.of(), TODAY).level(at("TEAM1", "j.yaml", 1, 1, "m")));
    }

    @Test
    void offDropsLevelsAreSetDuplicatesGoAndTheOrderIsFilePositionRuleMessage() {
        List<Finding> raw = List.of(
                at("NET002", "b.yaml", 3, 1, "ecn"),
                at("NET001", "b.yaml", 3, 1, "pfc"),
                at("NET005", "a.yaml", 9, 4, "oversubscribed"),
                at("NET001", "a.yaml", 2, 7, "pfc"),
                at("NET001", "a.yaml", 2, 7, "pfc"),
                // the same start with another end is the same place
                Finding.of("NET001", new Span("a.yaml", 2, 7, 2, 30), "other", "pfc"),
                at("NET001", "a.yaml", 2, 7, "pfc again"));
        Settler.Settled s = settler(Map.of("oversubscribed-fabric", "off")).settle(List.of(), raw);
        assertEquals(List.of(
                "a.yaml:2:7 error NET001 pfc again.",
                "a.yaml:2:7 error NET001 pfc.",
                "b.yaml:3:1 error NET001 pfc.",
                "b.yaml:3:1 warning NET002 ecn."), lines(s));
        assertEquals(0, s.baselined());
    }

    @Test
    void theFirstOfTwoDuplicatesIsKept() {
        Finding first = at("NET001", "a.yaml", 2, 7, "pfc");
        Finding second = Finding.of("NET001", new Span("a.yaml", 2, 7, 4, 1), "later", "pfc");
        List<Finding> out = settler(Map.of()).settle(List.of(), List.of(first, second)).findings();
        assertEquals(1, out.size());
        assertEquals("net001@a.yaml:2", out.get(0).identity());
    }

    /** A parse error or a tool failure is never left to the baseline: the file was not linted (Baseline#never). */
    @Test
    void aBaselineNeverAcceptsAParseErrorOrAToolFailure() {
        Finding syntax = at("SYN001", "bad.yaml", 3, 1, "YAML syntax error");
        Finding tool = at("TOOL001", "c.yaml", 1, 1, "the built-in rules stage failed");
        Finding old = at("NET001", "c.yaml", 3, 1, "no PFC");
        Settler s = new Settler(RULES, Map.of(), Set.of(Fingerprints.of(syntax), Fingerprints.of(tool), Fingerprints.of(old)), TODAY);
        Settler.Settled out = s.settle(List.of(), List.of(syntax, tool, old));
        assertEquals(List.of("SYN001", "TOOL001"), out.findings().stream().map(Finding::ruleId).toList());
        assertEquals(1, out.baselined());
    }

    @Test
    void theBaselineLeavesOutAcceptedFindingsAndCountsThem() {
        Finding old = at("NET001", "c.yaml", 4, 3, "pfc");
        Finding fresh = at("NET002", "c.yaml", 4, 3, "ecn");
        Settler s = new Settler(RULES, Map.of(), Set.of(Fingerprints.of(old)), TODAY);
        Settler.Settled out = s.settle(List.of(), List.of(old, fresh));
        assertEquals(List.of("c.yaml:4:3 warning NET002 ecn."), lines(out));
        assertEquals(1, out.baselined());
        // a rule turned off is not counted as baselined
        Settler off = new Settler(RULES, Map.of("NET001", "off"), Set.of(Fingerprints.of(old)), TODAY);
        assertEquals(0, off.settle(List.of(), List.of(old, fresh)).baselined());
    }

    @Test
    void suppressionsAreAppliedAndTheirProblemsGetLevelsFromMetadataToo() {
        SourceFile c = SourceFile.of("c.yaml", "kind: cluster\n"
                + "fabric: { type: roce }  # gpulint: ignore NET001 -- lab network\n"
                + "# gpulint: ignore NET002\n"
                + "x: 1\n");
        Settler.Settled s = settler(Map.of()).settle(List.of(c), List.of(
                at("NET001", "c.yaml", 2, 10, "pfc"),
                at("NET002", "c.yaml", 4, 1, "ecn")));
        assertEquals(List.of(
                "c.yaml:2:10 error NET001 pfc. [suppressed: lab network]",
                "c.yaml:3:1 warning SYN005 this suppression of NET002 gives no reason, so it does not apply: "
                        + "add one after --, e.g. # gpulint: ignore NET002 -- why this is intended.",
                "c.yaml:4:1 warning NET002 ecn."), lines(s));
        // SYN005 follows configuration like any rule
        assertEquals(2, settler(Map.of("SYN005", "off")).settle(List.of(c), List.of(
                at("NET001", "c.yaml", 2, 10, "pfc"), at("NET002", "c.yaml", 4, 1, "ecn"))).findings().size());
    }

    @Test
    void aSuppressedFindingOfARuleTurnedOffIsDroppedAndItsSuppressionCountsAsUsed() {
        SourceFile c = SourceFile.of("c.yaml", "a: 1  # gpulint: ignore NET002 -- known\n");
        Settler.Settled s = settler(Map.of("NET002", "off")).settle(List.of(c), List.of(at("NET002", "c.yaml", 1, 1, "ecn")));
        assertEquals(List.of(), s.findings());
    }
}
