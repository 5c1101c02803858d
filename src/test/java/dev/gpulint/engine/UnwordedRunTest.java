package dev.gpulint.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.bind.Binder;
import dev.gpulint.catalog.Catalog;
import dev.gpulint.core.Finding;
import dev.gpulint.derive.Deriver;
import dev.gpulint.meta.RuleCatalog;
import dev.gpulint.read.SourceFile;
import dev.gpulint.read.yaml.YamlReader;
import dev.gpulint.testing.EstimateManifest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The plan's candidate search runs the rules unworded (RuleEngine.runUnworded): the same findings, rule by rule and
 * place by place, without their words, related places or fixes.
 */
class UnwordedRunTest {

    /** A job whose tp crosses the 8-GPU servers (PAR), which does not fit in memory (MEM) and an unstated NIC speed. */
    static final String MANIFEST = EstimateManifest.pod(4).clusterYaml() + """
            ---
            kind: training_job
            name: big
            cluster: pod
            nodes: 4
            model: { parameters: 175B, dtype: bf16, layers: 96, hidden_size: 12288, attention_heads: 96, seq_length: 2048, vocab_size: 51200 }
            parallelism: { tp: 16, pp: 2 }
            batch: { micro_batch_size: 1, global_batch_size: 512 }
            """;

    static List<Object> facts() {
        var read = new YamlReader().read(SourceFile.of("job.yaml", MANIFEST));
        var bound = new Binder().bind(read.documents());
        List<Object> facts = new ArrayList<>(new Deriver(Catalog.builtIn()).derive(bound).facts());
        facts.addAll(RuleParams.facts(RuleCatalog.builtIn(), Map.of()));
        return facts;
    }

    /** What the search reads of a finding: its rule, level, place and identity. */
    static List<String> what(List<Finding> findings) {
        List<String> out = new ArrayList<>();
        for (Finding f : findings) out.add(f.ruleId() + " " + f.level() + " " + f.span() + " " + f.identity());
        out.sort(null);
        return out;
    }

    @Test
    void theSameFindingsWithoutTheirWords() {
        List<Object> facts = facts();
        List<Finding> worded = new RuleEngine().run(facts);
        List<Finding> bare = new RuleEngine().runUnworded(facts);
        assertTrue(worded.stream().anyMatch(f -> f.ruleId().startsWith("PAR")), worded.toString());
        assertTrue(worded.stream().anyMatch(f -> f.ruleId().startsWith("MEM")), worded.toString());
        assertTrue(worded.stream().allMatch(f -> !f.message().isEmpty()), "a worded run words every finding");
        assertEquals(what(worded), what(bare));
        for (Finding f : bare) {
            assertEquals("", f.message(), f.ruleId());
            assertEquals(List.of(), f.related(), f.ruleId());
            assertEquals(List.of(), f.fixes(), f.ruleId());
        }
    }

    @Test
    void anUnwordedSinkKeepsTheRulePlaceAndLevelAndDropsWordsRelatedAndFixes() {
        Map<String, String> templates = Map.of("k", "found {x}", "r", "because of {x}", "t", "set it to {x}");
        dev.gpulint.core.Span at = dev.gpulint.core.Span.at("c.yaml", 3, 7), there = dev.gpulint.core.Span.at("c.yaml", 9, 1);
        FindingSink worded = new FindingSink(id -> templates), bare = new FindingSink(id -> templates).unworded();
        for (FindingSink s : List.of(worded, bare)) {
            s.firing("PAR006");
            s.at(at, "job:j/pp").arg("x", 4).related(there, "r").level("note").fix(dev.gpulint.core.Safety.SAFE, "t", at, "4").report("k");
        }
        Finding w = worded.findings().get(0), b = bare.findings().get(0);
        assertTrue(w.message().startsWith("found 4"), w.message());
        assertEquals(1, w.related().size());
        assertEquals(1, w.fixes().size());
        assertEquals("", b.message());
        assertEquals(List.of(), b.related());
        assertEquals(List.of(), b.fixes());
        assertEquals(List.of(w.ruleId(), w.level(), w.span(), w.identity()), List.of(b.ruleId(), b.level(), b.span(), b.identity()));
    }

    /**
     * A rule that reports about its fact ({@code sink.about($m)}) and names arguments: unworded, the sink keeps neither
     * (no template reads them), and the finding is the worded one's without its words.
     */
    @Test
    void anUnwordedReportAboutAFactKeepsTheRulePlaceAndLevel() {
        Map<String, String> templates = Map.of("k", "{name} holds {gpus} GPUs, {x}");
        dev.gpulint.core.Span at = dev.gpulint.core.Span.at("c.yaml", 5, 2);
        FindingSink worded = new FindingSink(id -> templates), bare = new FindingSink(id -> templates).unworded();
        for (FindingSink s : List.of(worded, bare)) {
            s.firing("MEM003");
            s.about(new FindingSinkAboutTest.Group()).at(at, "training_job:j/stage-memory").arg("x", "too many").report("k");
        }
        Finding w = worded.findings().get(0), b = bare.findings().get(0);
        assertTrue(w.message().contains("dgx holds 8 GPUs, too many"), w.message());
        assertEquals("", b.message());
        assertEquals(java.util.Arrays.asList(w.ruleId(), w.level(), w.span(), w.identity()),
                java.util.Arrays.asList(b.ruleId(), b.level(), b.span(), b.identity()));
        assertEquals("training_job:j/stage-memory", b.identity());
    }
}
