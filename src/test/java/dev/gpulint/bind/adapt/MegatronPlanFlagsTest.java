package dev.gpulint.bind.adapt;

import static dev.gpulint.testing.Foreign.jobs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.spec.Specs;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What `gpulint plan` reads from Megatron-LM's flags, on a launch script (our own, in the shape of Megatron-LM's
 * examples/llama and the corpora's train_*.sh) and in a test case's MODEL_ARGS: the MLP, head dimension, vocabulary,
 * gating, tying, precision, recompute, distributed optimizer and --grad-reduce-in-bf16.
 */
class MegatronPlanFlagsTest {

    private static final String SCRIPT = """
            #!/bin/bash
            MODEL_ARGS=(
              --num-layers 80 --hidden-size 8192 --num-attention-heads 64
              --group-query-attention --num-query-groups 8
              --ffn-hidden-size 28672 --kv-channels 128 --swiglu --untie-embeddings-and-output-weights --vocab-size 128256
              --seq-length 4096
            )
            torchrun --nnodes 2 --nproc_per_node 8 pretrain_gpt.py "${MODEL_ARGS[@]}" \\
              --tensor-model-parallel-size 8 --pipeline-model-parallel-size 2 --sequence-parallel \\
              --micro-batch-size 1 --global-batch-size 32 --bf16 --grad-reduce-in-bf16 \\
              --use-distributed-optimizer --recompute-granularity full
            """;

    @Test
    void aLaunchScriptsModelAndPrecisionFlagsAreRead() {
        Specs.Job j = jobs("train.sh", SCRIPT).get(0);
        assertEquals(28672L, j.model().ffnHiddenSize().value());
        assertEquals(128L, j.model().headDim().value());
        assertEquals(128256L, j.model().vocabSize().value());
        assertEquals(true, j.model().gatedMlp().value());
        assertEquals(false, j.model().tiedEmbeddings().value());
        assertEquals("bf16", j.model().dtype().value());
        assertEquals("full", j.recompute().granularity().value());
        assertEquals(true, j.optimizer().distributed().value());
        assertEquals(16.0, j.optimizer().bytesPerParameter().value());
        assertEquals(10, j.optimizer().bytesPerParameter().span().startLine());
        Specs.Job fp32 = jobs("train.sh", SCRIPT.replace(" --grad-reduce-in-bf16", "")).get(0);
        assertNull(fp32.optimizer().bytesPerParameter(), "--bf16 alone: fp32 main gradients, Megatron's 18");
    }

    /**
     * --cross-entropy-loss-fusion with --cross-entropy-fusion-impl te runs Transformer Engine's loss (language_module.py's
     * compute_language_model_loss); the fusion alone, or impl te without the fusion, runs Megatron-Core's own (ModelParallelConfig's
     * defaults: fusion off, impl native); neither written: not stated.
     */
    @Test
    void theCrossEntropyFusionAndItsImplementationAreRead() {
        Specs.Job te = jobs("train.sh", SCRIPT.replace("--bf16", "--bf16 --cross-entropy-loss-fusion --cross-entropy-fusion-impl te")).get(0);
        assertEquals(Specs.CrossEntropy.TE, te.model().crossEntropy().value());
        assertEquals(10, te.model().crossEntropy().span().startLine(), "at the implementation that says te");
        Specs.Job fusedNative = jobs("train.sh", SCRIPT.replace("--bf16", "--bf16 --cross-entropy-loss-fusion")).get(0);
        assertEquals(Specs.CrossEntropy.NATIVE, fusedNative.model().crossEntropy().value(), "the fusion's default implementation is native");
        Specs.Job unfused = jobs("train.sh", SCRIPT.replace("--bf16", "--bf16 --cross-entropy-fusion-impl te")).get(0);
        assertEquals(Specs.CrossEntropy.NATIVE, unfused.model().crossEntropy().value(), "without the fusion the impl is not used");
        assertNull(jobs("train.sh", SCRIPT).get(0).model().crossEntropy());
    }

