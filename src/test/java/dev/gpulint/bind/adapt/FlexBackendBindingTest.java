package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.spec.Specs;
import dev.gpulint.testing.Foreign;
import dev.gpulint.testing.Recipes;
import org.junit.jupiter.api.Test;

/**
 * The flex dispatcher's backend and the router's group limit as the formats state them: Megatron-LM's
 * {@code --moe-flex-dispatcher-backend}, Megatron-Bridge's and NeMo 2's {@code moe_flex_dispatcher_backend}, and the group
 * limit a DeepSeek provider or config class declares when the file writes none (Bridge's DeepSeekV3ModelProvider and NeMo 2's
 * DeepSeekV3Config: 8 groups, top 4). Our own fixtures, in the shapes of a Megatron-LM launch script (the Bridge performance
 * recipes' flags: --moe-token-dispatcher-type flex --moe-flex-dispatcher-backend hybridep), a Bridge ConfigContainer dump and
 * NeMo-Run's fiddle YAML.
 */
class FlexBackendBindingTest {

    private static final String SCRIPT = """
            #!/bin/bash
            torchrun --nnodes 8 --nproc_per_node 4 pretrain_gpt.py \\
              --num-layers 4 --hidden-size 2048 --num-attention-heads 16 --ffn-hidden-size 768 --swiglu \\
              --num-experts 128 --moe-router-topk 8 --moe-grouped-gemm --moe-token-dispatcher-type flex%s \\
              --seq-length 4096 --tensor-model-parallel-size 1 --expert-model-parallel-size 32 \\
              --micro-batch-size 1 --global-batch-size 256 --bf16
            """;

    @Test
    void megatronLmsBackendFlagIsRead() {
        Specs.Job j = Foreign.bind("train.sh", SCRIPT.formatted(" \\\n  --moe-flex-dispatcher-backend hybridep"));
        assertEquals("hybridep", j.model().moe().flexBackend().value());
        assertEquals(5, j.model().moe().flexBackend().span().startLine());
        assertNull(Foreign.bind("train.sh", SCRIPT.formatted("")).model().moe().flexBackend(), "not written: Megatron-Core's default later");
    }

    private static final String BRIDGE = """
            _target_: megatron.bridge.training.config.ConfigContainer
            model:
              _target_: megatron.bridge.models.deepseek.deepseek_provider.DeepSeekV3ModelProvider
              tensor_model_parallel_size: 1
              expert_model_parallel_size: 32
              num_moe_experts: 256
              moe_token_dispatcher_type: flex
            %s
            train:
              micro_batch_size: 1
              global_batch_size: 256
            """;

    @Test
    void bridgesBackendAndItsDeepSeekV3ProvidersGroupLimit() {
        Specs.Job j = Foreign.bind("run_config.yaml", BRIDGE.formatted("  moe_flex_dispatcher_backend: hybridep"));
        Specs.Moe m = j.model().moe();
        assertEquals("hybridep", m.flexBackend().value());
        assertEquals(8, m.flexBackend().span().startLine());
        // not written: the provider's own 8 groups, top 4 (deepseek_provider.py at 355cef4), placed at its _target_ and said
        assertEquals(8L, m.routerGroups().value());
        assertEquals(4L, m.routerGroupTopk().value());
        assertEquals(3, m.routerGroups().span().startLine());
        assertTrue(j.origin().unpriced().contains("model.moe_router_num_groups / moe_router_group_topk not written: 8 groups, top 4,"
                + " Megatron-Bridge's DeepSeekV3ModelProvider default (DeepSeekV3ModelProvider.moe_router_num_groups = 8,"
                + " moe_router_group_topk = 4, deepseek/deepseek_provider.py at 355cef4): the flex dispatcher's group-limited routing"),
                j.origin().unpriced().toString());
        // written: the file's, one key at a time
        Specs.Job written = Foreign.bind("run_config.yaml", BRIDGE.formatted("  moe_router_num_groups: 16"));
        assertEquals(16L, written.model().moe().routerGroups().value());
        assertEquals(4L, written.model().moe().routerGroupTopk().value());
        assertTrue(written.origin().unpriced().stream().anyMatch(a -> a.startsWith("model.moe_router_group_topk not written: top 4,")),
                written.origin().unpriced().toString());
        // another provider declares no limit: none taken
        Specs.Job gpt = Foreign.bind("run_config.yaml", BRIDGE.formatted("").replace("deepseek.deepseek_provider.DeepSeekV3ModelProvider",
                "gpt_provider.GPTModelProvider"));
        assertNull(gpt.model().moe().routerGroups());
    }

