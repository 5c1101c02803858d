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
                + " nemo/collections/llm/gpt/model/mixtral.py at 02f25a8)"), j.origin().unpriced().toString());
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
    void nemo2sMoeConfigClassesRunTheirOwnDispatcher() {
        // Qwen3MoEConfig (qwen3.py), DeepSeekConfig (deepseek.py), GPTOSSConfig (gpt_oss.py), Llama4Config (llama.py): alltoall,
        // declared by the class or its parent; each said with the class that declares it and the file's version
        String[][] cases = {
                {"qwen3.Qwen3Config30B_A3B", "Qwen3MoEConfig", "qwen3.py at 00558c4"},
                {"deepseek.DeepSeekV3Config", "DeepSeekConfig", "deepseek.py at 04e9360"},
                {"gpt_oss.GPTOSSConfig120B", "GPTOSSConfig", "gpt_oss.py at 15253fa"},
                {"llama.Llama4Experts128Config", "Llama4Config", "llama.py as the code index stores it, commit unverified"}};
        for (String[] c : cases) {
            Specs.Job j = Foreign.bind("moe.yaml", nemo2(c[0], "num_moe_experts: 128"));
            assertEquals("alltoall", j.model().moe().dispatcher().value(), c[0]);
            assertEquals(11, j.model().moe().dispatcher().span().startLine(), "at the config class that declares it");
            String cls = c[0].substring(c[0].indexOf('.') + 1);
            assertTrue(j.origin().unpriced().contains("model.config.moe_token_dispatcher_type not written: alltoall, NeMo 2's " + cls
                    + " default (" + c[1] + ".moe_token_dispatcher_type = \"alltoall\", nemo/collections/llm/gpt/model/" + c[2] + ")"),
                    j.origin().unpriced().toString());
        }
    }

    @Test
    void nemo2sClassesNotVerifiedKeepTheEstimatesDefaultAndSaySo() {
        Specs.Job j = Foreign.bind("moe.yaml", nemo2("ssm.NemotronHConfig8B", "num_moe_experts: 128"));
        assertNull(j.model().moe() == null ? null : j.model().moe().dispatcher(), "not verified: nothing taken for it");
        assertTrue(j.origin().unpriced().contains("model.config.moe_token_dispatcher_type not written: NeMo 2's NemotronHConfig8B default"
                + " is not verified here (nemo/collections/llm/gpt/model/ssm.py as stored declares no MoE field for the NemotronH"
                + " configs, and no NeMo 2 Nemotron 3 MoE config could be read); priced with the estimate's alltoall, as when no"
                + " dispatcher is given; write the dispatcher to price what runs"), j.origin().unpriced().toString());
        // a dense config of an MoE family takes nothing
        Specs.Job dense = Foreign.bind("dense.yaml", nemo2("qwen3.Qwen3MoEConfig", "num_moe_experts: null"));
        assertNull(dense.model().moe() == null ? null : dense.model().moe().dispatcher());
    }

    /** A Megatron-Bridge run dump naming {@code provider} (under megatron.bridge.models.), ep 8, 64 experts, no dispatcher. */
    private static String bridge(String provider) {
        return BRIDGE.formatted("").replace("gpt_provider.GPTModelProvider", provider);
    }

    @Test
    void bridgesProvidersRunTheirOwnDispatcher() {
        String[][] cases = {
                {"qwen.qwen_provider.Qwen3MoEModelProvider30B_A3B", "Qwen3MoEModelProvider", "qwen/qwen_provider.py at fb8a4d6"},
                {"qwen.qwen_provider.Qwen3NextModelProvider80B_A3B", "Qwen3MoEModelProvider", "qwen/qwen_provider.py at fb8a4d6"},
                {"gpt_oss.gpt_oss_provider.GPTOSSProvider120B", "GPTOSSProvider", "gpt_oss/gpt_oss_provider.py at 355cef4"},
                {"mixtral.mixtral_provider.MixtralModelProvider", "MixtralModelProvider", "mixtral/mixtral_provider.py at 556b474"},
                {"llama.llama_provider.Llama4Experts16ModelProvider", "Llama4ModelProvider", "llama/llama_provider.py at 2afd2d3"},
                {"nemotronh.nemotron_h_provider.Nemotron3NanoProvider", "NemotronHModelProvider", "nemotronh/nemotron_h_provider.py at d9f7643"}};
        for (String[] c : cases) {
            Specs.Job j = Foreign.bind("run_config.yaml", bridge(c[0]));
            assertEquals("alltoall", j.model().moe().dispatcher().value(), c[0]);
            String cls = c[0].substring(c[0].lastIndexOf('.') + 1);
            assertTrue(j.origin().unpriced().contains("model.moe_token_dispatcher_type not written: alltoall, Megatron-Bridge's " + cls
                    + " default (" + c[1] + ".moe_token_dispatcher_type = \"alltoall\", " + c[2] + ")"), j.origin().unpriced().toString());
        }
        // MLAModelProvider declares none: Megatron-Core's allgather, as GPTModelProvider
        assertEquals("allgather", Foreign.bind("run_config.yaml", bridge("mla_provider.MLAModelProvider")).model().moe().dispatcher().value());
        // DeepSeek V3's provider changed parents between Bridge versions: not one default, the estimate's own, said so
        Specs.Job ds = Foreign.bind("run_config.yaml", bridge("deepseek.deepseek_provider.DeepSeekV3ModelProvider"));
        assertNull(ds.model().moe() == null ? null : ds.model().moe().dispatcher());
        assertTrue(ds.origin().unpriced().contains("model.moe_token_dispatcher_type not written: Megatron-Bridge's DeepSeekV3ModelProvider"
                + " default is not verified here (its parent changed between Bridge versions: DeepSeekModelProvider at"
                + " deepseek_provider.py 066adea, alltoall; MLAModelProvider at 355cef4, Megatron-Core's allgather); priced with the"
                + " estimate's alltoall, as"
                + " when no dispatcher is given; write the dispatcher to price what runs"), ds.origin().unpriced().toString());
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
