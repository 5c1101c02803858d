package dev.gpulint.derive.par;

import dev.gpulint.spec.Format;
import dev.gpulint.spec.Specs;
import java.util.Locale;

/**
 * The words the PAR rules name a job's values by: the key its file writes them under, known at bind time
 * (Specs.Origin#keys), so that a finding on a Levanter file says {@code trainer.train_batch_size}, not Megatron's
 * {@code global_batch_size}; and whether a message may cite Megatron's own check. Native manifests keep gpulint's
 * names; Megatron-LM's flags (--global-batch-size) read as the names of its arguments (args.global_batch_size, which its
 * assertions print); NeMo keeps its own keys, which are gpulint's names.
 */
public final class WrittenKeys {
    private WrittenKeys() {}

    /** The key {@code j}'s file writes {@code quantity} under (Specs.Origin.MICRO_BATCH, ...), else {@code quantity}. */
    public static String of(Specs.Job j, String quantity) {
        Specs.Origin o = j.origin();
        if (o == null) return quantity;
        Format f = Format.of(o.format());
        if (f == Format.MEGATRON || f == Format.NEMO) return quantity;
        String key = o.key(quantity);
        if (key == null || key.isBlank() || key.equals("--" + quantity.replace('_', '-'))) return quantity;
        // a value the format derives, not one key (nanotron's global batch: micro × accumulation × dp): in parentheses,
        // so that "(a × b × c) 64 ÷ (...)" reads as the product's value
        return key.contains(" × ") ? "(" + key + ")" : key;
    }

    /**
     * Whether messages cite Megatron's checks for {@code j}: true for a native manifest and for the formats that run
     * Megatron-Core (Format#citesMegatron), and for NeMo-RL or accelerate when the job's tp is written in their Megatron
     * section (policy.megatron_cfg, megatron_lm_config: the back-end is Megatron-Core, whose checks then apply).
     */
    public static boolean citesMegatron(Specs.Job j) {
        Specs.Origin o = j.origin();
        if (o == null) return true;
        Format f = Format.of(o.format());
        if (f.citesMegatron()) return true;
        String tp = o.key(Specs.Origin.TP);
        return (f == Format.NEMO_RL || f == Format.ACCELERATE) && tp != null && tp.toLowerCase(Locale.ROOT).contains("megatron");
    }
}
