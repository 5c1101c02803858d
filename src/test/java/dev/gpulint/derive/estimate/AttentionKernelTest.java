package dev.gpulint.derive.estimate;

import static dev.gpulint.testing.Foreign.bind;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.spec.ParallelDim;
import dev.gpulint.spec.Specs;
import dev.gpulint.testing.EstimateManifest;
import dev.gpulint.testing.Recipes;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The attention kernel a job runs sets its attention rate: the family's fused rate (the calibration's), or the catalog's
 * attention_flash2 / attention_flash3 from kernel-level tables (FlashAttention-3 paper on H100; cuDNN-frontend's SDPA
 * benchmark on B200); torchtitan's default is PyTorch's flash backend, FlashAttention-2.
 */
class AttentionKernelTest {

    static final String LLAMA3_8B = EstimateManifest.LLAMA3_8B;

    private static JobEstimate h100(String attention, String par, int seq) {
        return MoeCostTest.job(LLAMA3_8B, attention, par, seq);
    }

    private static Term.Compute compute(Estimate e) {
        return e.terms().stream().filter(t -> t instanceof Term.Compute).map(t -> (Term.Compute) t).findFirst().orElseThrow();
    }

    @Test
    void hopperRatesComeFromTheFlashAttention3PapersTable() {
        Hardware hw = h100("", "tp: 1", 8192).inputs().hardware();
        assertEquals(0.3, hw.attention(AttentionKernel.FUSED), 1e-12, "the NeMo 24.09 fit: cuDNN fused attention");
        // FA3 paper, H100 bf16 head dim 128 at 8k: forward + backward FA2 322.1, cuDNN 521.1, FA3 570.6 TFLOP/s
        assertEquals(0.185, hw.attention(AttentionKernel.FLASH2), 1e-12);
        assertEquals(0.329, hw.attention(AttentionKernel.FLASH3), 1e-12);
        assertEquals(0.3 * 322.1 / 521.1, hw.attention(AttentionKernel.FLASH2), 0.001, "attention × FA2/cuDNN");
        assertEquals(0.3 * 570.6 / 521.1, hw.attention(AttentionKernel.FLASH3), 0.001, "attention × FA3/cuDNN");
    }

    @Test
    void theStatedKernelPricesTheAttentionTermAndNothingElse() {
        JobEstimate fused = h100("", "tp: 1", 8192), flash2 = h100("attention: { kernel: flash2 }", "tp: 1", 8192);
        Term.Compute f = compute(fused.estimate()), a = compute(flash2.estimate());
        double p16 = 989.5e12;
        assertEquals(p16 * 0.3, f.attentionRate(), 1e3);
        assertEquals(p16 * 0.185, a.attentionRate(), 1e3);
        assertEquals(f.attentionFlops(), a.attentionFlops(), 1e-3, "the same executed FLOPs");
        assertEquals(f.linearFlops(), a.linearFlops(), 1e-3);
        // per layer, the attention's seconds grow by 0.3 / 0.185; the layer's other seconds stay
        double perLayerF = f.attentionFlops() / f.attentionRate(), perLayerA = a.attentionFlops() / a.attentionRate();
        assertEquals(0.3 / 0.185, perLayerA / perLayerF, 1e-9);
        assertEquals((perLayerA - perLayerF) * f.layersPerStage(), a.seconds() - f.seconds(), 1e-9);
        assertTrue(flash2.estimate().time().step() > fused.estimate().time().step());
        assertTrue(flash2.inputs().assumptions().contains("attention kernel flash2 (FlashAttention-2), as the job states it: 0.185 of"
                + " the 16-bit peak on the FLOPs it executes (catalog attention_flash2)"), flash2.inputs().assumptions().toString());
        assertTrue(fused.inputs().assumptions().contains("attention kernel fused (Transformer Engine's fused attention: cuDNN on Hopper"
                + " and Blackwell, FlashAttention-2 on Ampere), not stated, the calibration's kernel: 0.300 of the 16-bit peak on the"
                + " FLOPs it executes (catalog attention)"), fused.inputs().assumptions().toString());
    }

