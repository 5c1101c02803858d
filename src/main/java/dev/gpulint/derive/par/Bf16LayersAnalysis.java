package dev.gpulint.derive.par;

import dev.gpulint.core.Span;
import dev.gpulint.derive.Facts;
import dev.gpulint.derive.Resolved;
import dev.gpulint.derive.estimate.ModelShape;
import dev.gpulint.facts.Bf16LayersFact;
import dev.gpulint.facts.Bf16RecipeFact;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs;

/**
 * PAR013's analysis: the layers an fp8 job keeps in bf16 at each end, beside the layers and pp Megatron-Core's
 * TransformerConfig bounds them by ({@link Bf16LayersFact}). TransformerConfig checks the counts only when
 * {@code config.fp8} is set (fp8 and MXFP8: Megatron's {@code --fp8-format}, with {@code --fp8-recipe mxfp8} too); an NVFP4
 * job ({@code --fp4-format}) and a 16-bit one get no fact, nor does a job whose layers or pp are unknown.
 */
public final class Bf16LayersAnalysis {
    private Bf16LayersAnalysis() {}

    /** The prefix of the key a Megatron-Bridge recipe name states the counts under (bind/adapt/FirstLastBf16). */
    static final String RECIPE = "mixed_precision: ";

    public static void job(Resolved.Job r, Facts out) {
        Specs.Job j = r.spec();
        Specs.Bf16Layers b = j.fp8LayersBf16();
        Specs.Model m = j.model();
        if (b == null || m == null) return;
        ModelShape.Dtype dtype = m.dtype() == null ? null : ModelShape.Dtype.parse(m.dtype().value());
        if (dtype != ModelShape.Dtype.FP8 && dtype != ModelShape.Dtype.MXFP8) return;
        String switchKey = j.origin() == null ? null : j.origin().key(Specs.Origin.FP8_LAYERS_BF16);
        // PAR016: the recipe the switch is on under, whatever the layers (TransformerConfig checks it first)
        if (b.recipe() != null && b.recipe().value() != null) {
            out.add(new Bf16RecipeFact(r.name(), j.file(), switchKey == null ? Specs.Origin.FP8_LAYERS_BF16 : switchKey, b.span(),
                    b.recipe().value(), b.recipeDefault(), b.recipe().span()));
        }
        if (m.layers() == null || m.layers().value() == null || r.pp() < 1) return;
        long layers = m.layers().value();
        if (layers < 1) return;
        Specs.Parallelism p = j.parallelism();
        Span ppSpan = p == null || p.pp() == null ? null : p.pp().span();
        end(r, out, b, b.start(), false, switchKey, layers, ppSpan);
        end(r, out, b, b.end(), true, switchKey, layers, ppSpan);
    }

    private static void end(Resolved.Job r, Facts out, Specs.Bf16Layers b, Located<Long> n, boolean atEnd, String switchKey,
                            long layers, Span ppSpan) {
        if (n == null || n.value() == null || n.value() < 1) return;
        Span at = n.span() != null ? n.span() : b.span();
        out.add(new Bf16LayersFact(r.name(), r.spec().file(), atEnd, n.value(), key(switchKey, atEnd, at != null && at.equals(b.span())),
                at, layers, r.pp(), ppSpan));
    }

    /**
     * Where a count is written, as the job's file names it: Megatron's {@code --num-layers-at-end-in-bf16}, the dotted
     * {@code mixed_precision.num_layers_at_end_in_bf16} of NeMo 2 and Megatron-Bridge, a Megatron-Bridge recipe's name, the
     * native {@code fp8_layers_bf16.end}; a count not written (at the switch's place, the format's default) is named with
     * its switch.
     *
     * @param switchKey the switch as the job's file writes it ({@code --first-last-layers-bf16}), null for a native manifest
     * @param atSwitch  the count stands at the switch's place: not written
     */
    static String key(String switchKey, boolean atEnd, boolean atSwitch) {
        String side = atEnd ? "end" : "start";
        if (switchKey == null || switchKey.equals(Specs.Origin.FP8_LAYERS_BF16)) return Specs.Origin.FP8_LAYERS_BF16 + "." + side;
        if (switchKey.startsWith(RECIPE)) return switchKey;
        String count;
        if (switchKey.startsWith("--")) {
            count = "--num-layers-at-" + side + "-in-bf16";
        } else {
            int dot = switchKey.lastIndexOf('.');
            count = (dot < 0 ? "" : switchKey.substring(0, dot + 1)) + "num_layers_at_" + side + "_in_bf16";
        }
        return atSwitch ? count + " (not written: its default under " + switchKey + ")" : count;
    }
}
