package dev.gpulint.derive.estimate;

import static dev.gpulint.testing.Foreign.bind;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.plan.EstimateWords;
import dev.gpulint.spec.Specs;
import dev.gpulint.testing.EstimateManifest;
import dev.gpulint.testing.Recipes;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Tensor-parallel communication overlap (TpOverlap): plain TP exposes every all-gather/reduce-scatter, Megatron's
 * --tp-comm-overlap and torchtitan's async TP what outlasts the GEMM beside each, and a job that does not say keeps the
 * family's tp_overlap share. A Llama 3 8B shape on one node of 8 H100 at tp 8 (torchtitan's async-TP benchmark shape).
 */
class TpOverlapTest {

    private static JobEstimate estimate(String overlap) {
        return EstimateManifest.h100().model("layers: 32, hidden_size: 4096, attention_heads: 32, kv_heads: 8, ffn_hidden_size: 14336,"
                        + " gated_mlp: true, seq_length: 8192, vocab_size: 128256, tied_embeddings: false")
                .parallelism("tp: 8, pp: 1" + overlap)
                .batch(1, 4).optimizer("zero_stage: 3").recompute("none").estimate();
    }

    private static Term.TpExposure tp(Estimate e) {
        return e.terms().stream().filter(t -> t instanceof Term.TpExposure).map(t -> (Term.TpExposure) t).findFirst().orElseThrow();
    }

    private static Term.Compute compute(Estimate e) {
        return e.terms().stream().filter(t -> t instanceof Term.Compute).map(t -> (Term.Compute) t).findFirst().orElseThrow();
    }

    @Test
    void plainExposesAllOverlappedWhatOutlastsEachGemmUnstatedTheFamilyShare() {
        Estimate plain = estimate(", tp_comm_overlap: false").estimate(), over = estimate(", tp_comm_overlap: true").estimate(),
                family = estimate("").estimate();
        Term.TpExposure p = tp(plain), o = tp(over), f = tp(family);
        assertEquals(TpOverlap.Mode.PLAIN, p.mode());
        assertEquals(p.seconds(), p.exposed(), 0);
        assertEquals(TpOverlap.Mode.FAMILY, f.mode());
        assertEquals(0.5 * f.seconds(), f.exposed(), 1e-12, "Hopper's tp_overlap 0.5");
        // by hand: 8 collectives per layer (no recompute), each beside its GEMM forward and its input-gradient GEMM backward
        double tokens = 8192, h = 4096, rate = compute(over).gemmRate();
        double[] gemm = {2 * tokens * h * (32 * 128 + 2 * 8 * 128) / 8 / rate, 2 * tokens * h * 4096 / 8 / rate,
                2 * tokens * h * 2 * 14336 / 8 / rate, 2 * tokens * 14336 * h / 8 / rate};
        for (int k = 0; k < 4; k++) assertEquals(gemm[k], o.gemms()[k], 1e-12 * gemm[k]);
        double c = o.seconds() / (8 * 32);
        assertEquals(c, o.collective(), 1e-15);
        double expected = 0;
        // what outlasts each GEMM, and at least 61 % of it (1 − dp_overlap 0.39: what the GEMM beside it loses, Lee et al. 2025)
        assertEquals(0.39, o.hidden(), 0);
        for (double g : gemm) expected += 32 * 2 * Math.max(c - g, 0.61 * c);
        assertEquals(expected, o.exposed(), 1e-12 * o.seconds());
        // the attention GEMMs are shorter than a collective (its bytes and NCCL's α), the MLP's first GEMM longer than it
        assertTrue(c > gemm[0] && c > gemm[1] && c < gemm[2], c + " vs " + java.util.Arrays.toString(gemm));
        assertTrue(c - gemm[1] > 0.61 * c, "the output projection's collective outlasts it by more than the contention floor");
        assertTrue(o.exposed() > 0.61 * o.seconds() && o.exposed() < p.exposed(), o.exposed() + " of " + o.seconds());
        // the step differs by the exposed tp time alone (one stage: no bubble; dp hides behind the same compute)
        long mb = 4;
        assertEquals(mb * (p.exposed() - o.exposed()), plain.time().step() - over.time().step(), 1e-9 * plain.time().step());
        assertTrue(over.time().step() < plain.time().step() && family.time().step() < plain.time().step());
    }