    @Test
    void aKernelTheFamilyStatesNoRateOfRunsAtItsAttention() {
        JobEstimate a100 = onGpu("A100-SXM4-80GB", "attention: { kernel: flash3 }");
        assertEquals(0.285, a100.inputs().hardware().attention(AttentionKernel.FLASH3), 1e-12);
        assertEquals(0.285, a100.inputs().hardware().attention(AttentionKernel.FLASH2), 1e-12,
                "Ampere's fused kernel is FlashAttention-2 itself: no rate of its own");
        assertTrue(a100.inputs().assumptions().contains("attention kernel flash3 (FlashAttention-3), as the job states it: 0.285 of the"
                + " 16-bit peak on the FLOPs it executes (the family states no attention_flash3: its attention, the fused kernel's rate)"),
                a100.inputs().assumptions().toString());
    }

    private static JobEstimate onGpu(String gpu, String attention) {
        return EstimateManifest.on(gpu).nodes(8).nics(EstimateManifest.CX7_IB).model(LLAMA3_8B + ", seq_length: 8192, " + attention)
                .parallelism("tp: 1").batch(1, 64).optimizer("zero_stage: 3").recompute("selective").estimate();
    }

    @Test
    void blackwellsFlashAttention2RateIsCudnnFrontendsB200Ratio() {
        // PyTorch's flash backend over its cuDNN backend, causal fwd + bwd at 8,192 tokens on a B200: (1.877 + 5.833) / (5.889 + 18.395)
        assertEquals(0.29 * (1.877 + 5.833) / (5.889 + 18.395), 0.092, 0.0005);
        JobEstimate b200 = onGpu("B200-SXM-180GB", "attention: { kernel: flash2 }");
        assertEquals(0.092, b200.inputs().hardware().attention(AttentionKernel.FLASH2), 1e-12);
        assertEquals(0.29, b200.inputs().hardware().attention(AttentionKernel.FUSED), 1e-12);
        assertEquals(0.29, b200.inputs().hardware().attention(AttentionKernel.FLASH3), 1e-12, "FlashAttention-3 is Hopper's: no Blackwell rate");
    }


    @Test
    void torchtitansDefaultIsPyTorchsFlashBackend() {
        Specs.Job titan = bind("llama3_8b.toml", Recipes.torchtitan("8B").training("local_batch_size = 1", "seq_len = 262144")
                .parallelism("data_parallel_shard_degree = -1", "context_parallel_degree = 8").toml());
        List<String> as = new ArrayList<>();
        Hardware hw = h100("", "tp: 1", 8192).inputs().hardware();
        assertEquals(AttentionKernel.FLASH2, AttentionKernel.of(titan, hw, as));
        assertEquals(List.of("attention kernel flash2 (FlashAttention-2), not stated: torchtitan's F.scaled_dot_product_attention runs"
                + " PyTorch's flash backend, FlashAttention-2 (cuDNN's backend is opt-in since PyTorch 2.5.1, pytorch/pytorch#138522;"
                + " model.attention.kernel in a native manifest states another): 0.185 of the 16-bit peak on the FLOPs it executes"
                + " (catalog attention_flash2)"), as);
    }

    private static final String MEGATRON = Recipes.MEGATRON_TP8;

    @Test
    void megatronsAttentionBackendIsTheKernel() {
        Specs.Job flash = bind("train.sh", MEGATRON.formatted(" --attention-backend flash"));
        assertEquals("flash2", flash.model().attention().kernel().value());
        assertEquals(4, flash.model().attention().kernel().span().startLine(), "the flag's line");
        assertTrue(flash.origin().unpriced().get(0).startsWith("attention backend flash (--attention-backend): Transformer Engine's"
                + " FlashAttention, priced as FlashAttention-2"), flash.origin().unpriced().toString());
        List<String> as = new ArrayList<>();
        assertEquals(AttentionKernel.FLASH2, AttentionKernel.of(flash, null, as));
        assertEquals(List.of(), as, "no hardware, no rate to say");
        assertEquals("fused", bind("train.sh", MEGATRON.formatted(" --attention-backend fused")).model().attention().kernel().value());
        assertEquals("fused", bind("train.sh", MEGATRON.formatted(" --attention-backend auto")).model().attention().kernel().value());
        for (String b : new String[] {"unfused", "local"}) {
            Specs.Job unfused = bind("train.sh", MEGATRON.formatted(" --attention-backend " + b));
            assertEquals("unfused", unfused.model().attention().kernel().value(), "Megatron-Core's DotProductAttention: " + b);
            assertEquals(AttentionKernel.UNFUSED, AttentionKernel.of(unfused, null, new ArrayList<>()));
        }
        Specs.Job none = bind("train.sh", MEGATRON.formatted(""));
        assertNull(none.model().attention());
        assertEquals(AttentionKernel.FUSED, AttentionKernel.of(none, null, as));
    }

