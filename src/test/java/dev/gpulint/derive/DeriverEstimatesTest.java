package dev.gpulint.derive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.bind.Binder;
import dev.gpulint.catalog.Catalog;
import dev.gpulint.derive.estimate.JobEstimate;
import dev.gpulint.facts.StageMemoryFact;
import dev.gpulint.read.SourceFile;
import dev.gpulint.read.yaml.YamlReader;
import dev.gpulint.spec.Model;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Derive without the estimates (the plan's candidate search: it brings its own memory facts and prices only the valid
 * layouts) makes every other fact the same, in the same order, and no JobEstimate or StageMemoryFact.
 */
class DeriverEstimatesTest {

    static final String MANIFEST = """
            kind: cluster
            name: pod
            fabric: { type: infiniband, topology: rail-optimized }
            node_groups:
              - name: dgx
                count: 2
                gpu: { model: H100-SXM5-80GB, count: 8 }
                nvlink: { switch: true, bandwidth: 900 GB/s, direction: bidirectional }
                nics:
                  - { model: ConnectX-7, count: 8, speed: 400 Gb/s, protocol: infiniband, gpudirect_rdma: true }
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
    void withoutEstimatesEveryOtherFactIsTheSame() {
        Model m = new Binder().bind(new YamlReader().read(SourceFile.of("t.yaml", MANIFEST)).documents());
        List<Object> with = new Deriver(Catalog.builtIn()).derive(m), without = new Deriver(Catalog.builtIn(), false).derive(m);
        assertTrue(with.stream().anyMatch(f -> f instanceof JobEstimate), "the lint's derive estimates the job");
        assertTrue(with.stream().anyMatch(f -> f instanceof StageMemoryFact), "and makes its memory fact");
        List<String> rest = new ArrayList<>();
        for (Object f : with) if (!(f instanceof JobEstimate) && !(f instanceof StageMemoryFact)) rest.add(f.toString());
        List<String> got = new ArrayList<>();
        for (Object f : without) got.add(f.toString());
        assertEquals(rest, got);
        assertEquals(with.size() - 2, without.size());
    }
}