    @Test
    void theFp8RecipeAndFp4FormatNameTheTensorPath() {
        Specs.Job hybrid = jobs("train.sh", SCRIPT.replace("--bf16", "--bf16 --fp8-format hybrid --fp8-recipe delayed")).get(0);
        assertEquals("fp8", hybrid.model().dtype().value(), "delayed scaling is plain fp8");
        Specs.Job mx = jobs("train.sh", SCRIPT.replace("--bf16", "--bf16 --fp8-format e4m3 --fp8-recipe mxfp8")).get(0);
        assertEquals("mxfp8", mx.model().dtype().value());
        assertEquals(10, mx.model().dtype().span().startLine(), "at the recipe that says mxfp8");
        Specs.Job fp4 = jobs("train.sh", SCRIPT.replace("--bf16", "--bf16 --fp4-format e2m1 --fp4-recipe nvfp4")).get(0);
        assertEquals("nvfp4", fp4.model().dtype().value());
        Specs.Job block = jobs("train.sh", SCRIPT.replace("--bf16", "--bf16 --fp8-format e4m3 --fp8-recipe blockwise")).get(0);
        assertEquals("fp8", block.model().dtype().value(), "blockwise scaling runs on the fp8 path");
    }

    @Test
    void cpuOffloadingAndAnUnevenPipelineAreReadFromTheLaunch() {
        String offload = SCRIPT.replace("--recompute-granularity full", "--cpu-offloading --cpu-offloading-num-layers 20")
                .replace("--num-layers 80", "--num-layers 78").replace("--pipeline-model-parallel-size 2",
                        "--pipeline-model-parallel-size 2 --decoder-first-pipeline-num-layers 38");
        Specs.Job j = jobs("train.sh", offload).get(0);
        assertEquals(20L, j.offload().activationLayers().value());
        assertEquals(78L, j.model().layers().value(), "a hand-sized first stage keeps the layer count");
        assertEquals(38L, j.parallelism().firstStageLayers().value());
        assertNull(j.parallelism().lastStageLayers());
        // --cpu-offloading-num-layers without --cpu-offloading offloads nothing (Megatron-Core's cpu_offloading is off)
        Specs.Job off = jobs("train.sh", SCRIPT.replace("--recompute-granularity full", "--cpu-offloading-num-layers 20")).get(0);
        assertNull(off.offload());
    }

    @Test
    void precisionFlagsAloneDoNotMakeAScriptALaunch() {
        assertTrue(jobs("finetune.sh", "#!/bin/bash\npython finetune.py --bf16 --vocab-size 32000 --ffn-hidden-size 11008\n").isEmpty(),
                "Hugging Face's --bf16 and model flags of a plain python command start no Megatron job");
    }

    @Test
    void modelArgsOfATestCaseGiveGradientBytesToo() {
        Specs.Job j = jobs("gpt_tp2/model_config.yaml", """
                MODEL_ARGS:
                  --num-layers: 12
                  --hidden-size: 768
                  --num-attention-heads: 12
                  --tensor-model-parallel-size: 2
                  --bf16: true
                  --grad-reduce-in-bf16: true
                TEST_TYPE: regular
                """).get(0);
        assertEquals(16.0, j.optimizer().bytesPerParameter().value());
    }

    /**
     * Megatron-LM's gpt3_15b_8t release shape: MODEL_ARGS with --step-batch-size-schedule in place of --global-batch-size. The
     * plan prices the batch of the first steps (threshold 0) and says the later ones; before, the global batch was unstated and
     * the plan took micro batch × dp.
     */
    @Test
    void aStepBatchSizeScheduleGivesTheFirstStepsGlobalBatch() {
        String args = """
                MODEL_ARGS:
                  --tensor-model-parallel-size: 8
                  --pipeline-model-parallel-size: 1
                  --micro-batch-size: 4
                  --step-batch-size-schedule: "0:384 200B:768 400B:1152"
                  --num-layers: 32
                  --hidden-size: 6144
                  --num-attention-heads: 48
                  --seq-length: 4096
                """;
        Specs.Job j = jobs("model_config.yaml", args).get(0);
        assertEquals(384L, j.batch().globalBatchSize().value());
        assertEquals(5, j.batch().globalBatchSize().span().startLine());
        assertTrue(j.origin().unpriced().contains("--step-batch-size-schedule \"0:384 200B:768 400B:1152\": the global batch of the"
                + " first steps, 384, is planned; the later ones (768 from 200B, 1152 from 400B) are not (Megatron-LM pull request 4411;"
                + " Megatron ignores --global-batch-size beside it)"), j.origin().unpriced().toString());
        Specs.Job both = jobs("model_config.yaml", args.replace("  --micro-batch-size: 4\n", "  --micro-batch-size: 4\n  --global-batch-size: 512\n")).get(0);
        assertEquals(384L, both.batch().globalBatchSize().value(), "the schedule wins: Megatron ignores --global-batch-size beside it");
        Specs.Job noZero = jobs("model_config.yaml", args.replace("0:384 ", "")).get(0);
        assertNull(noZero.batch().globalBatchSize(), "no threshold 0: not read");
    }
}