    /** A Megatron launch script that exports {@code exports} (one {@code NAME=value} a line) before its torchrun. */
    private static Specs.Job exporting(String exports, String flags) {
        return bind("train.sh", MEGATRON.formatted(flags).replace("#!/bin/bash\n", "#!/bin/bash\n" + exports));
    }

    @Test
    void transformerEnginesEnvironmentSetsTheKernelOfAJobThatNamesNone() {
        // NVIDIA/dgxc-benchmarking grok1/configure.sh (the DGX Cloud Grok-1 runs): NVTE_FUSED_ATTN=0, flash left on
        List<String> as = new ArrayList<>();
        assertEquals(AttentionKernel.FLASH2, AttentionKernel.of(exporting("export NVTE_FUSED_ATTN=0\n", ""), null, as));
        assertEquals(AttentionKernel.UNFUSED, AttentionKernel.of(exporting("export NVTE_FUSED_ATTN=0\nexport NVTE_FLASH_ATTN=0\n", ""),
                null, as), "both of Transformer Engine's flash kernels off: plain ops");
        // quiet: the calibration's fused kernel (llama3.1/configure.sh: NVTE_FLASH_ATTN=0, NVTE_FUSED_ATTN=1), the defaults, a
        // stated backend over the environment
        assertEquals(AttentionKernel.FUSED, AttentionKernel.of(exporting("export NVTE_FLASH_ATTN=0\nexport NVTE_FUSED_ATTN=1\n", ""),
                null, as));
        assertEquals(AttentionKernel.FUSED, AttentionKernel.of(exporting("export NVTE_FLASH_ATTN=1\n", ""), null, as));
        assertEquals(AttentionKernel.FUSED, AttentionKernel.of(exporting("export NVTE_FUSED_ATTN=0\n", " --attention-backend fused"),
                null, as), "--attention-backend states the kernel; the environment only fills in for a job that names none");
        assertEquals(List.of(), as, "no hardware, no rate to say");

        // the native manifest's env, priced on H100 at the catalog's attention_flash2 with its reason in the assumptions
        JobEstimate env = EstimateManifest.on("H100-SXM5-80GB").nodes(1).model(LLAMA3_8B + ", seq_length: 8192").parallelism("tp: 1")
                .batch(1, 64).optimizer("zero_stage: 1").recompute("selective").line("env: { NVTE_FUSED_ATTN: \"0\" }").estimate();
        JobEstimate none = EstimateManifest.on("H100-SXM5-80GB").nodes(1).model(LLAMA3_8B + ", seq_length: 8192").parallelism("tp: 1")
                .batch(1, 64).optimizer("zero_stage: 1").recompute("selective").estimate();
        assertEquals(989.5e12 * 0.185, compute(env.estimate()).attentionRate(), 1e3);
        assertEquals(989.5e12 * 0.3, compute(none.estimate()).attentionRate(), 1e3);
        assertTrue(env.estimate().time().step() > none.estimate().time().step());
        assertTrue(env.inputs().assumptions().contains("attention kernel flash2 (FlashAttention-2), not stated, the job's environment:"
                + " NVTE_FUSED_ATTN=0 turns off Transformer Engine's cuDNN fused attention, so it runs the flash-attn package, priced as"
                + " FlashAttention-2 (FlashAttention-3 where flash-attn 3 is installed on Hopper is not told apart: model.attention.kernel:"
                + " flash3 in a native manifest states it): 0.185 of the 16-bit peak on the FLOPs it executes (catalog attention_flash2)"),
                env.inputs().assumptions().toString());
    }

