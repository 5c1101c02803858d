package dev.gpulint.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpulint.bind.Binder;
import dev.gpulint.catalog.Catalog;
import dev.gpulint.core.Finding;
import dev.gpulint.derive.Deriver;
import dev.gpulint.facts.RuleParam;
import dev.gpulint.meta.RuleCatalog;
import dev.gpulint.read.SourceFile;
import dev.gpulint.read.yaml.YamlReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Rule parameters: their defaults from the metadata, overrides by "RULE.name", and a DRL condition reading them. */
class RuleParamsTest {

    @Test
    void everyParameterOfTheMetadataAtItsDefault() {
        assertEquals(List.of(
                        new RuleParam("EVID009", "min_fraction", 0.6),
                        new RuleParam("EVID009", "min_size_mib", 512.0),
                        new RuleParam("MEM002", "warn_at", 0.9),
                        new RuleParam("NET003", "budget_seconds", 1.0),
                        new RuleParam("PAR006", "warn_at", 0.5),
                        new RuleParam("PAR006", "note_at", 0.25)),
                sorted(RuleParams.facts(RuleCatalog.builtIn(), Map.of())));
    }

    @Test
    void anOverrideByRuleAndNameReplacesOnlyThatParameter() {
        assertEquals(List.of(
                        new RuleParam("EVID009", "min_fraction", 0.6),
                        new RuleParam("EVID009", "min_size_mib", 512.0),
                        new RuleParam("MEM002", "warn_at", 0.8),
                        new RuleParam("NET003", "budget_seconds", 1.0),
                        new RuleParam("PAR006", "warn_at", 0.5),
                        new RuleParam("PAR006", "note_at", 0.1)),
                sorted(RuleParams.facts(RuleCatalog.builtIn(),
                        Map.of("MEM002.warn_at", 0.8, "PAR006.note_at", 0.1, "warn_at", 0.3, "MEM002.nope", 7.0, "NET999.x", 1.0))),
                "a key without its rule, or naming no parameter of the metadata, adds and changes nothing");
    }

    /** Metadata order is not this test's business: by rule, then as the rule's YAML lists them. */
    private static List<RuleParam> sorted(List<RuleParam> params) {
        List<RuleParam> out = new ArrayList<>(params);
        out.sort((a, b) -> a.rule().compareTo(b.rule()));
        return out;
    }

    // ---------------------------------------------------------------- a DRL condition reads the fact

    /**
     * 4.5625B parameters × 16 bytes = 73 GB on one H100 of 80 GiB (85.9 GB): 85% of its memory,
     * under MEM002's default 0.9 and over 0.8.
     */
    private static final String AT_85_PERCENT = """
            kind: cluster
            name: c
            node_groups:
              - { name: g, count: 1, gpu: { model: H100-SXM5-80GB, count: 8 } }
            ---
            kind: training_job
            name: j
            cluster: c
            nodes: 1
            model: { parameters: 4.5625B }
            """;

    private static List<String> findings(Map<String, Double> overrides) {
        var read = new YamlReader().read(SourceFile.of("t.yaml", AT_85_PERCENT));
        var bound = new Binder().bind(read.documents());
        assertEquals(List.of(), bound.findings());
        List<Object> facts = new ArrayList<>(new Deriver(Catalog.builtIn()).derive(bound).facts());
        facts.addAll(RuleParams.facts(RuleCatalog.builtIn(), overrides));
        return new RuleEngine().run(facts).stream().map(Finding::ruleId).filter(id -> id.startsWith("MEM")).toList();
    }

    @Test
    void mem002IsQuietAt85PercentUnderTheDefault() {
        assertEquals(List.of(), findings(Map.of()));
    }

    @Test
    void mem002FiresAt85PercentWhenWarnAtIsLowered() {
        assertEquals(List.of("MEM002"), findings(Map.of("MEM002.warn_at", 0.8)));
        assertEquals(List.of(), findings(Map.of("MEM002.warn_at", 0.86)));
    }
}
