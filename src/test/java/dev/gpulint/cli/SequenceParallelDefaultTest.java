package dev.gpulint.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.spec.Format;
import dev.gpulint.spec.SequenceParallelDefault;
import dev.gpulint.testing.PlanCli;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One home for sequence parallelism's default (Format#sequenceParallelDefault): a file that does not write it at tp > 1
 * is priced by the plan with the same value PAR011 judges (our own MoE fixtures in the shapes of a NeMo 1 Hydra config, a
 * NeMo-Run serialised NeMo 2 recipe, a Megatron-LM test case and a nanotron config: ep 4 × tp 2 on 8 H100s).
 */
class SequenceParallelDefaultTest {

    private static final String NEMO1 = """
            trainer:
              devices: 8
              num_nodes: 1
            model:
              micro_batch_size: 1
              global_batch_size: 32
              tensor_model_parallel_size: 2
              pipeline_model_parallel_size: 1
              expert_model_parallel_size: 4
              encoder_seq_length: 4096
              num_layers: 16
              hidden_size: 2048
              ffn_hidden_size: 5632
              num_attention_heads: 16
              num_moe_experts: 8
              moe_router_topk: 2
            %s""";

    private static final String NEMO2 = """
            _partial_: true
            _target_: nemo.collections.llm.api.pretrain
            data:
              _target_: nemo.collections.llm.gpt.data.mock.MockDataModule
              global_batch_size: 32
              micro_batch_size: 1
              seq_length: 4096
            model:
              _target_: nemo.collections.llm.gpt.model.mixtral.MixtralModel
              config:
                _target_: nemo.collections.llm.gpt.model.mixtral.MixtralConfig8x7B
                num_layers: 16
            trainer:
              _target_: nemo.lightning.pytorch.trainer.Trainer
              devices: 8
              num_nodes: 1
              strategy:
                _target_: nemo.lightning.pytorch.strategies.megatron_strategy.MegatronStrategy
                tensor_model_parallel_size: 2
                pipeline_model_parallel_size: 1
                expert_model_parallel_size: 4
            %s""";

    private record Plan(boolean sp, long activations, List<String> assumptions, boolean par011) {}

    @SuppressWarnings("unchecked")
    private static Plan plan(Path dir, String name, String text) {
        PlanCli.Run r = PlanCli.in(dir).file("cluster.yaml", PlanCli.LAB_H100).file(name, text).jobClusters("lab", name)
                .planJson("--top", "1");
        Map<String, Object> current = PlanCli.map(r.json().get("current"));
        Map<String, Object> layout = PlanCli.map(current.get("layout"));
        Map<String, Object> stage = PlanCli.map(((List<Object>) PlanCli.map(current.get("memory")).get("stages")).get(0));
        List<String> as = ((List<Object>) r.json().get("assumptions")).stream().map(String::valueOf).toList();
        boolean par011 = String.valueOf(current.get("findings")).contains("PAR011");
        return new Plan((Boolean) layout.get("sequence_parallel"), ((Number) stage.get("activations_bytes")).longValue(), as, par011);
    }

    @Test
    void aNemo1FileThatDoesNotWriteItIsPricedOffAndPar011SaysSo(@TempDir Path dir) {
        Plan unstated = plan(dir.resolve("a"), "moe.yaml", NEMO1.formatted(""));
        Plan off = plan(dir.resolve("b"), "moe.yaml", NEMO1.formatted("  sequence_parallel: False\n"));
        Plan on = plan(dir.resolve("c"), "moe.yaml", NEMO1.formatted("  sequence_parallel: True\n"));
        assertFalse(unstated.sp(), "NeMo 1's cfg.get('sequence_parallel', False)");
        assertTrue(unstated.par011(), "PAR011 judges the same default the plan prices");
        assertTrue(unstated.assumptions().contains("model.sequence_parallel not given: off (NeMo's cfg.get('sequence_parallel', False);"
                + " megatron_gpt_config.yaml writes False); the tp group holds the layer norms' and dropouts' activations whole"),
                String.valueOf(unstated.assumptions()));
        // not written and written False are one job: the same activations, and PAR011 fires on both
        assertEquals(off.activations(), unstated.activations());
        assertTrue(off.par011());
        assertTrue(on.sp());
        assertFalse(on.par011());
        assertTrue(on.activations() < off.activations(), on.activations() + " vs " + off.activations());
    }

