package dev.gpulint.bind.adapt;

import dev.gpulint.bind.adapt.shell.Shell.Word;
import dev.gpulint.catalog.Models;
import dev.gpulint.spec.Located;

/**
 * Megatron's hybrid Mamba models as a launch command or MODEL_ARGS writes them ({@code --is-hybrid-model} with
 * {@code --hybrid-layer-pattern}, formerly {@code --hybrid-override-pattern}: one character per layer, {@code M} Mamba-2,
 * {@code *} self-attention, {@code -} MLP, {@code E} MoE; {@code |} between pipeline stages is no layer, and what follows the first
 * {@code /} are the MTP layers' blocks, not counted: Nemotron 3 Super writes {@code ...EME/*E/*E} with
 * {@code --mtp-num-layers 2}). The estimate prices transformer layers only. The model catalog's hybrid entries and a hybrid
 * config.json give no shape ({@link ModelNames}, {@link HfConfigAdapter}); a script that writes its sizes itself is
 * priced as it writes them, every one of its {@code --num-layers} as attention + MLP (or MoE), and the plan says so in its
 * assumptions: the Mamba-2 layers are priced as transformer layers, the step time and memory overstated for them. Bounded:
 * one pass over the pattern.
 */
final class HybridLayers {
    private HybridLayers() {}

    /** Reads the switch and the pattern of a Megatron job into the draft's unpriced lines. */
    static void read(JobDraft j, Located<Boolean> hybrid, Word pattern, String patternFlag) {
        if (hybrid == null || !Boolean.TRUE.equals(hybrid.value())) return;
        String kinds = null;
        if (pattern != null && pattern.known()) {
            // unquoted already: the shell's words and YAML's scalars come without their quotes (HybridLayersTest)
            String p = pattern.text().strip();
            // the decoder's layers: before the first '/' (what follows are the MTP layers' blocks), '|' between stages
            String layers = p.split("/", 2)[0].replace("|", "");
            if (!layers.isEmpty() && layers.matches("[M*\\-E]+")) {
                kinds = Models.Hybrid.kinds(layers);
            }
        }
        j.unpriced.add("--is-hybrid-model" + (kinds != null ? " with " + patternFlag + " (" + kinds + ")" : "") + ": the estimate"
                + " prices transformer layers only, so every layer of --num-layers is priced as attention + MLP (MoE where the job"
                + " states experts), its Mamba-2 layers included: time and memory are overstated for them (the model catalog's"
                + " hybrid entries and a hybrid config.json give no shape for this reason)");
    }
}
