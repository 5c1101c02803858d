package dev.gpulint.bind.adapt;

import static dev.gpulint.bind.adapt.TreeValues.scalar;

import dev.gpulint.core.Span;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.ScalarNode;
import java.util.Locale;
import java.util.Map;

/**
 * The layers an fp8 recipe keeps in bf16 at the start and at the end of the model, as each format states them
 * (derive/estimate/LayerPrecision prices them): Megatron's {@code --first-last-layers-bf16} with
 * {@code --num-layers-at-start-in-bf16} / {@code --num-layers-at-end-in-bf16} (argparse defaults 1 and 1, Megatron-Core's
 * TransformerConfig's too), and the same three keys of Megatron-Core's TransformerConfig ({@code model.config} in NeMo 2,
 * {@code model} in Megatron-Bridge), of NeMo 2's MegatronMixedPrecision plugin and of Megatron-Bridge's
 * MixedPrecisionConfig, whose counts default to 0 (megatron/bridge/training/mixed_precision.py: it copies its own fields
 * onto the model's config, so a switch without counts keeps no layer, and a model's switch under it is overwritten:
 * {@link #decides}). A Megatron-Bridge recipe name states them too:
 * {@code bf16_with_fp8_current_scaling_mixed} and {@code fp16_with_fp8_current_scaling_mixed} keep the first and the last
 * layer ("The baseline current scaling recipe uses BF16 in the first and last Transformer layers"),
 * {@code nemotron_h_bf16_with_fp8_current_scaling_mixed} and {@code nanov2_bf16_with_fp8_current_scaling_mixed} two of each,
 * {@code nemotron_3_super_bf16_with_nvfp4_mixed} the last 14. A switch written off keeps none (0 and 0, where it is written).
 */
final class FirstLastBf16 {
    private FirstLastBf16() {}

    /** The switch's key in the formats' dictionaries, and its two counts'. */
    static final String SWITCH = "first_last_layers_bf16", START = "num_layers_at_start_in_bf16", END = "num_layers_at_end_in_bf16";

    /** Megatron-Core's TransformerConfig defaults and Megatron's flags': one layer at each end. */
    static final long MEGATRON_DEFAULT = 1;
    /** Megatron-Bridge's MixedPrecisionConfig and NeMo 2's precision plugin: no layer unless counted. */
    static final long MIXED_PRECISION_DEFAULT = 0;

    /** Megatron-Bridge's recipes that keep layers in bf16: {start, end}. */
    private static final Map<String, long[]> RECIPES = Map.of(
            "bf16_with_fp8_current_scaling_mixed", new long[] {1, 1}, "fp16_with_fp8_current_scaling_mixed", new long[] {1, 1},
            "nemotron_h_bf16_with_fp8_current_scaling_mixed", new long[] {2, 2},
            "nanov2_bf16_with_fp8_current_scaling_mixed", new long[] {2, 2},
            "nemotron_3_super_bf16_with_nvfp4_mixed", new long[] {0, 14});

    /**
     * The setting a switch and its counts state: null without the switch; 0 and 0 when it is off; else each count as
     * written, or {@code otherwise} (the format's default) at the switch, under {@code recipe} (the fp8 recipe as the format
     * states it, null when it does not; {@code recipeDefault}: not written, the format's default).
     */
    static Specs.Bf16Layers of(Located<Boolean> on, Located<Long> start, Located<Long> end, long otherwise, Located<String> recipe,
                               boolean recipeDefault) {
        if (on == null || on.value() == null) return null;
        if (!on.value()) return new Specs.Bf16Layers(new Located<>(0L, on.span()), new Located<>(0L, on.span()), on.span(), null, false);
        return new Specs.Bf16Layers(start != null ? start : new Located<>(otherwise, on.span()),
                end != null ? end : new Located<>(otherwise, on.span()), on.span(), recipe, recipe != null && recipeDefault);
    }

    /**
     * Reads the three keys of {@code m} into the draft when its switch is written; {@code where} names the mapping
     * ("mixed_precision", "model.config"). Returns whether it did.
     */
    static boolean read(JobDraft j, MappingNode m, String where, long otherwise) {
        Located<Boolean> on = TreeValues.bool(scalar(m, SWITCH));
        if (on == null) return false;
        // the recipe beside the switch, when written there (Megatron-Core's TransformerConfig refuses the switch under "delayed")
        ScalarNode r = scalar(m, "fp8_recipe");
        Located<String> recipe = r == null || r.isNull() || TreeValues.placeholder(r.text()) ? null
                : new Located<>(r.text().strip().toLowerCase(Locale.ROOT), r.span());
        j.fp8LayersBf16 = of(on, count(j, scalar(m, START), where + "." + START), count(j, scalar(m, END), where + "." + END), otherwise,
                recipe, false);
        j.fp8LayersBf16Key = where + "." + SWITCH;
        return true;
    }

