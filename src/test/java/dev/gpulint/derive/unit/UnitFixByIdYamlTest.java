package dev.gpulint.derive.unit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.bind.Binder;
import dev.gpulint.catalog.Catalog;
import dev.gpulint.core.Finding;
import dev.gpulint.read.SourceFile;
import dev.gpulint.read.yaml.YamlReader;
import dev.gpulint.spec.Model;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The unit fix is the Java-made part of the rules whose ID.yaml names its titles ({@code fix-unit},
 * {@code fix-unit-direction}): a finding of a rule whose messages lack them gets no fix, whatever its ID.
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

    /** The titles as the lint stage looks them up: the rule's messages, here given per rule ID. */
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

    @Test
    void aRuleWhoseIdYamlNamesTheFixGetsIt() {
        Model fixed = UnitlessReadings.withFixes(bound(), Catalog.builtIn(), titles(Map.of("UNIT003", UNIT_FIX)));
        Finding f = fixed.findings().get(0);
        assertEquals(1, f.fixes().size());
        assertEquals("write 900 GB/s instead of 900, and add direction: bidirectional", f.fixes().get(0).title());
    }

    @Test
    void aRuleWithoutTheKeyGetsNoFix() {
        // UNIT003 itself, were its ID.yaml without fix-unit: no fix
        Model none = UnitlessReadings.withFixes(bound(), Catalog.builtIn(),
                titles(Map.of("UNIT003", Map.of("other", "x"), "UNIT004", UNIT_FIX)));
        assertTrue(none.findings().get(0).fixes().isEmpty());
    }

    @Test
    void theFixFollowsTheKeyNotTheRuleId() {
        // the same finding under another rule whose ID.yaml names fix-unit: the fix is its; UNIT003 without it: none
        Model m = bound();
        Finding f = m.findings().get(0);
        Model other = m.withFindings(List.of(new Finding("UNIT004", f.level(), f.span(), f.message(), List.of(), f.identity())));
        Model fixed = UnitlessReadings.withFixes(other, Catalog.builtIn(), titles(Map.of("UNIT004", UNIT_FIX)));
        assertEquals(List.of("write 900 GB/s instead of 900, and add direction: bidirectional"),
                fixed.findings().get(0).fixes().stream().map(dev.gpulint.core.Fix::title).toList());
    }
}