    @Test
    void aLegacyMegatronScriptWithoutFlashRunsTheUnfusedCore() {
        // Narayanan et al. 2021's scripts: Megatron-LM v2, full recompute by --checkpoint-activations, no flash attention yet
        Specs.Job old = bind("train.sh", MEGATRON.formatted(" \\\n  --checkpoint-activations"));
        assertEquals("unfused", old.model().attention().kernel().value());
        assertEquals(5, old.model().attention().kernel().span().startLine(), "at --checkpoint-activations");
        assertEquals("full", old.recompute().granularity().value(), "--checkpoint-activations checkpoints every layer");
        assertTrue(old.origin().unpriced().contains("attention kernel unfused, inferred from --checkpoint-activations (Megatron-LM's switch"
                + " before mid-2022 and Megatron-DeepSpeed's: the legacy model's ParallelAttention) without --use-flash-attn: the s² scores"
                + " through HBM (baddbmm, fused scale-mask-softmax, dropout, bmm); --use-flash-attn or --attention-backend states another"),
                old.origin().unpriced().toString());
        assertEquals("unfused", bind("train.sh", MEGATRON.formatted(" --use-legacy-models")).model().attention().kernel().value());
        assertEquals("unfused", bind("train.sh", MEGATRON.formatted(" --transformer-impl local")).model().attention().kernel().value());
        // quiet: a flash switch, a stated backend, Transformer Engine, or no legacy sign at all
        Specs.Job flash = bind("train.sh", MEGATRON.formatted(" --checkpoint-activations --use-flash-attn"));
        assertNull(flash.model().attention(), "flash attention: the fused kernel's rate");
        assertEquals("flash2", bind("train.sh", MEGATRON.formatted(" --use-legacy-models --attention-backend flash"))
                .model().attention().kernel().value());
        assertNull(bind("train.sh", MEGATRON.formatted(" --transformer-impl transformer_engine")).model().attention());
        assertNull(bind("train.sh", MEGATRON.formatted(" --recompute-activations")).model().attention());
    }

    @Test
    void aFullyRecomputedForwardRunsItsKvRingAgain() {
        JobEstimate sel = MoeCostTest.job(LLAMA3_8B, "", "tp: 1, cp: 8", 65536);
        JobEstimate rec = recomputed(LLAMA3_8B, 65536);
        double a = sel.estimate().time().comm().get(ParallelDim.CP), b = rec.estimate().time().comm().get(ParallelDim.CP);
        assertTrue(a > 0);
        // forward K/V, backward K/V and their gradients: 3 passes; a recomputed forward a 4th
        assertEquals(4.0 / 3, b / a, 1e-9);
    }

    private static JobEstimate recomputed(String model, int seq) {
        return EstimateManifest.h100().nodes(8).nics(EstimateManifest.CX7_IB).model(model + ", seq_length: " + seq)
                .parallelism("tp: 1, cp: 8").batch(1, 256).optimizer("zero_stage: 1, distributed: true").recompute("full").estimate();
    }

    /** A NeMo 2 recipe of Llama 3 70B on 8 × 8 GPUs at tp 8, sequence-parallel, whose model config writes {@code attention_backend}. */
    private static String nemo2(String backend) {
        return Recipes.nemo2(128, 1, 8192).model("llama.LlamaModel", "llama.Llama3Config70B", "attention_backend: " + backend).trainer(8, 8)
                .strategy("tensor_model_parallel_size: 8", "pipeline_model_parallel_size: 1", "sequence_parallel: true").yaml();
    }

    @Test
    void nemo2sAttentionBackendIsTheKernel() {
        Specs.Job flash = bind("llama3_70b.yaml", nemo2("AttnBackend.flash"));
        assertEquals("NeMo 2 recipe", flash.origin().format());
        assertEquals("flash2", flash.model().attention().kernel().value());
        assertEquals(12, flash.model().attention().kernel().span().startLine(), "at the value (its line, as TpOverlapTest reads the callback's)");
        assertEquals("fused", bind("llama3_70b.yaml", nemo2("fused")).model().attention().kernel().value());
        Specs.Job none = bind("llama3_70b.yaml", nemo2("null"));
        assertTrue(none.model().attention() == null || none.model().attention().kernel() == null);
        assertEquals(AttentionKernel.FUSED, AttentionKernel.of(none, null, new ArrayList<>()));
    }
}
