package dev.gpulint.derive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.bind.Binder;
import dev.gpulint.catalog.Catalog;
import dev.gpulint.derive.estimate.JobEstimate;
import dev.gpulint.facts.JobFact;
import dev.gpulint.facts.StageMemoryFact;
import dev.gpulint.read.SourceFile;
import dev.gpulint.read.yaml.YamlReader;
import dev.gpulint.spec.Model;
import dev.gpulint.testing.EstimateManifest;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Derive makes each job's estimate as a value beside the facts (Derived), never as a fact: the rule engine's session
 * holds no JobEstimate. Derive without the estimates (the plan's candidate search: it brings its own memory facts and
 * prices only the valid layouts) makes every other fact the same, in the same order, and no estimate and no
 * StageMemoryFact.
 */
class DeriverEstimatesTest {

    static final String MANIFEST = EstimateManifest.pod(2).clusterYaml() + """
            ---
            kind: training_job
            name: j
            cluster: pod
            nodes: 2
            model: { dtype: bf16, layers: 80, hidden_size: 8192, attention_heads: 64, kv_heads: 8, ffn_hidden_size: 28672, vocab_size: 32000,
                     gated_mlp: true, seq_length: 4096 }
            parallelism: { tp: 8, pp: 2 }
            batch: { micro_batch_size: 1, global_batch_size: 512 }
            """;

    @Test
    void theEstimateIsAValueBesideTheFactsNotAFact() {
        Model m = new Binder().bind(new YamlReader().read(SourceFile.of("t.yaml", MANIFEST)).documents());
        Derived d = new Deriver(Catalog.builtIn()).derive(m);
        assertEquals(1, d.estimates().size());
        JobEstimate e = d.estimates().get(0);
        assertEquals("j", e.job().name());
        assertEquals(16, e.job().totalGpus());
        assertNotNull(e.estimate(), "the job states what its estimate needs: " + e.inputs().missing());
        assertFalse(d.facts().stream().anyMatch(f -> f instanceof JobEstimate), "no estimate among the facts the rules match");
        StageMemoryFact stage = (StageMemoryFact) d.facts().stream().filter(f -> f instanceof StageMemoryFact).findFirst().orElseThrow();
        assertEquals("j", stage.getJobName());
    }

    @Test
    void aJobWithoutAModelHasNoEstimate() {
        String noModel = MANIFEST.replaceAll("(?s)model: \\{.*?seq_length: 4096 }\n", "");
        Model m = new Binder().bind(new YamlReader().read(SourceFile.of("t.yaml", noModel)).documents());
        Derived d = new Deriver(Catalog.builtIn()).derive(m);
        assertEquals(List.of(), d.estimates());
        assertFalse(d.facts().stream().anyMatch(f -> f instanceof StageMemoryFact));
        assertTrue(d.facts().stream().anyMatch(f -> f instanceof JobFact j && j.getName().equals("j")), "the job is still a fact");
    }

    @Test
    void withoutEstimatesEveryOtherFactIsTheSame() {
        Model m = new Binder().bind(new YamlReader().read(SourceFile.of("t.yaml", MANIFEST)).documents());
        Derived with = new Deriver(Catalog.builtIn()).derive(m), without = new Deriver(Catalog.builtIn(), false).derive(m);
        assertEquals(1, with.estimates().size(), "the lint's derive estimates the job");
        assertEquals(List.of(), without.estimates());
        assertTrue(with.facts().stream().anyMatch(f -> f instanceof StageMemoryFact), "and makes its memory fact");
        List<String> rest = new ArrayList<>();
        for (Object f : with.facts()) if (!(f instanceof StageMemoryFact)) rest.add(f.toString());
        List<String> got = new ArrayList<>();
        for (Object f : without.facts()) got.add(f.toString());
        assertEquals(rest, got);
        assertEquals(with.facts().size() - 1, without.facts().size());
    }
}
