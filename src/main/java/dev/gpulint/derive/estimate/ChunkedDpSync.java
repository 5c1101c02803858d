package dev.gpulint.derive.estimate;

/**
 * What of a stage's data-parallel collectives outlasts the compute the pipeline schedule gives them to hide behind: the
 * second half of the dp exposure, which Estimator takes the larger of with the (1 − dp_overlap) share the compute beside a
 * collective loses (Lee et al. 2025, Term.DpExposure). docs/plan.md, "Data parallelism under interleaving".
 *
 * <p>Without interleaving (vpp 1) the gradients are reduced during the last micro-batch's backward and the parameters
 * gathered ahead of the first forward: one micro-batch of the stage hides them (a reduce-scatter and an all-gather: its
 * whole compute; an all-reduce: its backward, 2/3 of it).
 *
 * <p>With interleaving each model chunk has its own gradient buckets, and Megatron-Core's interleaved schedule
 * (megatron/core/pipeline_parallel/schedules.py, forward_backward_pipelining_with_interleaving) launches them chunk by
 * chunk: chunk k's gradient reduction when its last micro-batch's backward ends ({@code backward_step_helper_postprocess}:
 * {@code grad_sync_func} of the chunk whose last micro-batch that was), chunk k + 1's parameter all-gather when chunk k's
 * first micro-batch starts ({@code forward_step_helper_preprocess}: {@code param_sync_func}), and chunks 0 and 1's before
 * the first forward ("Synchronize params for first two model chunks"). The schedule runs each chunk for a group of pp
 * micro-batches ({@code microbatch_group_size_per_vp_stage}, default pp; fewer when the step has fewer), the backward
 * from the last chunk to the first. Within a chunk, as without interleaving, the buckets are reduced as their
 * gradients are ready and gathered as the forward reaches them ({@code overlap_grad_reduce}, {@code overlap_param_gather}),
 * so chunk 0's collectives also hide behind its own pass; the other chunks are not bucketed (Megatron's training.py builds
 * their wrappers with {@code disable_bucketing=(model_chunk_idx > 0)}), so a chunk k ≥ 1 reduces its gradients only
 * once its whole backward has ended and gathers its parameters whole before its forward starts. Per chunk (1/vpp of the
 * bytes, the chunks holding equal layers; a chunk's pass is 1/vpp of the stage's micro-batch, its backward 2/3 of that
 * and its forward 1/3):
 * <ul>
 *   <li>the reduction of chunk k ≥ 1 hides behind the g backward passes of chunk k − 1 that follow its last one,
 *       g·(2/3)·stage/vpp; chunk 0's, the step's last, behind its own pass alone;</li>
 *   <li>the all-gather of chunk k ≥ 1 hides behind the g forward passes of chunk k − 1 before its first,
 *       g·(1/3)·stage/vpp; chunk 0's behind its own first forward pass alone.</li>
 * </ul>
 * Each chunk's collective exposes what outlasts its window (one window does not lend to another chunk's collective). Under
 * {@code overlap_param_gather_with_optimizer_step} ({@link OptimizerStepGather}; Megatron-Bridge's performance scripts set
 * it when dp, pp and vpp are all above 1) chunk 0 is one bucket too and its all-gather is dispatched in the optimizer step:
 * its reduction is exposed whole and its all-gather hides behind the other chunks' optimizer step instead of its own first
 * forward; chunks 1 … vpp − 1 are unchanged. Pure: no state.
 */
final class ChunkedDpSync {
    private ChunkedDpSync() {}

    /**
     * Seconds of the collectives that outlast the compute the schedule hides them behind.
     *
     * @param vpp          model chunks per pipeline rank (1: not interleaved)
     * @param pp           pipeline stages: the schedule's micro-batch group per chunk
     * @param microBatches micro-batches per step
     * @param stageS       one micro-batch's compute on the stage, forward and backward, seconds
     * @param reduce       the gradient reduction's seconds (a reduce-scatter, or the all-reduce when {@code gather} is 0)
     * @param gather       the parameter all-gather's seconds (0 without a sharded optimizer)
     * @param allReduce    the gradients are all-reduced (no sharded optimizer): without interleaving only the backward hides them
     */
    static double outlasting(int vpp, int pp, long microBatches, double stageS, double reduce, double gather, boolean allReduce) {
        return outlasting(vpp, pp, microBatches, stageS, reduce, gather, allReduce, -1);
    }

    /**
     * As {@link #outlasting(int, int, long, double, double, double, boolean)}, chunk 0's all-gather dispatched in the
     * optimizer step when {@code stepWindow} ≥ 0 ({@link OptimizerStepGather#window}): chunk 0's reduction exposed whole (one
     * bucket, launched after the step's last backward), its all-gather behind {@code stepWindow} seconds of the other chunks'
     * optimizer step instead of its own first forward pass.
     */
    static double outlasting(int vpp, int pp, long microBatches, double stageS, double reduce, double gather, boolean allReduce,
                             double stepWindow) {
        if (vpp <= 1 || pp <= 1) return allReduce ? reduce - stageS * 2 / 3 : reduce + gather - stageS;
        double g = Math.max(1, Math.min(pp, microBatches));
        double backward = stageS * 2 / 3 / vpp, forward = stageS / 3 / vpp;     // one chunk's pass
        double reducePerChunk = reduce / vpp, gatherPerChunk = gather / vpp;
        boolean inStep = stepWindow >= 0 && gather > 0;
        double reduceExposed = (inStep ? reducePerChunk : Math.max(0, reducePerChunk - backward))
                + (vpp - 1) * Math.max(0, reducePerChunk - g * backward);
        double gatherExposed = gather <= 0 ? 0
                : Math.max(0, gatherPerChunk - (inStep ? stepWindow : forward)) + (vpp - 1) * Math.max(0, gatherPerChunk - g * forward);
        return reduceExposed + gatherExposed;
    }
}
