package dev.gpulint.plan;

import dev.gpulint.derive.Resolved;
import dev.gpulint.spec.Specs;
import java.util.Locale;

/**
 * The size `gpulint plan` gives a job whose files state no GPU count at all (issue 36): a torchtitan TOML takes its
 * data-parallel size from the world it is launched in ({@code data_parallel_shard_degree = -1}) and its GPU count lives
 * in a launch script that is not among the files; a script's launcher may read its sizes from the environment. Such a
 * job would fill whatever it is given, so the plan gives it the node group it runs on: the job's stated nodes (or all
 * the group's nodes) × GPUs per node, rounded down to a multiple of tp × pp × cp and to at most {@link Planner#MAX_GPUS},
 * and says so among its assumptions. A job that states its global batch keeps dp to a divisor of global ÷ micro batch
 * (Megatron asserts global % (micro × dp) == 0): the size never makes the job as written invalid (PAR007) by itself. --gpus or --nodes plan another size; check's layout fixes never take this size
 * (they fix what the files state).
 */
final class UnstatedSize {
    private UnstatedSize() {}

    /** The size and the assumption that says where it came from. */
    record Size(long gpus, String assumption) {}

    /**
     * The size to plan {@code j} at, or null when the job states its GPU count or its dp (then the plan reads them), or
     * its node group's size is unknown, or no multiple of tp × pp × cp fits in it.
     */
    static Size of(Resolved.Job j) {
        if (j.totalGpus() > 0 || j.dpEffective() > 0 || !j.modelSizesKnown()) return null;
        Resolved.Group g = j.group();
        if (g == null) return null;
        long perNode = j.gpusPerNode() > 0 ? j.gpusPerNode() : g.gpusPerNode();
        Long count = g.spec() == null || g.spec().count() == null ? null : g.spec().count().value();
        long nodes = j.nodes() > 0 ? j.nodes() : count == null ? 0 : count;
        if (perNode <= 0 || nodes <= 0) return null;
        long all = nodes > Long.MAX_VALUE / perNode ? Long.MAX_VALUE : nodes * perNode;
        long grid = j.tp() * j.pp() * j.cp();
        long dpMax = Math.min(all, Planner.MAX_GPUS) / grid;
        long perStep = samplesPerMicroBatchRound(j.spec());
        long dp = dpMax;
        if (perStep > 0) {
            dp = Math.min(dpMax, perStep);
            while (dp > 1 && perStep % dp != 0) dp--;      // at most MAX_GPUS steps
        }
        long gpus = dp * grid;
        if (gpus <= 0) return null;
        String whose = j.nodes() > 0 ? "its " + nodes + " node" + (nodes == 1 ? "" : "s")
                : "all " + nodes + " node" + (nodes == 1 ? "" : "s") + " of node group " + g.name();
        String b = "the job's files state no GPU count (nor dp): planned on " + whose + " × " + perNode + " GPUs per node = " + all + " GPUs";
        if (gpus != all) {
            b += ", of which " + gpus + " (" + (all > Planner.MAX_GPUS ? String.format(Locale.ROOT, "plan searches at most %,d; ", Planner.MAX_GPUS) : "")
                    + "a multiple of tp × pp × cp = " + grid
                    + (dp < dpMax ? ", dp " + dp + " a divisor of global batch ÷ micro batch = " + perStep : "") + ")";
        }
        b += "; plan another size with --gpus or --nodes";
        return new Size(gpus, b);
    }

    /** The stated global batch ÷ the stated micro batch (1 when not stated), or 0 when the global batch is not stated or does not divide. */
    private static long samplesPerMicroBatchRound(Specs.Job s) {
        Specs.Batch b = s == null ? null : s.batch();
        if (b == null || b.globalBatchSize() == null || b.globalBatchSize().value() == null) return 0;
        long global = b.globalBatchSize().value();
        long micro = b.microBatchSize() == null || b.microBatchSize().value() == null || b.microBatchSize().value() < 1 ? 1 : b.microBatchSize().value();
        return global > 0 && global % micro == 0 ? global / micro : 0;
    }
}
