package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.spec.Model;
import dev.gpulint.spec.RecomputeModule;
import dev.gpulint.spec.Specs;
import dev.gpulint.testing.Foreign;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Selective recompute by module as each Megatron format writes it (derive/estimate/RecomputeModules prices it): Megatron's
 * {@code --recompute-modules} words on a launch command and in MODEL_ARGS, TransformerConfig's {@code recompute_modules}
 * list in Megatron-Bridge's and NeMo 2's recipes. Our own fixtures, in the shapes of Megatron-LM's launch examples,
 * Megatron-Bridge's override files and NeMo-Run's recipe dumps.
 */
class RecomputeModulesBindingTest {

    private static final String SCRIPT = """
            #!/bin/bash
            torchrun --nnodes 8 --nproc_per_node 8 pretrain_gpt.py \\
              --num-layers 36 --hidden-size 2880 --num-attention-heads 64 --seq-length 4096 \\
              --tensor-model-parallel-size 1 --expert-model-parallel-size 8 --num-experts 128 --moe-grouped-gemm \\
              --micro-batch-size 1 --global-batch-size 256 --bf16 \\
              --recompute-granularity selective --recompute-modules layernorm moe_act \\
              --use-distributed-optimizer
            """;

    /** The job's recompute is selective of exactly {@code modules} (none: an empty list named). */
    private static void assertSelective(Specs.Job j, RecomputeModule... modules) {
        assertEquals("selective", j.recompute().granularity().value());
        assertEquals(Set.of(modules), j.recompute().modules());
    }

    /** The job's recompute is selective and names no module (Megatron's default). */
    private static void assertSelectiveWithoutModules(Specs.Job j) {
        assertEquals("selective", j.recompute().granularity().value());
        assertNull(j.recompute().modules());
    }

    @Test
    void megatronsWordsFollowTheFlag() {
        Specs.Job j = Foreign.bind("train.sh", SCRIPT);
        assertSelective(j, RecomputeModule.LAYERNORM, RecomputeModule.MOE_ACT);
        assertEquals(6, j.recompute().granularity().span().startLine(), "at the granularity's word");
        Specs.Job one = Foreign.bind("train.sh", SCRIPT.replace("--recompute-modules layernorm moe_act", "--recompute-modules=moe_act"));
        assertSelective(one, RecomputeModule.MOE_ACT);
        // nargs='*' with no word: an empty list, so nothing is recomputed (not even core_attn)
        Specs.Job none = Foreign.bind("train.sh", SCRIPT.replace("--recompute-modules layernorm moe_act", "--recompute-modules"));
        assertSelective(none);
    }

    @Test
    void anUnknownOrCommaJoinedModuleIsSyn002AtItsWord() {
        Model m = Foreign.model("train.sh", SCRIPT.replace("layernorm moe_act", "layernorm moe_ac"));
        String expected = "Megatron-Core's module names, one word each: core_attn, moe_act, layernorm, mla_up_proj, mlp, moe,"
                + " shared_experts (TransformerConfig refuses any other: 'Invalid choices for recompute_modules')";
        assertEquals(List.of("6:67 '--recompute-modules' is 'moe_ac'; expected " + expected + "; the value is left out, so the plan"
                + " prices the other modules (Megatron would not start)."), Foreign.syn002(m));
        assertSelective(m.jobs().get(0), RecomputeModule.LAYERNORM);
        // Megatron's parser takes one module per word: "mlp,moe_act" is a name Megatron-Core refuses
        Model joined = Foreign.model("train.sh", SCRIPT.replace("layernorm moe_act", "mlp,moe_act"));
        assertEquals(1, Foreign.syn002(joined).size());
        assertTrue(Foreign.syn002(joined).get(0).startsWith("6:57 '--recompute-modules' is 'mlp,moe_act'"), Foreign.syn002(joined).get(0));
    }

    @Test
    void withoutAGranularityMegatronRecomputesNoModule() {
        Specs.Job j = Foreign.bind("train.sh", SCRIPT.replace("--recompute-granularity selective ", ""));
        assertEquals(null, j.recompute());
        assertTrue(j.origin().unpriced().contains("--recompute-modules [layernorm, moe_act] without a recompute granularity:"
                + " Megatron-Core applies the modules only to selective recompute (recompute_granularity selective), so none is"
                + " recomputed"), String.join("\n", j.origin().unpriced()));
        // full granularity recomputes whole layers: the modules change nothing
        Specs.Job full = Foreign.bind("train.sh", SCRIPT.replace("--recompute-granularity selective",
                "--recompute-granularity full --recompute-method uniform --recompute-num-layers 1"));
        assertEquals("full", full.recompute().granularity().value());
        assertNull(full.recompute().modules());
    }

    private static final String MODEL_ARGS = """
            MODEL_ARGS:
              --num-layers: 61
              --hidden-size: 7168
              --num-attention-heads: 128
              --multi-latent-attention: true
              --recompute-granularity: selective
              --recompute-modules: mla_up_proj moe_ac
              --micro-batch-size: 1
              --global-batch-size: 8192
            """;