    @Test
    void theWordsSayWhichAndTheFormula() {
        assertTrue(EstimateWords.text(tp(estimate(", tp_comm_overlap: false").estimate()))
                .startsWith("exposed of it: all (no tensor-parallel overlap) = "));
        String o = EstimateWords.text(tp(estimate(", tp_comm_overlap: true").estimate()));
        assertTrue(o.startsWith("exposed of it, each collective (") && o.contains("beside its GEMM (QKV ")
                && o.contains("Σ max(collective − GEMM, (1 − dp_overlap) = 0.61 of the collective"), o);
        assertTrue(EstimateWords.text(tp(estimate("").estimate())).startsWith("exposed of it: (1 − tp_overlap) = 0.50 of it"));
        List<String> as = estimate("").inputs().assumptions();
        assertTrue(as.contains("tensor-parallel overlap not stated (parallelism.tp_comm_overlap): the GPU family's tp_overlap"
                + " share of the tp collectives hidden"), as.toString());
    }


    private static TpOverlap mode(Specs.Job j, List<String> as) {
        return TpOverlap.of(j, 8, as);
    }

    /** torchtitan's Llama 3 8B at tp 8, compiled, its [parallelism] table ending with {@code parallelism}. */
    private static String titan(String parallelism) {
        return Recipes.torchtitan("8B").training("local_batch_size = 12", "seq_len = 8192")
                .parallelism("data_parallel_shard_degree = -1", "tensor_parallel_degree = 8", parallelism)
                .table("[compile]\nenable = true").toml();
    }

    @Test
    void torchtitansAsyncTpIsOverlappedItsDefaultPlain() {
        List<String> as = new ArrayList<>();
        assertEquals(TpOverlap.OVERLAPPED, mode(bind("llama3_8b.toml", titan("enable_async_tensor_parallel = true\n")), as));
        assertEquals(List.of("tensor-parallel overlap ([parallelism] enable_async_tensor_parallel): each tp all-gather/reduce-scatter"
                + " runs beside the GEMM it feeds or follows; exposed only what outlasts that GEMM (TpOverlap)"), as);
        as.clear();
        assertEquals(TpOverlap.PLAIN, mode(bind("llama3_8b.toml", titan("enable_async_tensor_parallel = false\n")), as));
        assertEquals(List.of("no tensor-parallel overlap ([parallelism] enable_async_tensor_parallel false): every tp"
                + " all-gather/reduce-scatter on the critical path"), as);
        as.clear();
        assertEquals(TpOverlap.PLAIN, mode(bind("llama3_8b.toml", titan("")), as));
        assertEquals(List.of("[parallelism] enable_async_tensor_parallel not given: false, torchtitan's default (plain TP): every tp"
                + " all-gather/reduce-scatter on the critical path"), as);
    }

    private static final String MEGATRON = Recipes.MEGATRON_TP8;

    @Test
    void megatronsFlagIsOverlappedItsAbsencePlain() {
        Specs.Job on = bind("train.sh", MEGATRON.formatted(" --tp-comm-overlap"));
        assertEquals(true, on.parallelism().tpCommOverlap().value());
        assertEquals(4, on.parallelism().tpCommOverlap().span().startLine(), "the flag's line");
        List<String> as = new ArrayList<>();
        assertEquals(TpOverlap.OVERLAPPED, mode(on, as));
        as.clear();
        assertEquals(TpOverlap.PLAIN, mode(bind("train.sh", MEGATRON.formatted("")), as));
        assertEquals(List.of("--tp-comm-overlap not given: off, Megatron-LM's default: every tp all-gather/reduce-scatter on the"
                + " critical path"), as);
    }

