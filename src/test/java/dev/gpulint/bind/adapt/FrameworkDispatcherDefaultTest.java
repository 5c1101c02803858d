package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.spec.Specs;
import dev.gpulint.testing.Foreign;
import dev.gpulint.testing.Recipes;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The token dispatcher a NeMo 2 recipe or a Megatron-Bridge file runs when it writes none: its config class's default
 * (NeMo 2's MixtralConfig: alltoall; NeMo 2's GPTConfig and Bridge's GPTModelProvider declare none, so Megatron-Core's
 * allgather), and no default where the class is not known (a Bridge override file: the recipe's). Our own fixtures, in the
 * shapes of NeMo-Run's fiddle YAML and Megatron-Bridge's ConfigContainer YAML.
 */
class FrameworkDispatcherDefaultTest {

    private static String nemo2(String configClass, String... configLines) {
        return Recipes.nemo2(256, 1, 4096).model("mixtral.MixtralModel", configClass, configLines).trainer(8, 4)
                .strategy("tensor_model_parallel_size: 1", "pipeline_model_parallel_size: 1", "expert_model_parallel_size: 8").yaml();
    }

    @Test
    void nemo2sMixtralConfigRunsItsOwnAlltoall() {
        Specs.Job j = Foreign.bind("mixtral.yaml", nemo2("mixtral.MixtralConfig8x7B", "num_moe_experts: 8"));
        assertEquals("alltoall", j.model().moe().dispatcher().value());
        assertEquals(11, j.model().moe().dispatcher().span().startLine(), "at the config class that declares it");
        assertTrue(j.origin().unpriced().contains("model.config.moe_token_dispatcher_type not written: alltoall, NeMo 2's"
                + " MixtralConfig8x7B default (MixtralConfig.moe_token_dispatcher_type = \"alltoall\","
                + " nemo/collections/llm/gpt/model/mixtral.py)"), j.origin().unpriced().toString());
    }

    @Test
    void nemo2sGptConfigRunsMegatronCoresAllgather() {
        Specs.Job j = Foreign.bind("moe.yaml", nemo2("base.GPTConfig", "num_layers: 16", "hidden_size: 2048", "num_attention_heads: 16",
                "num_moe_experts: 64"));
        assertEquals("allgather", j.model().moe().dispatcher().value());
        assertTrue(j.origin().unpriced().contains("model.config.moe_token_dispatcher_type not written: the allgather dispatcher,"
                + " NeMo 2 GPTConfig's default (Megatron-Core's TransformerConfig.moe_token_dispatcher_type = \"allgather\"): every"
                + " expert-parallel rank all-gathers the group's tokens and reduce-scatters the outputs; write alltoall (or flex) for"
                + " the all-to-all dispatch"), j.origin().unpriced().toString());
        // written: the recipe's
        Specs.Job written = Foreign.bind("moe.yaml", nemo2("base.GPTConfig", "num_moe_experts: 64", "moe_token_dispatcher_type: alltoall"));
        assertEquals("alltoall", written.model().moe().dispatcher().value());
        assertTrue(written.origin().unpriced().stream().noneMatch(a -> a.contains("moe_token_dispatcher_type")));
    }

    @Test
    void nemo2sOtherClassesKeepTheEstimatesDefault() {
        Specs.Job j = Foreign.bind("moe.yaml", nemo2("qwen3.Qwen3MoEConfig30B_A3B", "num_moe_experts: 128"));
        assertNull(j.model().moe().dispatcher(), "a class not known here: nothing taken for it");
    }

    private static final String BRIDGE = """
            _target_: megatron.bridge.training.config.ConfigContainer
            model:
              _target_: megatron.bridge.models.gpt_provider.GPTModelProvider
              tensor_model_parallel_size: 1
              expert_model_parallel_size: 8
              num_layers: 16
              hidden_size: 2048
              num_attention_heads: 16
              num_moe_experts: 64
            %s
            train:
              micro_batch_size: 1
              global_batch_size: 256
            """;

    @Test
    void bridgesGptModelProviderRunsMegatronCoresAllgather() {
        Specs.Job j = Foreign.bind("run_config.yaml", BRIDGE.formatted(""));
        assertEquals("allgather", j.model().moe().dispatcher().value());
        assertTrue(j.origin().unpriced().contains("model.moe_token_dispatcher_type not written: the allgather dispatcher,"
                + " Megatron-Bridge GPTModelProvider's default (Megatron-Core's TransformerConfig.moe_token_dispatcher_type ="
                + " \"allgather\"): every expert-parallel rank all-gathers the group's tokens and reduce-scatters the outputs; write"
                + " alltoall (or flex) for the all-to-all dispatch"), j.origin().unpriced().toString());
        Specs.Job written = Foreign.bind("run_config.yaml", BRIDGE.formatted("  moe_token_dispatcher_type: alltoall"));
        assertEquals("alltoall", written.model().moe().dispatcher().value());
        // an override file names no class: its recipe's dispatcher, not shown, so nothing is taken for it
        Specs.Job override = Foreign.bind("override.yaml", BRIDGE.formatted("").replace("  _target_: megatron.bridge.models.gpt_provider"
                + ".GPTModelProvider\n", "").replace("_target_: megatron.bridge.training.config.ConfigContainer\n", ""));
        assertEquals(List.of(), Foreign.syn002(Foreign.model("override.yaml", BRIDGE.formatted(""))));
        assertNull(override.model().moe() == null ? null : override.model().moe().dispatcher());
    }
}
