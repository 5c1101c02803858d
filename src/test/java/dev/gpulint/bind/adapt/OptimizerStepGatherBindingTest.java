package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.gpulint.spec.Specs;
import dev.gpulint.testing.EstimateManifest;
import dev.gpulint.testing.Foreign;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Model chunk 0's parameter all-gather in the optimizer step (derive/estimate/OptimizerStepGather prices it) as each format
 * states it: Megatron-LM's {@code --overlap-param-gather-with-optimizer-step}, Megatron-Bridge's
 * {@code comm_overlap.overlap_param_gather_with_optimizer_step} (CommOverlapConfig, which it applies to the optimizer's
 * config) else {@code optimizer.overlap_param_gather_with_optimizer_step}, NeMo 2's MegatronCommOverlapCallback key else
 * {@code optim.config}'s, and the native {@code optimizer.overlap_param_gather_with_step}. Our own fixtures, in the shapes of
 * Megatron-LM's example scripts, Megatron-Bridge's run configs and NeMo 2's recipe dumps.
 */
class OptimizerStepGatherBindingTest {

    private static final String SCRIPT = """
            #!/bin/bash
            torchrun --nnodes 16 --nproc_per_node 8 pretrain_gpt.py \\
              --num-layers 128 --hidden-size 16384 --num-attention-heads 128 --seq-length 8192 \\
              --tensor-model-parallel-size 4 --pipeline-model-parallel-size 8 --num-layers-per-virtual-pipeline-stage 2 \\
              --micro-batch-size 1 --global-batch-size 64 --bf16 \\
              --use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather \\
              --overlap-param-gather-with-optimizer-step
            """;

    @Test
    void megatronsSwitchIsReadAtItsWord() {
        Specs.Job j = Foreign.bind("train.sh", SCRIPT);
        assertEquals(true, j.optimizer().gatherWithStep().value());
        assertEquals(7, j.optimizer().gatherWithStep().span().startLine());
        assertEquals("--overlap-param-gather-with-optimizer-step", j.origin().key(Specs.Origin.GATHER_WITH_STEP));
        assertEquals(true, j.optimizer().distributed().value(), "the rest of the optimizer as before");
        assertNull(Foreign.bind("train.sh", SCRIPT.replace(" \\\n  --overlap-param-gather-with-optimizer-step", ""))
                .optimizer().gatherWithStep());
    }

    private static final String BRIDGE = """
            model:
              tensor_model_parallel_size: 4
              pipeline_model_parallel_size: 8
              virtual_pipeline_model_parallel_size: 8
              seq_length: 8192
            train:
              global_batch_size: 64
              micro_batch_size: 1
            optimizer:
              _target_: megatron.core.optimizer.OptimizerConfig
              use_distributed_optimizer: true
              overlap_param_gather_with_optimizer_step: %s
            comm_overlap:
              _target_: megatron.bridge.training.comm_overlap.CommOverlapConfig
              tp_comm_overlap: true
            %s""";