    @Test
    void aNemo2RecipeThatDoesNotWriteItIsPricedOffAndPar011SaysSo(@TempDir Path dir) {
        Plan unstated = plan(dir.resolve("a"), "moe.yaml", NEMO2.formatted(""));
        Plan on = plan(dir.resolve("b"), "moe.yaml", NEMO2.formatted("    sequence_parallel: true\n"));
        assertFalse(unstated.sp(), "MegatronStrategy's sequence_parallel=False");
        assertTrue(unstated.par011());
        assertTrue(unstated.assumptions().stream().anyMatch(a -> a.startsWith("trainer.strategy.sequence_parallel not given: off (NeMo 2's"
                + " MegatronStrategy argument sequence_parallel = False")), String.valueOf(unstated.assumptions()));
        assertTrue(on.sp());
        assertFalse(on.par011());
        assertTrue(on.activations() < unstated.activations());
    }

    @Test
    void aMegatronLmTestCaseThatDoesNotWriteItIsPricedOffAndPar011SaysSo(@TempDir Path dir) {
        String args = """
                MODEL_ARGS:
                  --num-layers: 16
                  --hidden-size: 2048
                  --ffn-hidden-size: 5632
                  --num-attention-heads: 16
                  --seq-length: 4096
                  --micro-batch-size: 1
                  --global-batch-size: 32
                  --num-experts: 8
                  --tensor-model-parallel-size: 2
                  --expert-model-parallel-size: 4
                  --bf16: true
                %s""";
        Plan unstated = plan(dir.resolve("a"), "tests/moe_tp2_ep4/model_config.yaml", args.formatted(""));
        Plan on = plan(dir.resolve("b"), "tests/moe_tp2_ep4/model_config.yaml", args.formatted("  --sequence-parallel: true\n"));
        assertFalse(unstated.sp());
        assertTrue(unstated.par011());
        assertTrue(on.sp());
        assertFalse(on.par011());
    }

    @Test
    void everyFormatsDefaultIsReadFromOneHome() {
        // off where the framework declares it off (or has no such setting), on where its TP plan always shards the sequence
        for (Format f : List.of(Format.MEGATRON, Format.NEMO, Format.NEMO2_RECIPE, Format.GPT_NEOX, Format.ACCELERATE, Format.NANOTRON,
                Format.FAST_LLM, Format.DEEPSPEED)) {
            assertTrue(f.sequenceParallelDefault().knownOff(), f.name());
        }
        for (Format f : List.of(Format.NATIVE, Format.TORCHTITAN, Format.TORCHTUNE)) {
            SequenceParallelDefault d = f.sequenceParallelDefault();
            assertTrue(d.on() && d.known(), f.name());
        }
        // an override file's recipe, NeMo-RL's defaults: base and the launchers decide what gpulint cannot read: not judged
        for (Format f : List.of(Format.MEGATRON_BRIDGE, Format.NEMO_RL, Format.KUBERNETES, Format.SKYPILOT, Format.LAUNCH_SCRIPT)) {
            SequenceParallelDefault d = f.sequenceParallelDefault();
            assertFalse(d.known(), f.name());
            assertTrue(d.on(), f.name());
            assertFalse(d.knownOff(), f.name());
        }
        assertEquals("--sequence-parallel not given: off (Megatron-LM's store_true switch, megatron/training/arguments.py;"
                + " Megatron-Core's ModelParallelConfig sequence_parallel = False); the tp group holds the layer norms' and dropouts'"
                + " activations whole", Format.MEGATRON.sequenceParallelDefault().assumption());
        assertEquals("model.sequence_parallel not given: on (not known: the recipe an override file is merged on sets it;"
                + " gpulint's default, on with tp > 1)", Format.MEGATRON_BRIDGE.sequenceParallelDefault().assumption());
    }
}