    @Test
    void nemo2sDeepSeekV3ConfigGroupLimitAndBackend() {
        String yaml = Recipes.nemo2(256, 1, 4096).model("deepseek.DeepSeekModel", "deepseek.DeepSeekV3Config",
                        "num_moe_experts: 256", "moe_token_dispatcher_type: flex", "moe_flex_dispatcher_backend: deepep").trainer(8, 4)
                .strategy("tensor_model_parallel_size: 1", "pipeline_model_parallel_size: 1", "expert_model_parallel_size: 32").yaml();
        Specs.Job j = Foreign.bind("ds.yaml", yaml);
        Specs.Moe m = j.model().moe();
        assertEquals("deepep", m.flexBackend().value());
        assertEquals(8L, m.routerGroups().value());
        assertEquals(4L, m.routerGroupTopk().value());
        assertTrue(j.origin().unpriced().contains("model.config.moe_router_num_groups / moe_router_group_topk not written: 8 groups, top 4,"
                + " NeMo 2's DeepSeekV3Config default (DeepSeekV3Config.moe_router_num_groups = 8, moe_router_group_topk = 4,"
                + " nemo/collections/llm/gpt/model/deepseek.py at 3c02a3c): the flex dispatcher's group-limited routing"),
                j.origin().unpriced().toString());
    }

    @Test
    void olderMegatronLmsEnableDeepepIsTheDeepepBackendBesideTheFlexDispatcher() {
        // the shape of older Megatron-LM launches (slime's and Megatron-LM's MoE README: --moe-token-dispatcher-type flex
        // --moe-enable-deepep): Megatron-Core sets moe_flex_dispatcher_backend = "deepep" for it
        Specs.Job j = Foreign.bind("train.sh", SCRIPT.formatted(" \\\n  --moe-enable-deepep"));
        assertEquals("deepep", j.model().moe().flexBackend().value());
        assertEquals(5, j.model().moe().flexBackend().span().startLine());
        assertEquals("--moe-enable-deepep", j.origin().key(Specs.Origin.FLEX_BACKEND));
        assertEquals("flex", j.model().moe().dispatcher().value(), "the switch does not set the dispatcher");
        // beside another dispatcher Megatron-Core refuses the job: the dispatcher as written is priced, and said
        Specs.Job a2a = Foreign.bind("train.sh", SCRIPT.replace("--moe-token-dispatcher-type flex%s", "--moe-token-dispatcher-type alltoall"
                + " --moe-enable-deepep"));
        assertNull(a2a.model().moe().flexBackend());
        assertTrue(a2a.origin().unpriced().contains("--moe-enable-deepep set with the alltoall dispatcher: Megatron-Core refuses it"
                + " (TransformerConfig: \"DeepEP backend is only supported with flex token dispatcher.\"); priced with the alltoall"
                + " dispatcher as written; write the flex dispatcher to run DeepEP"), a2a.origin().unpriced().toString());
        // beside a written hybridep: Megatron-Core refuses the pair; the written backend stands, said
        Specs.Job both = Foreign.bind("train.sh", SCRIPT.formatted(" --moe-enable-deepep --moe-flex-dispatcher-backend hybridep"));
        assertEquals("hybridep", both.model().moe().flexBackend().value());
        assertTrue(both.origin().unpriced().stream().anyMatch(a -> a.startsWith("--moe-enable-deepep set beside the hybridep backend:"
                + " Megatron-Core refuses the pair")), both.origin().unpriced().toString());
        assertTrue(both.origin().unpriced().stream().anyMatch(a -> a.contains("\"Only one backend is supported for flex token"
                + " dispatcher.\"")), both.origin().unpriced().toString());
        // beside ncclep: not refused; Megatron-Core sets deepep over the written backend (transformer_config.py at 002526d8)
        Specs.Job nccl = Foreign.bind("train.sh", SCRIPT.formatted(" --moe-enable-deepep --moe-flex-dispatcher-backend ncclep"));
        assertEquals("deepep", nccl.model().moe().flexBackend().value());
        assertEquals("--moe-enable-deepep", nccl.origin().key(Specs.Origin.FLEX_BACKEND));
        assertTrue(nccl.origin().unpriced().stream().anyMatch(a -> a.startsWith("--moe-enable-deepep set beside the ncclep backend:"
                + " Megatron-Core's TransformerConfig sets the backend to deepep")), nccl.origin().unpriced().toString());
        // off (a YAML test case's false): nothing
        assertNull(Foreign.bind("train.sh", SCRIPT.formatted("")).model().moe().flexBackend());
    }