    @Test
    void bridgesCommOverlapConfigElseItsOptimizerConfig() {
        // set_post_overrides (scripts/performance/utils/overrides.py) writes both when dp, pp and vp are all above 1
        Specs.Job both = Foreign.bind("run_config.yaml", BRIDGE.formatted("true", "  overlap_param_gather_with_optimizer_step: true\n"));
        assertEquals(true, both.optimizer().gatherWithStep().value());
        assertEquals(16, both.optimizer().gatherWithStep().span().startLine());
        assertEquals("comm_overlap.overlap_param_gather_with_optimizer_step", both.origin().key(Specs.Origin.GATHER_WITH_STEP));
        // the comm-overlap config's value is the one Megatron-Bridge applies to the optimizer
        assertEquals(false, Foreign.bind("run_config.yaml", BRIDGE.formatted("true", "  overlap_param_gather_with_optimizer_step: false\n"))
                .optimizer().gatherWithStep().value());
        Specs.Job optimizerOnly = Foreign.bind("run_config.yaml", BRIDGE.formatted("true", ""));
        assertEquals(true, optimizerOnly.optimizer().gatherWithStep().value());
        assertEquals(12, optimizerOnly.optimizer().gatherWithStep().span().startLine());
        assertEquals("optimizer.overlap_param_gather_with_optimizer_step", optimizerOnly.origin().key(Specs.Origin.GATHER_WITH_STEP));
        // text that is no boolean: SYN002-worded, left out, the estimate as without it
        Specs.Job maybe = Foreign.bind("run_config.yaml", BRIDGE.formatted("maybe", ""));
        assertNull(maybe.optimizer().gatherWithStep());
        assertEquals(List.of("optimizer.overlap_param_gather_with_optimizer_step = 'maybe' (SYN002, not true or false): left out, so"
                + " the estimate gathers model chunk 0's parameters ahead of its first forward, as when it is not stated"), maybe.origin().unpriced());
    }

    private static final String NEMO2 = """
            trainer:
              _target_: nemo.lightning.pytorch.trainer.Trainer
              devices: 8
              num_nodes: 16
              strategy:
                _target_: nemo.lightning.pytorch.strategies.megatron_strategy.MegatronStrategy
                tensor_model_parallel_size: 4
                pipeline_model_parallel_size: 8
                virtual_pipeline_model_parallel_size: 8
              callbacks:
                - _target_: nemo.lightning.pytorch.callbacks.megatron_comm_overlap.MegatronCommOverlapCallback
                  tp_comm_overlap: true
                  overlap_param_gather_with_optimizer_step: true
            optim:
              _target_: nemo.lightning.pytorch.optim.megatron.MegatronOptimizerModule
              config:
                _target_: megatron.core.optimizer.OptimizerConfig
                optimizer: adam
                use_distributed_optimizer: true
            """;

    @Test
    void nemo2sCallbackElseItsOptimizerConfig() {
        Specs.Job j = Foreign.bind("recipe.yaml", NEMO2);
        assertEquals(true, j.optimizer().gatherWithStep().value());
        assertEquals(13, j.optimizer().gatherWithStep().span().startLine());
        assertEquals("MegatronCommOverlapCallback.overlap_param_gather_with_optimizer_step", j.origin().key(Specs.Origin.GATHER_WITH_STEP));
        Specs.Job config = Foreign.bind("recipe.yaml", NEMO2.replace("      overlap_param_gather_with_optimizer_step: true\n", "")
                + "    overlap_param_gather_with_optimizer_step: true\n");
        assertEquals(true, config.optimizer().gatherWithStep().value());
        assertEquals(19, config.optimizer().gatherWithStep().span().startLine());
        assertEquals("optim.config.overlap_param_gather_with_optimizer_step", config.origin().key(Specs.Origin.GATHER_WITH_STEP));
        // stated nowhere: not taken from the callback's default, which differs between NeMo versions
        assertNull(Foreign.bind("recipe.yaml", NEMO2.replace("      overlap_param_gather_with_optimizer_step: true\n", ""))
                .optimizer().gatherWithStep());
    }

    @Test
    void theNativeManifestWritesItInTheOptimizer() {
        Specs.Job j = EstimateManifest.h100().model(EstimateManifest.LLAMA3_8B + ", seq_length: 8192")
                .parallelism("tp: 1, pp: 4, virtual_pp: 4").batch(1, 16)
                .optimizer("distributed: true, overlap_param_gather_with_step: true").fixture().jobs().get(0).spec();
        assertEquals(true, j.optimizer().gatherWithStep().value());
        assertNull(j.origin());
        assertNull(EstimateManifest.h100().model(EstimateManifest.LLAMA3_8B + ", seq_length: 8192").batch(1, 16)
                .optimizer("distributed: true").fixture().jobs().get(0).spec().optimizer().gatherWithStep());
    }
}