    /** A count of a YAML mapping ({@link #count(JobDraft, String, Span, String)}); null when absent, null or a placeholder. */
    static Located<Long> count(JobDraft j, ScalarNode s, String key) {
        if (s == null || s.isNull() || TreeValues.placeholder(s.text())) return null;
        return count(j, s.text(), s.span(), key);
    }

    /**
     * A count as written: a whole number of layers from 0. Megatron's argparse takes only an int ("invalid int value") and
     * Megatron-Core's TransformerConfig raises on a negative count ("num_layers_at_start_in_bf16 (-1) must be between 0 and
     * number of layers per pipeline stage"), so anything else is SYN002 at it and counts as not written (the format's
     * default). A count above the layers per stage (num_layers // pp), which TransformerConfig refuses too under fp8, is
     * PAR013's to judge (derive/par/Bf16LayersAnalysis: it depends on pp, which a plan's candidates change); the estimate
     * keeps at most every layer in bf16 and says so.
     */
    static Located<Long> count(JobDraft j, String text, Span at, String key) {
        Located<Long> n = TreeValues.whole(text, at);
        if (n != null && n.value() >= 0 && n.value() <= Integer.MAX_VALUE) return n;
        DraftValues.refuse(j, at, key, text, "a whole number of layers from 0 to the layers per pipeline stage (Megatron-Core's"
                + " TransformerConfig: 'must be between 0 and number of layers per pipeline stage')", "the count is read as not"
                + " written (the format's default)");
        return null;
    }

    /**
     * Whether a framework's mixed-precision object is there to overwrite the model's TransformerConfig switch and counts, so
     * that the model's own three keys state nothing: Megatron-Bridge's {@code mixed_precision} written as a recipe name or a
     * mapping (MixedPrecisionConfig.setup, megatron/bridge/training/mixed_precision.py
     * {@code update_config_with_precision_overrides}, copies every field the model's config has, the switch defaulting to
     * False and the counts to 0, and the recipes other than those of {@link #recipe} leave it off) and NeMo 2's
     * MegatronMixedPrecision plugin (MegatronStrategy hands its DtypeConfig, the same three fields with the same defaults, to
     * {@code update_config_with_dtype_overrides} on the model's config). So Nemotron-H's providers, which set the switch on,
     * run every layer on the quantized path under a recipe that does not keep layers in bf16. A mapping whose {@code _target_}
     * names a class outside the frameworks' mixed_precision modules (Lightning's precision plugins) carries no such config;
     * {@code mixed_precision: null} is Megatron-Bridge's None, which leaves the model's config as it is.
     *
     * @param config the mixed-precision mapping, or null
     * @param recipe the recipe name written in its place, or null
     */
    static boolean decides(MappingNode config, ScalarNode recipe) {
        if (recipe != null && !recipe.isNull() && !TreeValues.placeholder(recipe.text())
                && !recipe.text().strip().equalsIgnoreCase("null")) return true;
        if (config == null) return false;
        ScalarNode target = scalar(config, "_target_");
        return target == null || target.isNull() || target.text().contains("mixed_precision");
    }

    /** What a Megatron-Bridge recipe name states (null: the recipe keeps every layer in its own precision). */
    static boolean recipe(JobDraft j, ScalarNode recipe) {
        if (recipe == null || recipe.isNull() || TreeValues.placeholder(recipe.text())) return false;
        String name = recipe.text().strip().toLowerCase(Locale.ROOT).replace('-', '_');
        long[] n = RECIPES.get(name);
        if (n == null) return false;
        // the recipe names the scaling (current: per-tensor; nvfp4), never delayed: no recipe to judge (PAR016)
        j.fp8LayersBf16 = new Specs.Bf16Layers(new Located<>(n[0], recipe.span()), new Located<>(n[1], recipe.span()), recipe.span(),
                null, false);
        j.fp8LayersBf16Key = "mixed_precision: " + recipe.text().strip();
        return true;
    }
}
