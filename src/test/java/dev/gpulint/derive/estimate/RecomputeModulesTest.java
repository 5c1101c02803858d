package dev.gpulint.derive.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.bind.Binder;
import dev.gpulint.plan.EstimateWords;
import dev.gpulint.read.SourceFile;
import dev.gpulint.read.yaml.YamlReader;
import dev.gpulint.spec.Model;
import dev.gpulint.testing.EstimateManifest;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Selective recompute by module (RecomputeModules) on our own manifests: GPT-OSS-120B's shape (the recipes' layernorm and
 * moe_act), a dense latent-attention shape in DeepSeek-V3's sizes (mla_up_proj) and Llama 3 8B (mlp), each figure by hand.
 */
class RecomputeModulesTest {

    private static final String GPT_OSS = ExpertPassesTest.GPT_OSS_120B + ", seq_length: 4096";
    private static final String MLA = "layers: 8, hidden_size: 7168, attention_heads: 128, ffn_hidden_size: 18432, gated_mlp: true,"
            + " tied_embeddings: false, vocab_size: 129280, dtype: bf16, seq_length: 4096,"
            + " attention: { kv_lora_rank: 512, q_lora_rank: 1536, qk_head_dim: 128, qk_rope_head_dim: 64, v_head_dim: 128 }";
    private static final String LLAMA = EstimateManifest.LLAMA3_8B + ", seq_length: 8192";

    private static JobEstimate job(String model, String recompute, String modules) {
        EstimateManifest e = EstimateManifest.h100().nodes(8).nics(EstimateManifest.CX7_IB).model(model)
                .parallelism(model.contains("experts") ? "tp: 1, ep: 8" : "tp: 1").batch(1, 256).optimizer("zero_stage: 1, distributed: true").recompute(recompute);
        if (modules != null) e.line("recompute_modules: " + modules);
        return e.estimate();
    }

    private static Term.Recompute term(JobEstimate j) {
        return j.estimate().terms().stream().filter(t -> t instanceof Term.Recompute).map(t -> (Term.Recompute) t).findFirst().orElse(null);
    }

    private static double activations(JobEstimate j) {
        JobInputs in = j.inputs();
        return MemoryModel.activations(in.model(), in.layout(), 0, in.variants());
    }

    @Test
    void gptOssLayernormAndMoeActDropTheNormOutputAndTheExpertsActivation() {
        JobEstimate with = job(GPT_OSS, "selective", "[layernorm, moe_act]"), without = job(GPT_OSS, "selective", null);
        assertEquals("moe_act, layernorm", with.inputs().variants().recomputeModules().text(), "in Megatron's order");
        // per layer and micro-batch, tp 1: the pre-MLP norm's output 2 (the input norm is fused into the QKV projection) and the
        // experts' activation output 2·ffn/h = 2, × s·b·h = 4,096 × 2,880: 4 × 11,796,480 = 47,185,920 bytes
        assertEquals(47_185_920.0, with.inputs().variants().recomputeModules().savedBytes(with.inputs().model(), with.inputs().layout(),
                with.inputs().variants().moe()), 1e-3);
        // 36 layers of one micro-batch in flight (pp 1) keep that less, one layer's worth held again while it recomputes
        assertEquals(-35 * 47_185_920.0, activations(with) - activations(without), 1e-3);
        // time: the norm re-read and re-written (4,096 × 2,880 × 2 × 2 = 47.19 MB), SwiGLU's forward on the 16,384 routed rows
        // (3 × 16,384 × 2,880 × 2 = 283.1 MB), at 3.35 TB/s × 0.8
        Term.Recompute r = term(with);
        assertEquals(47_185_920.0, r.normBytes(), 1e-3);
        assertEquals(283_115_520.0, r.activationBytes(), 1e-3);
        assertEquals(0, r.flops(), 0);
        assertEquals((47_185_920.0 + 283_115_520.0) / 2.68e12, r.seconds(), 1e-12);
        assertEquals("selective recompute of [moe_act, layernorm], each module's forward run again in backward (RecomputeModules,"
                + " docs/plan.md): norms 47.2 MB + activation functions 283.1 MB at 2680 GB/s = 123.2 µs per layer and micro-batch,"
                + " averaged over the layers (in the compute above)", EstimateWords.text(r));
        // the step pays it on every layer of the stage and micro-batch
        assertEquals(4, with.inputs().layout().microBatches(), "256 sequences over dp 64");
        assertEquals(4 * 36 * r.seconds(), with.estimate().time().compute() - without.estimate().time().compute(),
                1e-9 * with.estimate().time().compute());
        assertNull(term(without), "core_attn, Megatron's default, re-runs nothing flash attention keeps");
    }

    @Test
    void aClampedGluIsRecomputedWithItsClamps() {
        JobEstimate j = job(GPT_OSS + ", moe: { activation_clamp: 7.0 }", "selective", "[moe_act]");
        // (3 + 8) × 16,384 × 2,880 × 2 bytes: the clamps and concatenation run again before the fused kernel (ExpertPasses)
        assertEquals(1_038_090_240.0, term(j).activationBytes(), 1e-3);
        assertEquals(0, term(j).normBytes(), 0);
        assertEquals(1_038_090_240.0 / 2.68e12, term(j).seconds(), 1e-12);
    }

