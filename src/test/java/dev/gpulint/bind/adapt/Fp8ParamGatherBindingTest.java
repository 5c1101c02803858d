package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.gpulint.spec.Specs;
import dev.gpulint.testing.Foreign;
import dev.gpulint.testing.Recipes;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * fp8 parameter all-gathers as each format states them (derive/estimate/ParamGather prices them): Megatron's
 * {@code --fp8-param-gather}, Megatron-Bridge's {@code mixed_precision} (a recipe name turns it on in every fp8 and MXFP8
 * recipe but the subchannel ones; MixedPrecisionConfig's {@code fp8_param_gather} as written), NeMo 2's plugin
 * {@code fp8_param_gather} / {@code fp8_params} and NeMo 1's {@code model.fp8_params}. Our own fixtures, in the shapes of
 * Megatron-LM's examples, Megatron-Bridge's override files, NeMo's recipe dumps and the NeMo Framework Launcher's
 * configurations (Recipes).
 */
class Fp8ParamGatherBindingTest {

    private static Specs.Job job(String name, String text) {
        List<Specs.Job> all = Foreign.jobs(name, text);
        assertEquals(1, all.size(), name + " binds one job");
        return all.get(0);
    }

    private static final String SCRIPT = Recipes.MEGATRON_FP8.formatted("--fp8-param-gather");

    @Test
    void megatronsFlagIsReadAtItsWord() {
        Specs.Job j = job("train.sh", SCRIPT);
        assertEquals(true, j.fp8ParamGather().value());
        assertEquals(5, j.fp8ParamGather().span().startLine());
        assertEquals("--fp8-param-gather", j.origin().key(Specs.Origin.FP8_PARAM_GATHER));
        assertNull(job("train.sh", SCRIPT.replace(" --fp8-param-gather", "")).fp8ParamGather());
    }

    private static final String BRIDGE = Recipes.BRIDGE_OVERRIDE;

    @Test
    void bridgesFp8RecipesTurnItOnButTheSubchannelOnes() {
        Specs.Job cs = job("override.yaml", BRIDGE.formatted("bf16_with_fp8_current_scaling_mixed"));
        assertEquals(true, cs.fp8ParamGather().value());
        assertEquals(7, cs.fp8ParamGather().span().startLine());
        assertEquals("mixed_precision: bf16_with_fp8_current_scaling_mixed", cs.origin().key(Specs.Origin.FP8_PARAM_GATHER));
        assertEquals(true, job("override.yaml", BRIDGE.formatted("bf16_with_mxfp8_mixed")).fp8ParamGather().value());
        assertEquals(true, job("override.yaml", BRIDGE.formatted("bf16-with-fp8-delayed-scaling-mixed")).fp8ParamGather().value());
        assertNull(job("override.yaml", BRIDGE.formatted("bf16_with_fp8_subchannel_scaling_mixed")).fp8ParamGather());
        assertNull(job("override.yaml", BRIDGE.formatted("bf16_mixed")).fp8ParamGather());
        assertNull(job("override.yaml", BRIDGE.formatted("bf16_with_nvfp4_mixed")).fp8ParamGather());
    }

    @Test
    void bridgesMixedPrecisionConfigSaysItAsWritten() {
        String config = BRIDGE.formatted("\n  _target_: megatron.bridge.training.mixed_precision.MixedPrecisionConfig\n  bf16: true"
                + "\n  fp8: hybrid\n  fp8_recipe: tensorwise\n  fp8_param_gather: %s");
        Specs.Job off = job("run_config.yaml", config.formatted("false"));
        assertEquals(false, off.fp8ParamGather().value());
        assertEquals("mixed_precision.fp8_param_gather", off.origin().key(Specs.Origin.FP8_PARAM_GATHER));
        assertEquals(true, job("run_config.yaml", config.formatted("true")).fp8ParamGather().value());
        Specs.Job param = job("run_config.yaml", config.formatted("false").replace("fp8_param_gather: false", "fp8_param: true"));
        assertEquals(true, param.fp8ParamGather().value(), "fp8_param, which Megatron-Bridge keeps equal to fp8_param_gather");
    }

    @Test
    void nemo1sFp8ParamsIsRead() {
        Specs.Job j = job("mixtral.yaml", Recipes.nemo1Moe("fp8: true", "fp8_params: true"));
        assertEquals("fp8", j.model().dtype().value());
        assertEquals(true, j.fp8ParamGather().value());
        assertEquals(21, j.fp8ParamGather().span().startLine(), "the second model key after the recipe's");
        assertEquals("model.fp8_params", j.origin().key(Specs.Origin.FP8_PARAM_GATHER));
        assertNull(job("mixtral.yaml", Recipes.nemo1Moe("fp8: true")).fp8ParamGather());
    }
}
