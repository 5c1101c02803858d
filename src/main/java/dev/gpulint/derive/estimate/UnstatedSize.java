package dev.gpulint.derive.estimate;

import dev.gpulint.derive.Resolved;
import dev.gpulint.facts.AssumedSize;
import dev.gpulint.spec.Specs;
import java.util.Locale;

/**
 * The size `gpulint plan` gives a job whose files state no GPU count at all (issue 36): a torchtitan TOML takes its
 * data-parallel size from the world it is launched in ({@code data_parallel_shard_degree = -1}) and its GPU count lives
 * in a launch script that is not among the files; a script's launcher may read its sizes from the environment. Such a
 * job would fill whatever it is given, so the plan gives it the node group it runs on: the job's stated nodes (or all
 * the group's nodes) × GPUs per node, rounded down to a multiple of tp × pp × cp and to at most {@link #MAX_GPUS},
 * and says so among its assumptions. `check` holds the memory of such a job at the same size (derive.Deriver: MEM001's
 * and MEM002/MEM003's facts say so): torchtitan's {@code data_parallel_shard_degree = -1} fills what it is launched on,
 * the node group's size is the most it can be given there, and the model states each GPU holds only grow on fewer GPUs
 * (they shard over dp; the activations per GPU do not depend on it), so a job that does not fit at this size fits at no
 * size the node group holds; a finding at it is no guess about a smaller launch. A job that states its global batch keeps dp to a divisor of global ÷ micro batch
 * (Megatron asserts global % (micro × dp) == 0): the size never makes the job as written invalid (PAR007) by itself. --gpus or --nodes plan another size; check's layout fixes never take this size
 * (they fix what the files state).
 */
public final class UnstatedSize {
    private UnstatedSize() {}

    /**
     * The most GPUs a plan searches: its candidates are checked by the rules one by one, each in time that grows with
     * the GPUs, so 524,288 GPUs took about two minutes; 65,536 take about ten seconds and hold every published
     * training job (Llama 3 405B: 16,384 H100, Meta 2024). check's layout fixes (LayoutFixes) are not offered beyond it.
     */
    public static final long MAX_GPUS = 65_536;

    /**
     * The size and where it came from: {@code nodes} × {@code perNode} = {@code all} GPUs of node group {@code group} (the job's
     * stated nodes, or all the group's: {@code allNodes}), of which {@code gpus}, a multiple of tp × pp × cp ({@code grid})
     * and at most {@link #MAX_GPUS}, dp {@code dp} (a divisor of the global batch ÷ the micro batch, {@code perStep}, when
     * stated, else 0) of at most {@code dpMax}.
     */
    public record Size(long gpus, long nodes, long perNode, boolean allNodes, String group, long all, long grid, long dp,
                       long dpMax, long perStep) {

        /** Fewer GPUs than the nodes hold: rounded down to a multiple of tp × pp × cp, to {@link #MAX_GPUS} or to a dp dividing the batch. */
        public boolean rounded() { return gpus != all; }

        /** The nodes hold more than {@link #MAX_GPUS}: the size is at most that, not the most the job can be given. */
        public boolean capped() { return all > MAX_GPUS; }

        /** The GPUs within {@link #MAX_GPUS} are no multiple of tp × pp × cp: rounded down to one. */
        public boolean gridRounded() { return Math.min(all, MAX_GPUS) % grid != 0; }

        /** dp is lowered to divide the global batch ÷ the micro batch. */
        public boolean batchRounded() { return dp < dpMax; }

        /** This size as the memory facts carry it to MEM001/002/003's messages. */
        public AssumedSize fact() {
            return new AssumedSize(gpus, nodes, perNode, allNodes, group, MAX_GPUS, capped(), grid, gridRounded(), perStep, batchRounded());
        }

        /** The plan's assumptions line. */
        public String assumption() {
            String whose = !allNodes ? "its " + nodes + " node" + (nodes == 1 ? "" : "s")
                    : "all " + nodes + " node" + (nodes == 1 ? "" : "s") + " of node group " + group;
            String b = "the job's files state no GPU count (nor dp): planned on " + whose + " × " + perNode + " GPUs per node = " + all + " GPUs";
            if (gpus != all) {
                b += ", of which " + gpus + " (" + (all > MAX_GPUS ? String.format(Locale.ROOT, "plan searches at most %,d; ", MAX_GPUS) : "")
                        + "a multiple of tp × pp × cp = " + grid
                        + (dp < dpMax ? ", dp " + dp + " a divisor of global batch ÷ micro batch = " + perStep : "") + ")";
            }
            return b + "; plan another size with --gpus or --nodes";
        }
    }

    /**
     * The size to plan {@code j} at, or null when the job states its GPU count or its dp (then the plan reads them), or
     * its node group's size is unknown, or no multiple of tp × pp × cp fits in it.
     */
    public static Size of(Resolved.Job j) {
        if (j.totalGpus() > 0 || j.dpEffective() > 0 || !j.modelSizesKnown()) return null;
        Resolved.Group g = j.group();
        if (g == null) return null;
        long perNode = j.gpusPerNode() > 0 ? j.gpusPerNode() : g.gpusPerNode();
        Long count = g.spec() == null || g.spec().count() == null ? null : g.spec().count().value();
        long nodes = j.nodes() > 0 ? j.nodes() : count == null ? 0 : count;
        if (perNode <= 0 || nodes <= 0) return null;
        long all = nodes > Long.MAX_VALUE / perNode ? Long.MAX_VALUE : nodes * perNode;
        long grid = j.tp() * j.pp() * j.cp();
        long dpMax = Math.min(all, MAX_GPUS) / grid;
        long perStep = samplesPerMicroBatchRound(j.spec());
        long dp = dpMax;
        if (perStep > 0) {
            dp = Math.min(dpMax, perStep);
            while (dp > 1 && perStep % dp != 0) dp--;      // at most MAX_GPUS steps
        }
        long gpus = dp * grid;
        if (gpus <= 0) return null;
        return new Size(gpus, nodes, perNode, j.nodes() <= 0, g.name(), all, grid, dp, dpMax, perStep);
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