    @Test
    void mlaUpProjDropsQkvAndRunsTheUpProjectionsAgain() {
        JobEstimate with = job(MLA, "selective", "[mla_up_proj, layernorm]"), without = job(MLA, "selective", "[core_attn]");
        // Q and K 2·a·(d_h + d_hR) each, V 2·a·d_v: (4 × 128 × 192 + 2 × 128 × 128) / 7,168 = 18.2857 per s·b·h, and the
        // input norm's output 2 (latent attention's input norm is a TENorm of its own); s·b·h = 4,096 × 7,168
        double sbh = 4096.0 * 7168;
        double saved = ((4.0 * 128 * 192 + 2.0 * 128 * 128) / 7168 + 2) * sbh;
        assertEquals(-7 * saved, activations(with) - activations(without), 1e-3 * sbh);
        Term.Recompute r = term(with);
        // q_up 1,536 → 128 × 192 and kv_up 512 → 128 × (128 + 128), forward, per token: 2 × (37,748,736 + 16,777,216)
        assertEquals(4096.0 * 2 * (1536.0 * 128 * 192 + 512.0 * 128 * 256), r.flops(), 1);
        assertEquals(2, r.kernels(), 0);
        assertEquals(4096.0 * 7168 * 4, r.normBytes(), 1e-3);
        Hardware hw = with.inputs().hardware();
        double pg = hw.gemmPeak(with.inputs().model().dtype()) * hw.gemmEfficiency(with.inputs().model().dtype());
        assertEquals(r.flops() / pg + 2 * hw.efficiency().gemmKernelS() + r.normBytes() / 2.68e12, r.seconds(), 1e-12);
        assertNull(term(without));
    }

    @Test
    void mlpDropsADenseLayersMlpAndRunsItsForwardAgain() {
        JobEstimate with = job(LLAMA, "selective", "[mlp]"), without = job(LLAMA, "selective", null);
        // fc1's input 2, fc1's output 2·2·ffn and SwiGLU's output 2·ffn: 2 + 6 × 14,336 / 4,096 = 23 per s·b·h (tp 1)
        double sbh = 8192.0 * 4096;
        assertEquals(-31 * 23 * sbh, activations(with) - activations(without), 1e-3 * sbh);
        Term.Recompute r = term(with);
        assertEquals(8192.0 * 2 * 3 * 4096 * 14336, r.flops(), 1);
        assertEquals(8192.0 * 14336 * 3 * 2, r.activationBytes(), 1e-3);
        // a dense model has no MoE layer: layernorm recomputes nothing (both norms fused into their GEMMs)
        JobEstimate ln = job(LLAMA, "selective", "[layernorm]");
        assertNull(term(ln));
        assertEquals(activations(without), activations(ln), 0);
    }

    @Test
    void modulesCountOnlyWithSelectiveRecompute() {
        // full recompute keeps every layer's input whatever the modules: the same figures as without them
        JobEstimate full = job(GPT_OSS, "full", "[layernorm, moe_act]"), plain = job(GPT_OSS, "full", null);
        assertEquals(activations(plain), activations(full), 0);
        assertEquals(plain.estimate().time().step(), full.estimate().time().step(), 0);
        assertNull(term(full));
        // written without recompute: selective, the modules it names
        JobEstimate implied = job(GPT_OSS, null, "[moe_act]");
        assertEquals(Layout.Recompute.SELECTIVE, implied.inputs().layout().recompute());
        assertTrue(implied.inputs().assumptions().contains("recompute selective with recompute_modules [moe_act]: each module's"
                + " activations dropped and its forward run again in backward are priced (RecomputeModules, docs/plan.md)"),
                String.join("\n", implied.inputs().assumptions()));
        // selective without modules: Megatron's default, said
        assertTrue(job(GPT_OSS, "selective", null).inputs().assumptions().contains("recompute selective without recompute_modules:"
                + " Megatron-Core's default [core_attn] (TransformerConfig recompute_modules; with flash attention it keeps what no"
                + " recompute keeps)"));
    }

    @Test
    void anUnknownModuleIsSyn002AtItsName() {
        String yaml = EstimateManifest.h100().model(LLAMA).recompute("selective").line("recompute_modules: [layernorm, moe_ac]").yaml();
        Model b = new Binder().bind(new YamlReader().read(SourceFile.of("j.yaml", yaml)).documents());
        List<String> syn = b.findings().stream().filter(f -> f.ruleId().equals("SYN002"))
                .map(f -> f.span().startLine() + ":" + f.span().startColumn() + " " + f.message()).toList();
        int line = (int) yaml.lines().takeWhile(l -> !l.startsWith("recompute_modules")).count() + 1;
        assertEquals(List.of(line + ":32 'recompute_modules' has 'moe_ac'; expected names among core_attn, moe_act, layernorm,"
                + " mla_up_proj, mlp, moe, shared_experts (did you mean 'moe_act'?)."), syn);
        // the known names bind: layernorm alone
        assertEquals(java.util.Set.of(dev.gpulint.spec.RecomputeModule.LAYERNORM), b.jobs().get(0).recompute().modules());
    }
}