    @Test
    void nemosUserbufferOverlapIsRead() {
        String nemo = """
                trainer: { num_nodes: 1, devices: 8, precision: bf16-mixed }
                model:
                  micro_batch_size: 1
                  global_batch_size: 128
                  tensor_model_parallel_size: 8
                  sequence_parallel: true
                  num_layers: 32
                  hidden_size: 4096
                  num_attention_heads: 32
                  encoder_seq_length: 8192
                %s
                """;
        List<String> as = new ArrayList<>();
        assertEquals(TpOverlap.OVERLAPPED, mode(bind("megatron_llama_config.yaml", nemo.formatted("  ub_tp_comm_overlap: true")), as));
        assertEquals(TpOverlap.PLAIN, mode(bind("megatron_llama_config.yaml", nemo.formatted("  ub_tp_comm_overlap: false")), as));
        as.clear();
        assertEquals(TpOverlap.PLAIN, mode(bind("megatron_llama_config.yaml", nemo.formatted("")), as));
        assertEquals(List.of("model.ub_tp_comm_overlap not given: False, NeMo's default (megatron_gpt_config.yaml): every tp"
                + " all-gather/reduce-scatter on the critical path"), as);
    }

    private static final String OVERLAP_CALLBACK =
            "- _target_: nemo.lightning.pytorch.callbacks.megatron_comm_overlap.MegatronCommOverlapCallback";

    /** A NeMo 2 recipe of Llama 3 70B on 8 × 8 GPUs at tp 8, sequence-parallel, its trainer's callbacks {@code callbacks}. */
    private static String nemo2(String... callbacks) {
        return Recipes.nemo2(128, 1, 8192).model("llama.LlamaModel", "llama.Llama3Config70B").trainer(8, 8).trainerLines(callbacks)
                .strategy("tensor_model_parallel_size: 8", "pipeline_model_parallel_size: 1", "sequence_parallel: true").yaml();
    }

    /** With the TimingCallback and the MegatronCommOverlapCallback, its tp_comm_overlap {@code overlap}. */
    private static String nemo2Overlap(String overlap) {
        return nemo2("callbacks:", "- _target_: nemo.utils.exp_manager.TimingCallback", OVERLAP_CALLBACK, "  tp_comm_overlap: " + overlap);
    }

    @Test
    void nemo2sCommOverlapCallbackIsRead() {
        List<String> as = new ArrayList<>();
        Specs.Job on = bind("llama3_70b.yaml", nemo2Overlap("true"));
        assertEquals("NeMo 2 recipe", on.origin().format());
        assertEquals(19, on.parallelism().tpCommOverlap().span().startLine(), "at the value");
        assertEquals(TpOverlap.OVERLAPPED, mode(on, as));
        assertEquals(TpOverlap.PLAIN, mode(bind("llama3_70b.yaml", nemo2Overlap("false")), as));
        assertEquals("no tensor-parallel overlap (MegatronCommOverlapCallback tp_comm_overlap false): every tp"
                + " all-gather/reduce-scatter on the critical path", as.get(1));
        // no callback that states it: not stated, the family's share
        as.clear();
        String none = nemo2("callbacks:", "- _target_: nemo.utils.exp_manager.TimingCallback");
        assertEquals(TpOverlap.FAMILY, mode(bind("llama3_70b.yaml", none), as));
    }

    @Test
    void withoutTpNothingIsSaid() {
        List<String> as = new ArrayList<>();
        TpOverlap.of(bind("train.sh", MEGATRON.formatted("").replace("--tensor-model-parallel-size 8", "--tensor-model-parallel-size 1")), 1, as);
        assertEquals(List.of(), as);
    }

    @Test
    void anMoeLayersMlpCollectivesHaveNoDenseGemmBesideThem() {
        ModelShape moe = new ModelShape(32, 4096, 32, 8, 128, 14336, 128256, 8192, true, false, 8, 2, ModelShape.Dtype.BF16, null);
        Layout l = new Layout(8, 1, 1, 1, 1, 1, 1, 4, 0, false, Layout.Recompute.NONE, true, PipelineSplit.EVEN, 0, 1, 0);
        double[] g = TpOverlap.gemmSeconds(moe, l, 8192, 1e15);
        assertTrue(g[0] > 0 && g[1] > 0);
        assertEquals(0, g[2]);
        assertEquals(0, g[3]);
    }
}
