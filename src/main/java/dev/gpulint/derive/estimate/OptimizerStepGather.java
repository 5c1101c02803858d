package dev.gpulint.derive.estimate;

import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs;
import java.util.List;

/**
 * Megatron-Core's {@code overlap_param_gather_with_optimizer_step} (Megatron-LM's
 * {@code --overlap-param-gather-with-optimizer-step}; Megatron-Bridge's and NeMo 2's OptimizerConfig / CommOverlapConfig /
 * MegatronCommOverlapCallback key of that name; the native {@code optimizer.overlap_param_gather_with_step}): what it changes
 * in the data-parallel collectives of an interleaved stage, which {@link ChunkedDpSync} prices. docs/plan.md, "The
 * parameter all-gather in the optimizer step".
 *
 * <p>What the code does (Megatron-LM, read at 2025–26 commits):
 * <ul>
 *   <li>megatron/training/training.py, get_model: every model chunk's DDP wrapper is built with
 *       {@code disable_bucketing=(model_chunk_idx > 0) or overlap_param_gather_with_optimizer_step}, so chunk 0 too is one
 *       bucket: its gradients are reduce-scattered once its whole backward has ended (the step's last compute) and its
 *       parameters all-gathered whole;</li>
 *   <li>megatron/core/optimizer/__init__.py, get_megatron_optimizer: the optimizer is split in two, chunk 0's and chunks
 *       1…vpp − 1's ({@code all_dense_model_chunks = [[model_chunks[0]], model_chunks[1:]]}), and only chunk 0's DDP is
 *       flagged;</li>
 *   <li>megatron/core/optimizer/optimizer.py, ChainedOptimizer.step_with_ready_grads: right after chunk 0's optimizer has
 *       stepped, {@code start_param_sync(force_dispatch=True)} launches chunk 0's all-gather, which runs while the other
 *       chunks' optimizer steps;</li>
 *   <li>megatron/core/distributed/distributed_data_parallel.py, start_param_sync: a flagged chunk's sync is not dispatched
 *       again by the schedule (schedules.py's "Synchronize params for first two model chunks" skips chunk 0; chunk 1's
 *       all-gather is dispatched there as before); the forward pre-hook waits for chunk 0's all-gather before its first
 *       forward. Chunks 1 … vpp − 1 are unchanged.</li>
 * </ul>
 * So per chunk (1/vpp of the bytes): chunk 0's reduction is exposed whole (nothing of the step is left to hide it; the
 * optimizer waits for it), where bucketed it hid behind its own last backward pass; chunk 0's all-gather hides behind
 * the other chunks' optimizer step, (vpp − 1)/vpp of it, where it hid behind its own first forward pass. The estimate does
 * not price the host time between the optimizer step and the next forward (logging, zero_grad_buffer). megatron/training/
 * arguments.py, validate_args, asserts the distributed optimizer, {@code --overlap-param-gather}, an interleaved pipeline
 * and no distributed checkpointing; a job stating the flag without the first two or the third is priced as without it and
 * the assumptions say so (and rule PAR017, derive/par/StepGatherAnalysis, reports it as the error Megatron stops on).
 *
 * @param on whether model chunk 0's all-gather runs in the optimizer step
 */
public record OptimizerStepGather(boolean on) {
    /** Not stated, or not applicable: chunk 0 bucketed and gathered ahead of its first forward. */
    public static final OptimizerStepGather OFF = new OptimizerStepGather(false);

    /**
     * What a job states, with one line of {@code as} when it states it.
     *
     * @param sharded the distributed optimizer (or ZeRO 1–2: Megatron's distributed optimizer is what gpulint reads as them)
     */
    static OptimizerStepGather of(Specs.Job j, Layout l, boolean sharded, List<String> as) {
        Specs.Optimizer o = j.optimizer();
        Located<Boolean> s = o == null ? null : o.gatherWithStep();
        if (s == null || s.value() == null || !s.value()) return OFF;
        String key = j.origin() != null && j.origin().key(Specs.Origin.GATHER_WITH_STEP) != null
                ? j.origin().key(Specs.Origin.GATHER_WITH_STEP) : "optimizer.overlap_param_gather_with_step";
        String refused = ": priced as without it, and Megatron refuses it (arguments.py: \"";
        if (!sharded || l.zeroStage() >= 3) {
            as.add(key + " read, but the job has no distributed optimizer" + refused
                    + "--overlap-param-gather-with-optimizer-step only supported with distributed optimizer\")");
            return OFF;
        }
        if (l.pp() <= 1 || l.virtualPp() <= 1) {
            as.add(key + " read, but the pipeline is not interleaved (pp " + l.pp() + ", virtual_pp " + l.virtualPp() + ")" + refused
                    + "--overlap-param-gather-with-optimizer-step only supported with interleaved pipeline parallelism\")");
            return OFF;
        }
        if ((long) l.dp() * l.cp() <= 1) {
            as.add(key + " read: no data-parallel all-gather to move (dp·cp 1)");
            return OFF;
        }
        as.add("model chunk 0's parameter all-gather in the optimizer step (" + key + "): chunk 0 one bucket, its reduce-scatter"
                + " exposed after the step's last backward, its all-gather behind the other " + (l.virtualPp() - 1)
                + " chunks' optimizer step (Megatron-Core's ChainedOptimizer; --overlap-param-gather assumed, as Megatron requires)");
        return new OptimizerStepGather(true);
    }

    /**
     * The data-parallel collectives (buckets) of a stage of {@code chunks} model chunks: chunk 0 one bucket like the others
     * when on, else {@link DpBuckets#count(double, long, int)}.
     */
    double buckets(double params, long ranks, int chunks) {
        return on && chunks > 1 ? chunks : DpBuckets.count(params, ranks, chunks);
    }

    /**
     * The seconds model chunk 0's all-gather runs beside the optimizer steps of the other chunks: (vpp − 1)/vpp of the
     * optimizer step ({@code optimizerS}), chunks equal in parameters; −1 when off (chunk 0's collectives as
     * {@link ChunkedDpSync} prices them without it).
     */
    double window(int vpp, double optimizerS) {
        return on && vpp > 1 ? optimizerS * (vpp - 1) / vpp : -1;
    }
}