    @Test
    void modelArgsWordsOrList() {
        Model m = Foreign.model("model_config.yaml", MODEL_ARGS);
        assertSelective(m.jobs().get(0), RecomputeModule.MLA_UP_PROJ);
        assertEquals(1, Foreign.syn002(m).size());
        assertTrue(Foreign.syn002(m).get(0).startsWith("7:36 '--recompute-modules' is 'moe_ac'"), Foreign.syn002(m).get(0));
        Specs.Job list = Foreign.bind("model_config.yaml", MODEL_ARGS.replace("mla_up_proj moe_ac", "[mla_up_proj, layernorm]"));
        assertSelective(list, RecomputeModule.MLA_UP_PROJ, RecomputeModule.LAYERNORM);
    }

    @Test
    void modelArgsWordsInBracketsAreTheHarnesssWords() {
        // review7: Megatron-LM's functional tests write "[layernorm mla_up_proj mlp moe_act]" (their harness,
        // shell_test_utils/_run_training.sh, strips the brackets and passes the words): no SYN002 at "[layernorm"
        Model m = Foreign.model("model_config.yaml", MODEL_ARGS.replace("mla_up_proj moe_ac", "\"[mla_up_proj moe_act]\""));
        assertEquals(List.of(), Foreign.syn002(m));
        assertSelective(m.jobs().get(0), RecomputeModule.MLA_UP_PROJ, RecomputeModule.MOE_ACT);
        Model bad = Foreign.model("model_config.yaml", MODEL_ARGS.replace("mla_up_proj moe_ac", "\"[mla_up_proj moe_ac]\""));
        assertEquals(1, Foreign.syn002(bad).size());
        // a quoted scalar's words are reported at the scalar (its quotes make the offsets inexact)
        assertTrue(Foreign.syn002(bad).get(0).startsWith("7:24 '--recompute-modules' is 'moe_ac'"), Foreign.syn002(bad).get(0));
        assertSelective(bad.jobs().get(0), RecomputeModule.MLA_UP_PROJ);
    }

    private static final String BRIDGE = """
            model:
              tensor_model_parallel_size: 1
              expert_model_parallel_size: 8
              num_moe_experts: 128
              seq_length: 4096
              recompute_granularity: selective
              recompute_modules:
              - layernorm
              - moe_act
            train:
              global_batch_size: 256
              micro_batch_size: 1
            mixed_precision: bf16_mixed
            """;

    @Test
    void bridgesModelProviderList() {
        Specs.Job j = Foreign.bind("override.yaml", BRIDGE);
        assertSelective(j, RecomputeModule.LAYERNORM, RecomputeModule.MOE_ACT);
        Model bad = Foreign.model("override.yaml", BRIDGE.replace("- moe_act", "- moe_activation"));
        assertEquals(1, Foreign.syn002(bad).size());
        assertTrue(Foreign.syn002(bad).get(0).startsWith("9:5 'model.recompute_modules' is 'moe_activation'"), Foreign.syn002(bad).get(0));
        // a dump's null (Megatron's default) changes nothing
        assertSelectiveWithoutModules(Foreign.bind("override.yaml", BRIDGE.replace("recompute_modules:\n  - layernorm\n  - moe_act",
                "recompute_modules: null")));
    }

    @Test
    void aStringWhereTheConfigTakesAListIsSyn002AtIt() {
        // review7: a string used to be passed over in silence; TransformerConfig checks set(recompute_modules), the string's
        // letters, and refuses them, so Megatron would not start
        Model m = Foreign.model("override.yaml", BRIDGE.replace("recompute_modules:\n  - layernorm\n  - moe_act",
                "recompute_modules: moe_act"));
        assertEquals(List.of("7:22 'model.recompute_modules' is 'moe_act'; expected a YAML list of Megatron-Core's module names,"
                + " one item each, such as [layernorm, moe_act] (names: core_attn, moe_act, layernorm, mla_up_proj, mlp, moe,"
                + " shared_experts; TransformerConfig checks a string's letters as names and refuses them: 'Invalid choices for"
                + " recompute_modules'); the value is left out, so selective recompute keeps Megatron-Core's default [core_attn]"
                + " (Megatron would not start)."), Foreign.syn002(m));
        assertSelectiveWithoutModules(m.jobs().get(0));
        // NeMo 2's dump likewise
        Model nemo = Foreign.model("deepseek.yaml", Nemo2InputsTest.PRETRAIN.replace("recompute_granularity: selective",
                "recompute_granularity: selective\n    recompute_modules: layernorm"));
        assertEquals(1, Foreign.syn002(nemo).size());
        assertTrue(Foreign.syn002(nemo).get(0).contains("'model.config.recompute_modules' is 'layernorm'; expected a YAML list"),
                Foreign.syn002(nemo).get(0));
    }

    @Test
    void nemo2sConfigList() {
        Specs.Job j = Foreign.bind("deepseek.yaml", Nemo2InputsTest.PRETRAIN.replace("recompute_granularity: selective",
                "recompute_granularity: selective\n    recompute_modules:\n    - mla_up_proj\n    - layernorm"));
        assertSelective(j, RecomputeModule.MLA_UP_PROJ, RecomputeModule.LAYERNORM);
    }
}
