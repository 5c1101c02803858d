package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.gpulint.spec.Specs;
import dev.gpulint.testing.EstimateManifest;
import dev.gpulint.testing.Foreign;
import dev.gpulint.testing.Recipes;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The layers an fp8 recipe keeps in bf16, as each format states them (derive/estimate/LayerPrecision prices them):
 * Megatron's {@code --first-last-layers-bf16} with {@code --num-layers-at-start/end-in-bf16} (defaults 1 and 1),
 * Megatron-Bridge's MixedPrecisionConfig (counts default 0) or recipe name ({@code bf16_with_fp8_current_scaling_mixed}: the
 * first and the last layer), NeMo 2's precision plugin, and the native {@code fp8_layers_bf16}. Our own fixtures, in the
 * shapes of Megatron-LM's examples, Megatron-Bridge's override files and config dumps and NeMo 2's recipe dumps.
 */
class Bf16LayersBindingTest {

    private static Specs.Job job(String name, String text) {
        dev.gpulint.spec.Model model = Foreign.model(name, text);
        assertEquals(List.of(), model.findings(), name);
        assertEquals(1, model.jobs().size(), name + " binds one job");
        return model.jobs().get(0);
    }

    private static List<Long> counts(Specs.Job j) {
        return List.of(j.fp8LayersBf16().start().value(), j.fp8LayersBf16().end().value());
    }

    private static final String SCRIPT = Recipes.MEGATRON_FP8.formatted("--first-last-layers-bf16");

    @Test
    void megatronsSwitchKeepsOneLayerAtEachEndUnlessCounted() {
        Specs.Job j = job("train.sh", SCRIPT);
        assertEquals(List.of(1L, 1L), counts(j), "Megatron's defaults: --num-layers-at-start-in-bf16 1, --num-layers-at-end-in-bf16 1");
        assertEquals(5, j.fp8LayersBf16().span().startLine());
        assertEquals("--first-last-layers-bf16", j.origin().key(Specs.Origin.FP8_LAYERS_BF16));
        Specs.Job counted = job("train.sh", SCRIPT.replace("--first-last-layers-bf16",
                "--first-last-layers-bf16 --num-layers-at-start-in-bf16 2 --num-layers-at-end-in-bf16 3"));
        assertEquals(List.of(2L, 3L), counts(counted));
        // the counts without the switch keep every layer in fp8, as Megatron does
        assertNull(job("train.sh", SCRIPT.replace("--first-last-layers-bf16", "--num-layers-at-end-in-bf16 3")).fp8LayersBf16());
        assertNull(job("train.sh", SCRIPT.replace(" --first-last-layers-bf16", "")).fp8LayersBf16());
    }

    private static final String BRIDGE = Recipes.BRIDGE_OVERRIDE;

    @Test
    void bridgesCurrentScalingRecipeKeepsTheFirstAndLastLayer() {
        Specs.Job cs = job("override.yaml", BRIDGE.formatted("bf16_with_fp8_current_scaling_mixed"));
        assertEquals(List.of(1L, 1L), counts(cs));
        assertEquals(7, cs.fp8LayersBf16().span().startLine());
        assertEquals("mixed_precision: bf16_with_fp8_current_scaling_mixed", cs.origin().key(Specs.Origin.FP8_LAYERS_BF16));
        assertEquals(List.of(2L, 2L), counts(job("override.yaml", BRIDGE.formatted("nemotron_h_bf16_with_fp8_current_scaling_mixed"))));
        // the other recipes keep every layer in their own precision
        assertNull(job("override.yaml", BRIDGE.formatted("bf16_with_mxfp8_mixed")).fp8LayersBf16());
        assertNull(job("override.yaml", BRIDGE.formatted("bf16_with_fp8_delayed_scaling_mixed")).fp8LayersBf16());
        assertNull(job("override.yaml", BRIDGE.formatted("bf16_with_nvfp4_mixed")).fp8LayersBf16());
    }

