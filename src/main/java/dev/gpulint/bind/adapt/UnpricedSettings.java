package dev.gpulint.bind.adapt;

import static dev.gpulint.bind.adapt.TreeValues.map;
import static dev.gpulint.bind.adapt.TreeValues.scalar;

import dev.gpulint.spec.Located;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.ScalarNode;

/**
 * Settings of the frameworks' own configurations that change speed or memory but that the estimate does not price
 * apart: each is read where it is written and becomes one line of the plan's {@code assumptions}
 * (Specs.Origin.unpriced), saying what was read and what the estimate does instead, so nobody takes the figure for
 * more than it is (issue #35). Offloading ZeRO/FSDP states to the host is priced, not listed here (OffloadSettings).
 */
final class UnpricedSettings {
    private UnpricedSettings() {}

    /**
     * torchtitan (torchtitan/config/job_config.py): {@code [parallelism] enable_async_tensor_parallel},
     * {@code [compile] enable} (earlier {@code [training] compile}) and {@code [parallelism] fsdp_reshard_after_forward}.
     */
    static void torchtitan(JobDraft j, MappingNode root) {
        MappingNode par = map(root, "parallelism"), training = map(root, "training");
        if (on(scalar(par, "enable_async_tensor_parallel")) && j.tp != null && j.tp.value() > 1) {
            j.unpriced.add("async TP ([parallelism] enable_async_tensor_parallel): torchtitan overlaps the tp all-gathers and"
                    + " reduce-scatters with the matmuls (micro-pipelined); not priced apart: the GPU family's tp_overlap, fitted on"
                    + " NeMo's TP-overlapped runs, hides the same share of every job's tp communication");
        }
        ScalarNode compile = scalar(map(root, "compile"), "enable");
        String where = "[compile] enable";
        if (compile == null) { compile = scalar(training, "compile"); where = "[training] compile"; }
        if (on(compile)) {
            j.unpriced.add("torch.compile (" + where + "): fused elementwise kernels; not priced apart: the HBM traffic term"
                    + " (traffic bytes per byte, one constant for every software stack) stands for eager and compiled kernels alike");
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
