package dev.gpulint.plan;

import dev.gpulint.spec.Model;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.bind.Binder;
import dev.gpulint.catalog.Catalog;
import dev.gpulint.derive.Resolved;
import dev.gpulint.derive.estimate.JobEstimate;
import dev.gpulint.derive.estimate.Layout;
import dev.gpulint.facts.StageMemoryFact;
import dev.gpulint.plan.search.JobLayouts;
import dev.gpulint.read.SourceFile;
import dev.gpulint.read.yaml.YamlReader;
import org.junit.jupiter.api.Test;

/** The plan prices the memory of every layout without pricing its step: both must give the estimate's numbers. */
class PricerTest {
    static final String JOB = """
            kind: cluster
            name: pod
            node_groups:
              - name: dgx
                count: 8
                gpu: { model: H100-SXM5-80GB, count: 8 }
                nvlink: { switch: true }
            ---
            kind: training_job
            name: j
            cluster: pod
            node_group: dgx
            nodes: 8
            model: { dtype: bf16, layers: 80, hidden_size: 8192, attention_heads: 64, kv_heads: 8, ffn_hidden_size: 28672,
                     vocab_size: 32000, gated_mlp: true, tied_embeddings: false, seq_length: 4096 }
            parallelism: { tp: 8, pp: 2 }
            batch: { micro_batch_size: 1, global_batch_size: 512 }
            """;

    static Pricer pricer(String text) {
        Model b = new Binder().bind(new YamlReader().read(SourceFile.of("j.yaml", text)).documents());
        Resolved.Job r = JobLayouts.resolve(b.jobs().get(0), b.clusters(), Catalog.builtIn());
        return new Pricer(JobEstimate.of(r, Catalog.builtIn()).inputs(), b.jobs().get(0));
    }

    @Test
    void theMemoryOfEveryLayoutIsTheEstimatesFullestStage() {
        Pricer p = pricer(JOB);
        int checked = 0;
        for (int tp : new int[] {1, 2, 4, 8}) {
            for (int pp : new int[] {1, 2, 4}) {
                for (Layout.Recompute rc : Layout.Recompute.values()) {
                    for (int z = 0; z < 3; z++) {
                        Layout l = new Layout(tp, pp, 64 / tp / pp, 1, 1, pp > 1 ? 2 : 1, 1, 512, z == 2 ? 1 : 0, z == 1, rc, tp > 1);
                        double byEstimate = p.estimate(l).largestStage().total();
                        assertEquals(byEstimate, p.peakBytes(l), 1e-3 * byEstimate, l.toString());
                        // the score's headroom is read from the estimate's stages: the same bits as the fullest stage's
                        assertEquals(p.usable() - p.peakBytes(l), p.score(l).headroom(), l.toString());
                        checked++;
                    }
                }
            }
        }
        assertEquals(4 * 3 * 5 * 3, checked, "tp × pp × the five recompute choices (op and one layer in n too) × sharding");
    }

    @Test
    void theVocabularyIsPaddedForTheCandidatesTpAndTheFactCarriesItsAspect() {
        Pricer p = pricer(JOB);
        Layout tp8 = new Layout(8, 2, 4, 1, 1, 1, 1, 512, 0, true, Layout.Recompute.SELECTIVE, true);
        Layout tp2 = new Layout(2, 2, 16, 1, 1, 1, 1, 512, 0, true, Layout.Recompute.SELECTIVE, true);
        assertEquals(32768, p.estimate(tp8).model().vocab(), "a multiple of 128 × 8");
        assertEquals(32000, p.estimate(tp2).model().vocab(), "a multiple of 128 × 2 already");
        StageMemoryFact f = (StageMemoryFact) p.memoryFact(tp8, "cand-3", "stage-memory/recompute-selective");
        assertEquals("training_job:cand-3/stage-memory/recompute-selective", f.identity());
        assertEquals(p.peakBytes(tp8), f.getTotalBytes(), 1);
        assertTrue(f.getCapacityBytes() > 85e9 && f.getCapacityBytes() < 86e9, "80 GiB: " + f.getCapacityBytes());
        assertNotEquals(p.peakBytes(tp8), p.peakBytes(tp2));
    }

    /**
     * A layout's memory facts, one per recompute choice asked in turn as the search asks them, share its stages' model
     * states (MemoryModel.states, made once for the three): each fact is still its own layout's fullest stage, to the bit,
     * on a hybrid Mamba/attention/MoE model with MTP blocks (its stages each their own slice of the pattern).
     */
    @Test
    void theMemoryFactsOfTheRecomputeChoicesAreEachTheirFullestStage() {
        Pricer p = pricer(JOB.replace("gated_mlp: true,", "gated_mlp: true, experts: 8, top_k: 2,")
                .replace("layers: 80,", "layers: 8, hybrid: { pattern: \"M*M-ME*E/*E\", mamba_num_heads: 128 },"));
        Layout one = new Layout(8, 2, 4, 1, 1, 1, 1, 512, 0, true, Layout.Recompute.SELECTIVE, true);
        assertTrue(p.estimate(one).terms().stream().anyMatch(t -> t instanceof dev.gpulint.derive.estimate.Term.Ssd
                && ((dev.gpulint.derive.estimate.Term.Ssd) t).mambaLayers() == 3), "the hybrid's 3 Mamba-2 layers are priced");
        int checked = 0;
        for (int tp : new int[] {1, 2, 8}) {
            for (int pp : new int[] {1, 2, 4}) {
                for (int z = 0; z < 3; z++) {
                    for (Layout.Recompute rc : Layout.Recompute.SEARCHED) {
                        Layout l = new Layout(tp, pp, 64 / tp / pp, 1, z == 1 ? 2 : 1, 1, 1, 512, z == 2 ? 1 : 0, z == 1, rc, tp > 1);
                        StageMemoryFact f = (StageMemoryFact) p.memoryFact(l, "cand", "stage-memory/recompute-" + rc.id());
                        var s = p.fullest(l);
                        assertEquals(s.stage(), f.getStage(), l.toString());
                        assertEquals(s.weights() + s.gradients() + s.optimizer(), f.getStatesBytes(), l.toString());
                        assertEquals(s.activations(), f.getActivationsBytes(), l.toString());
                        assertEquals(p.peakBytes(l), f.getTotalBytes(), l.toString());
                        assertEquals(l.sizes(), f.getLayout(), l.toString());
                        // the search's way: the layout's memory made once, its fact and its score read from it, the same doubles
                        // as each made alone (the score's stages sized from the states, MemoryModel.sized)
                        Object made = p.memory(l);
                        StageMemoryFact g = (StageMemoryFact) p.memoryFact(l, made, "cand", "stage-memory/recompute-" + rc.id());
                        assertEquals(f.getStage(), g.getStage(), l.toString());
                        assertEquals(f.getTotalBytes(), g.getTotalBytes(), l.toString());
                        assertEquals(f.getStatesBytes(), g.getStatesBytes(), l.toString());
                        assertEquals(f.getActivationsBytes(), g.getActivationsBytes(), l.toString());
                        assertEquals(p.score(l), p.score(l, made), l.toString());
                        // another layout's memory is not read as this one's: priced alone
                        Layout other = new Layout(tp, pp, 64 / tp / pp, 1, 1, 1, 2, 512, 0, false, rc, tp > 1);
                        assertEquals(p.score(l), p.score(l, p.memory(other)), l.toString());
                        checked++;
                    }
                }
            }
        }
        assertEquals(3 * 3 * 3 * 3, checked);
    }
}