    @Test
    void bridgesMixedPrecisionConfigSaysItAsWrittenWithCountsDefaultingToNone() {
        // the performance scripts' FP8-CS preset: the current-scaling recipe with first_last_layers_bf16 turned off
        String config = BRIDGE.formatted("\n  _target_: megatron.bridge.training.mixed_precision.MixedPrecisionConfig\n  bf16: true"
                + "\n  fp8: hybrid\n  fp8_recipe: tensorwise\n  first_last_layers_bf16: %s\n  num_layers_at_start_in_bf16: 1"
                + "\n  num_layers_at_end_in_bf16: 1");
        Specs.Job off = job("run_config.yaml", config.formatted("false"));
        assertEquals(List.of(0L, 0L), counts(off), "written off: no layer in bf16");
        assertEquals("mixed_precision.first_last_layers_bf16", off.origin().key(Specs.Origin.FP8_LAYERS_BF16));
        assertEquals(List.of(1L, 1L), counts(job("run_config.yaml", config.formatted("true"))));
        // MixedPrecisionConfig's counts default to 0 (it copies them onto the model's config)
        Specs.Job bare = job("run_config.yaml", config.formatted("true").replace("\n  num_layers_at_start_in_bf16: 1", ""));
        assertEquals(List.of(0L, 1L), counts(bare));
        // the mapping wins over the model's TransformerConfig
        Specs.Job model = job("run_config.yaml", config.formatted("false").replace("  seq_length: 8192\n",
                "  seq_length: 8192\n  first_last_layers_bf16: true\n"));
        assertEquals(List.of(0L, 0L), counts(model));
    }

    private static final String MODEL_SWITCH = "  seq_length: 8192\n  first_last_layers_bf16: true\n";

    @Test
    void aModelsSwitchIsOverwrittenByAnyMixedPrecisionConfig() {
        // Nemotron-H's providers set first_last_layers_bf16 True on the model; MixedPrecisionConfig.setup copies its own
        // (False unless the recipe keeps layers: update_config_with_precision_overrides) over it, so the performance presets'
        // MXFP8 and FP8-CS Nemotron 3 Nano runs keep no layer in bf16
        String withSwitch = BRIDGE.replace("  seq_length: 8192\n", MODEL_SWITCH);
        assertNull(job("override.yaml", withSwitch.formatted("bf16_with_mxfp8_mixed")).fp8LayersBf16());
        assertNull(job("override.yaml", withSwitch.formatted("bf16_with_fp8_delayed_scaling_mixed")).fp8LayersBf16());
        // a recipe that keeps layers says its own counts, not the model's
        Specs.Job cs = job("override.yaml", withSwitch.formatted("nemotron_h_bf16_with_fp8_current_scaling_mixed"));
        assertEquals(List.of(2L, 2L), counts(cs));
        assertEquals("mixed_precision: nemotron_h_bf16_with_fp8_current_scaling_mixed", cs.origin().key(Specs.Origin.FP8_LAYERS_BF16));
        // a MixedPrecisionConfig mapping that does not write the switch copies its default False too
        assertNull(job("run_config.yaml", withSwitch.formatted("\n  _target_: megatron.bridge.training.mixed_precision"
                + ".MixedPrecisionConfig\n  bf16: true\n  fp8: e4m3\n  fp8_recipe: mxfp8")).fp8LayersBf16());
        // mixed_precision None leaves the model's config as it is: its switch, with Megatron-Core's counts 1 and 1
        Specs.Job none = job("override.yaml", withSwitch.formatted("null"));
        assertEquals(List.of(1L, 1L), counts(none));
        assertEquals("model.first_last_layers_bf16", none.origin().key(Specs.Origin.FP8_LAYERS_BF16));
        assertEquals(4, none.fp8LayersBf16().span().startLine());
    }

