package dev.gpulint.bind.adapt;

import static dev.gpulint.bind.adapt.TreeValues.map;
import static dev.gpulint.bind.adapt.TreeValues.scalar;

import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.ScalarNode;
import java.util.List;

/**
 * How a torchtitan job scales its Float8 GEMM inputs ({@code JobDraft.fp8Scaling}, the native manifest's
 * {@code fp8_scaling}; priced by derive/estimate/Float8Scaling). torchtitan (torchtitan/config/job_config.py) passes
 * {@code recipe_name} to torchao's {@code Float8LinearConfig.from_recipe_name}: "tensorwise", "rowwise" or
 * "rowwise_with_gw_hp" (torchao/float8/config.py, Float8LinearRecipeName); not written (None), torchao's default config,
 * tensorwise. The table is {@code [float8]} until mid 2025 and {@code [quantize.linear.float8]} since. Read only when the
 * file turns Float8 training on ({@link TorchtitanAdapter#float8}); a value torchao does not name, spelt exactly (torchao
 * compares the string as written: "Rowwise" fails), is SYN002 at the value and the estimate takes tensorwise.
 */
final class Float8Recipe {
    private Float8Recipe() {}

    /** torchao's recipe names, Float8LinearRecipeName's values. */
    static final List<String> RECIPES = List.of("tensorwise", "rowwise", "rowwise_with_gw_hp");

    static void torchtitan(JobDraft j, MappingNode root) {
        if (TorchtitanAdapter.float8(root) == null) return;
        MappingNode f8 = map(root, "float8");
        String table = "[float8]";
        if (f8 == null || scalar(f8, "recipe_name") == null) {
            MappingNode later = map(root, "quantize", "linear", "float8");
            if (later != null) { f8 = later; table = "[quantize.linear.float8]"; }
        }
        String key = table + " recipe_name";
        String instead = "the estimate takes torchao's default recipe, tensorwise scaling";
        // torchao matches the name exactly (from_recipe_name: "recipe name ... is not valid, must be one of ..."): "Rowwise" fails
        j.fp8Scaling = j.key(key, DraftValues.exactChoice(j, scalar(f8, "recipe_name"), key, RECIPES,
                "spelt as torchao spells them (Float8LinearConfig.from_recipe_name matches the name exactly)", instead));
        // enable_fsdp_float8_all_gather: FSDP all-gathers the Float8Linear weights in fp8 (derive/estimate/ParamGather)
        for (String[] at : new String[][] {{"float8"}, {"quantize", "linear", "float8"}}) {
            MappingNode t = map(root, at);
            if (t == null || scalar(t, "enable_fsdp_float8_all_gather") == null) continue;
            String where = (at.length == 1 ? "[float8]" : "[quantize.linear.float8]") + " enable_fsdp_float8_all_gather";
            j.fp8ParamGather = j.key(where, TreeValues.bool(scalar(t, "enable_fsdp_float8_all_gather")));
            break;
        }
    }
}