    @Test
    void bridgesAndNemo2sMoeEnableDeepepAndADispatcherWrittenDeepep() {
        // Megatron-Bridge's apply_deepep and NeMo 2's performance scripts write moe_enable_deepep: true beside flex
        Specs.Job j = Foreign.bind("run_config.yaml", BRIDGE.formatted("  moe_enable_deepep: true"));
        assertEquals("deepep", j.model().moe().flexBackend().value());
        assertEquals(8, j.model().moe().flexBackend().span().startLine());
        assertEquals("model.moe_enable_deepep", j.origin().key(Specs.Origin.FLEX_BACKEND));
        Specs.Job off = Foreign.bind("run_config.yaml", BRIDGE.formatted("  moe_enable_deepep: false"));
        assertNull(off.model().moe().flexBackend());
        // a dispatcher written deepep (a recipe's moe_token_dispatcher_type=deepep means flex on DeepEP): it names the backend
        Specs.Job named = Foreign.bind("run_config.yaml", BRIDGE.formatted("").replace("moe_token_dispatcher_type: flex",
                "moe_token_dispatcher_type: deepep"));
        assertTrue(dev.gpulint.derive.estimate.MoeShape.namesDeepep(named.model().moe()));
        assertEquals("model.moe_token_dispatcher_type", named.origin().key(Specs.Origin.DISPATCHER));
        assertTrue(!dev.gpulint.derive.estimate.MoeShape.namesDeepep(j.model().moe()), "flex names no backend");
    }

    @Test
    void providerDefaultsFollowTheClassLineAsTheSourcesWriteIt() {
        // Bridge's DeepSeekV32ModelProvider extends DeepSeekV3ModelProvider with indexer fields only: V3's 8 groups, top 4
        Specs.Job v32 = Foreign.bind("run_config.yaml", BRIDGE.formatted("").replace("DeepSeekV3ModelProvider", "DeepSeekV32ModelProvider"));
        assertEquals(8L, v32.model().moe().routerGroups().value());
        assertEquals(4L, v32.model().moe().routerGroupTopk().value());
        assertTrue(v32.origin().unpriced().contains("model.moe_router_num_groups / moe_router_group_topk not written: 8 groups, top 4,"
                + " Megatron-Bridge's DeepSeekV32ModelProvider default (DeepSeekV3ModelProvider.moe_router_num_groups = 8,"
                + " moe_router_group_topk = 4, deepseek/deepseek_provider.py at 355cef4): the flex dispatcher's group-limited routing"),
                v32.origin().unpriced().toString());
        // NeMo 2's DeepSeekV2LiteConfig extends DeepSeekV2Config (8 / 3) but declares 1 / 1 itself: one group, no limit
        assertEquals(new Nemo2Moe.Groups(1, 1, "DeepSeekV2LiteConfig", "nemo/collections/llm/gpt/model/deepseek.py at 3c02a3c"),
                Nemo2Moe.declared("DeepSeekV2LiteConfig", Nemo2Moe.NEMO2_GROUPS, Nemo2Moe.NEMO2_PARENTS));
        String yaml = Recipes.nemo2(256, 1, 4096).model("deepseek.DeepSeekModel", "deepseek.DeepSeekV2LiteConfig",
                        "num_moe_experts: 64", "moe_token_dispatcher_type: flex").trainer(8, 4)
                .strategy("tensor_model_parallel_size: 1", "pipeline_model_parallel_size: 1", "expert_model_parallel_size: 32").yaml();
        Specs.Job lite = Foreign.bind("lite.yaml", yaml);
        assertNull(lite.model().moe().routerGroups(), "V2-Lite takes neither its parent's 8 / 3 nor a limit of its own");
        assertTrue(lite.origin().unpriced().stream().noneMatch(a -> a.contains("moe_router_num_groups")), lite.origin().unpriced().toString());
        // a class of no known line declares nothing
        assertNull(Nemo2Moe.declared("DeepSeekConfig", Nemo2Moe.NEMO2_GROUPS, Nemo2Moe.NEMO2_PARENTS));
        // Bridge's Moonlight-based Kimi VL provider extends DeepSeekV3ModelProvider without group fields: V3's 8 / 4; GLM5's
        // stored versions disagree (none pinned; GLM-5's HF configs write 1 / 1): no parent, no limit;
        // Kimi K2 declares 1 / 1 and K2.5 VL extends it: no limit, not DeepSeek-V3's
        assertNull(Nemo2Moe.declared("GLM5ModelProvider", Nemo2Moe.BRIDGE_GROUPS, Nemo2Moe.BRIDGE_PARENTS));
        assertEquals(4L, Nemo2Moe.declared("KimiVLModelProvider", Nemo2Moe.BRIDGE_GROUPS, Nemo2Moe.BRIDGE_PARENTS).topk());
        assertEquals(new Nemo2Moe.Groups(1, 1, "KimiK2Provider", "kimi/kimi_provider.py at 2afd2d3"),
                Nemo2Moe.declared("KimiK25VLModelProvider", Nemo2Moe.BRIDGE_GROUPS, Nemo2Moe.BRIDGE_PARENTS));
        Specs.Job k25 = Foreign.bind("run_config.yaml", BRIDGE.formatted("").replace("DeepSeekV3ModelProvider", "KimiK25VLModelProvider"));
        assertNull(k25.model().moe().routerGroups(), "K2.5 VL takes K2's one group, no limit");
    }
}
