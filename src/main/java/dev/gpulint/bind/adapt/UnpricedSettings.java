package dev.gpulint.bind.adapt;

import static dev.gpulint.bind.adapt.TreeValues.map;
import static dev.gpulint.bind.adapt.TreeValues.scalar;

import dev.gpulint.spec.Located;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.ScalarNode;
import java.util.Locale;

/**
 * Settings of the frameworks' own configurations that change speed or memory but that the estimate does not price
 * apart: each is read where it is written and becomes one line of the plan's {@code assumptions}
 * (Specs.Origin.unpriced), saying what was read and what the estimate does instead, so nobody takes the figure for
 * more than it is (issue #35). Offloading ZeRO/FSDP states to the host is priced, not listed here (OffloadSettings).
 */
final class UnpricedSettings {
    private UnpricedSettings() {}

    /**
     * torchtitan (torchtitan/config/job_config.py): Float8's rowwise recipe and all-gather, and
     * {@code [parallelism] fsdp_reshard_after_forward}. torch.compile is priced (CompileSettings, EagerKernels).
     */
    static void torchtitan(JobDraft j, MappingNode root) {
        MappingNode par = map(root, "parallelism");
        if (TorchtitanAdapter.float8(root) != null) {
            // Float8's settings: [float8] until mid 2025, [quantize.linear.float8] since (torchtitan/config/job_config.py)
            MappingNode f8 = map(root, "float8");
            String table = "[float8]";
            if (f8 == null) { f8 = map(root, "quantize", "linear", "float8"); table = "[quantize.linear.float8]"; }
            ScalarNode recipe = scalar(f8, "recipe_name");
            String r = recipe == null || recipe.isNull() ? "" : recipe.text().strip().toLowerCase(Locale.ROOT);
            if (r.startsWith("rowwise")) {
                j.unpriced.add("Float8 " + r + " recipe (" + table + " recipe_name = \"" + r + "\"): priced as tensorwise fp8"
                        + " GEMMs; rowwise scaling's slower GEMMs and extra casts are not priced apart (no kernel-level throughput"
                        + " table for them; torchtitan's async-TP benchmark measured rowwise 27 % below tensorwise on Llama 3.1 8B)");
            }
            if (on(scalar(f8, "enable_fsdp_float8_all_gather"))) {
                j.unpriced.add("FSDP Float8 all-gather (" + table + " enable_fsdp_float8_all_gather): the linear weights are"
                        + " all-gathered in fp8; not priced apart: the FSDP all-gathers are priced at 2 bytes per parameter");
            }
        }
        ScalarNode reshard = scalar(par, "fsdp_reshard_after_forward");
        if (reshard != null && !reshard.isNull() && reshard.text().strip().equalsIgnoreCase("never")) {
            j.unpriced.add("fsdp_reshard_after_forward = \"never\": FSDP keeps the gathered parameters from forward to backward"
                    + " (one all-gather per step instead of two, and a stage's unsharded parameters held); priced as torchtitan's"
                    + " default, which reshards after forward");
        }
    }

    private static boolean on(ScalarNode s) {
        Located<Boolean> b = TreeValues.bool(s);
        return b != null && Boolean.TRUE.equals(b.value());
    }
}
