package dev.gpulint.derive.unit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.gpulint.bind.Binder;
import dev.gpulint.catalog.Catalog;
import dev.gpulint.core.Finding;
import dev.gpulint.core.Fix;
import dev.gpulint.core.Span;
import dev.gpulint.read.SourceFile;
import dev.gpulint.read.yaml.YamlReader;
import dev.gpulint.spec.Model;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The unit fix is the Java-made part of the rules whose ID.yaml names its titles ({@code fix-unit},
 * {@code fix-unit-direction}): derive computes its edits ({@link UnitEdits}) at the rejected value's span and identity,
 * and a finding of a rule whose messages lack the titles gets no fix from them, whatever its ID (app.RuleFixes gives it).
 */
class UnitFixByIdYamlTest {

    private static final String CLUSTER = """
            kind: cluster
            name: c
            node_groups:
              - name: g
                count: 1
                gpu: { model: H100-SXM5-80GB, count: 8 }
                nvlink: { bandwidth: 900 }
            """;

    /** The titles as app.RuleFixes looks them up: the rule's messages, here given per rule ID. */
    private static UnitlessReadings.Titles titles(Map<String, Map<String, String>> messages) {
        return (rule, key, args) -> {
            String t = messages.getOrDefault(rule, Map.of()).get(key);
            return t == null ? null : dev.gpulint.meta.Messages.render(t, args);
        };
    }

    private static final Map<String, String> UNIT_FIX = Map.of(
            UnitlessReadings.TITLE, "write {fixed} instead of {written}",
            UnitlessReadings.TITLE_DIRECTION, "write {fixed} instead of {written}, and add direction: {direction}");

    private static Model bound() {
        Model m = new Binder().bind(new YamlReader().read(SourceFile.of("c.yaml", CLUSTER)).documents());
        assertEquals(List.of("UNIT003"), m.findings().stream().map(Finding::ruleId).toList());
        return m;
    }

    /** The one value's edits: at the span and identity of the binder's finding about it. */
    private static UnitEdits edits(Model m) {
        List<UnitEdits> all = UnitEdits.of(UnitlessReadings.readings(m.unitless(), m.clusters(), m.jobs(), Catalog.builtIn()));
        assertEquals(1, all.size());
        Finding f = m.findings().get(0);
        assertEquals(f.span(), all.get(0).span());
        assertEquals(f.identity(), all.get(0).identity());
        return all.get(0);
    }

    @Test
    void aRuleWhoseIdYamlNamesTheFixGetsIt() {
        Fix fix = edits(bound()).fix("UNIT003", titles(Map.of("UNIT003", UNIT_FIX)));
        assertEquals("write 900 GB/s instead of 900, and add direction: bidirectional", fix.title());
        assertEquals(List.of("900 GB/s", ", direction: bidirectional }"), fix.edits().stream().map(e -> e.replacement()).toList());
        assertEquals(new Span("c.yaml", 7, 29, 7, 31), fix.edits().get(1).span());
    }

    @Test
    void aRuleWithoutTheKeyGetsNoFix() {
        // UNIT003 itself, were its ID.yaml without fix-unit: no fix
        assertNull(edits(bound()).fix("UNIT003", titles(Map.of("UNIT003", Map.of("other", "x"), "UNIT004", UNIT_FIX))));
    }

    @Test
    void theFixFollowsTheKeyNotTheRuleId() {
        // the same value's finding under another rule whose ID.yaml names fix-unit: the fix is its; UNIT003 without it: none
        UnitEdits e = edits(bound());
        UnitlessReadings.Titles t = titles(Map.of("UNIT004", UNIT_FIX));
        assertEquals("write 900 GB/s instead of 900, and add direction: bidirectional", e.fix("UNIT004", t).title());
        assertNull(e.fix("UNIT003", t));
    }

    @Test
    void aMemberOfAFoldedGroupHasTheEditsMovedAsItsFindingsAre() {
        UnitEdits e = edits(bound());
        UnitEdits moved = e.moved("cluster:c/node_groups[g2]/nvlink/bandwidth",
                s -> new Span(s.file(), s.startLine() + 1, s.startColumn(), s.endLine() + 1, s.endColumn()));
        assertEquals("cluster:c/node_groups[g2]/nvlink/bandwidth", moved.identity());
        assertEquals(e.span().startLine() + 1, moved.span().startLine());
        assertEquals(List.of(8, 8), moved.edits().stream().map(x -> x.span().startLine()).toList());
        assertEquals(e.fix("UNIT003", titles(Map.of("UNIT003", UNIT_FIX))).title(), moved.fix("UNIT003", titles(Map.of("UNIT003", UNIT_FIX))).title());
    }
}