    @Test
    void aCountThatIsNoWholeNumberFromZeroIsSyn002AtIt() {
        // review7: "abc" (argparse: invalid int value) and -1 (TransformerConfig: must be between 0 and the layers per stage)
        // used to be passed over, the default or 0 priced instead, with nothing said
        String expected = "expected a whole number of layers from 0 to the layers per pipeline stage (Megatron-Core's"
                + " TransformerConfig: 'must be between 0 and number of layers per pipeline stage'); the value is left out, so the"
                + " count is read as not written (the format's default).";
        dev.gpulint.spec.Model m = Foreign.model("train.sh", SCRIPT.replace("--first-last-layers-bf16",
                "--first-last-layers-bf16 --num-layers-at-start-in-bf16 abc --num-layers-at-end-in-bf16 2"));
        assertEquals(List.of("5:109 '--num-layers-at-start-in-bf16' is 'abc'; " + expected), Foreign.syn002(m));
        assertEquals(List.of(1L, 2L), counts(m.jobs().get(0)), "Megatron's default 1 for the refused count");
        String config = BRIDGE.formatted("\n  _target_: megatron.bridge.training.mixed_precision.MixedPrecisionConfig\n  fp8: hybrid"
                + "\n  first_last_layers_bf16: true\n  num_layers_at_start_in_bf16: -1\n  num_layers_at_end_in_bf16: 2");
        dev.gpulint.spec.Model b = Foreign.model("run_config.yaml", config);
        assertEquals(List.of("11:32 'mixed_precision.num_layers_at_start_in_bf16' is '-1'; " + expected), Foreign.syn002(b));
        assertEquals(List.of(0L, 2L), counts(b.jobs().get(0)), "MixedPrecisionConfig's default 0 for the refused count");
    }

    @Test
    void nemo2sPluginStatesItElseTheModelConfig() {
        String nemo2 = Recipes.nemo2(128, 1, 8192)
                .model("llama.LlamaModel", "llama.Llama3Config8B", "num_layers: 32", "hidden_size: 4096", "num_attention_heads: 32")
                .trainer(8, 1)
                .plugins("precision: bf16-mixed", "fp8: hybrid", "fp8_recipe: tensorwise", "first_last_layers_bf16: true",
                        "num_layers_at_start_in_bf16: 1", "num_layers_at_end_in_bf16: 2")
                .strategy("tensor_model_parallel_size: 1", "pipeline_model_parallel_size: 1")
                .yaml();
        Specs.Job j = job("llama3_8b.yaml", nemo2);
        assertEquals(List.of(1L, 2L), counts(j));
        assertEquals(24, j.fp8LayersBf16().span().startLine());
        assertEquals("trainer.plugins.first_last_layers_bf16", j.origin().key(Specs.Origin.FP8_LAYERS_BF16));
        // the model config's switch under a plugin that does not write one: MegatronStrategy copies the plugin's DtypeConfig
        // (first_last_layers_bf16 False, counts 0) over the model's config (update_config_with_dtype_overrides), so no layer
        String config = nemo2.replace("    first_last_layers_bf16: true\n    num_layers_at_start_in_bf16: 1\n    num_layers_at_end_in_bf16: 2\n", "")
                .replace("    num_attention_heads: 32\n", "    num_attention_heads: 32\n    first_last_layers_bf16: true\n");
        assertNull(job("llama3_8b.yaml", config).fp8LayersBf16());
        // without the plugin the model config's TransformerConfig keys stand (counts default 1)
        String bare = config.replaceAll("  plugins:\n(    .*\n)+", "").replace("    num_attention_heads: 32\n",
                "    num_attention_heads: 32\n    fp8: hybrid\n    fp8_recipe: tensorwise\n");
        Specs.Job fromConfig = job("llama3_8b.yaml", bare);
        assertEquals(List.of(1L, 1L), counts(fromConfig));
        assertEquals("model.config.first_last_layers_bf16", fromConfig.origin().key(Specs.Origin.FP8_LAYERS_BF16));
        assertNull(job("llama3_8b.yaml", bare.replace("    first_last_layers_bf16: true\n", "")).fp8LayersBf16());
    }

    @Test
    void theNativeKeyIsReadAsWritten() {
        String manifest = EstimateManifest.h100().model("dtype: fp8, layers: 32, hidden_size: 4096, attention_heads: 32")
                .line("fp8_layers_bf16: { start: 1, end: 2 }").yaml();
        dev.gpulint.derive.Fixture f = dev.gpulint.derive.Fixture.of(manifest);
        Specs.Job j = f.jobs().get(0).spec();
        assertEquals(List.of(1L, 2L), counts(j));
        int line = (int) manifest.lines().takeWhile(l -> !l.startsWith("fp8_layers_bf16")).count() + 1;
        assertEquals(line, j.fp8LayersBf16().span().startLine());
        Specs.Job end = dev.gpulint.derive.Fixture.of(manifest.replace("{ start: 1, end: 2 }", "{ end: 4 }")).jobs().get(0).spec();
        assertNull(end.fp8LayersBf16().start());
        assertEquals(4L, end.fp8LayersBf16().end().value());
    }
}
