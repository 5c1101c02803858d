package dev.gpulint.derive.estimate;

import dev.gpulint.spec.ParallelDim;
import java.util.List;

/**
 * The group an MoE model's routed experts synchronise their gradients (and, sharded, their parameters) over. Megatron-Core's
 * DDP keeps the expert parameters in buffers and buckets of their own and reduces them over the expert data-parallel group,
 * the dense ones over dp·cp (megatron/core/distributed/distributed_data_parallel.py: {@code expert_parallel_buffers,
 * expert_parallel_bucket_groups = _allocate_buffers_for_parameters(expert_parallel_params, intra_expt_dp_group, ...)} beside
 * {@code buffers, bucket_groups} on {@code intra_dp_cp_group}; the bucket size, {@code max(40M, 1M · dp·cp)}, is the DDP
 * config's and the same for both). That group holds edp = tp·cp·dp ÷ (etp·ep) ranks (the size whose optimizer-state sharding
 * the memory model already counts), laid out as Megatron-Core's expert RankGenerator lays it out ({@link RankGroup#expertDp}:
 * the job's order with cp of one rank, tp replaced by etp and dp by edp; {@code get_ranks('dp')}): one strided part, its
 * members the product of the expert sizes before dp apart, etp·ep in the default order tp-cp-ep-dp-pp and etp·ep·pp in
 * {@code --use-tp-pp-dp-mapping}'s tp-cp-ep-pp-dp. It is priced on the tier that part reaches, as the dp·cp group is
 * ({@link Tier#of(RankGroup, long, long, boolean, long)}). With etp 1 and ep 8 on 8-GPU nodes its members are one per node,
 * each ring through one GPU's NIC; where ep·etp = tp·cp·dp the group is one rank and the experts are not reduced at all.
 *
 * <p>Only where the layout has expert parallelism (ep &gt; 1) and the model routed experts: otherwise the stage's parameters
 * stay one group, as before. The parameter all-gather's bytes are split at the routed experts' width (2 bytes, 1 under fp8
 * gathering: {@link ParamGather}); what the stage gathers beyond that (embeddings, an fp8 recipe's bf16 layers) stays with
 * the shared group.
 *
 * @param shared       the fullest stage's parameters reduced over dp·cp (per GPU)
 * @param expert       its routed experts' parameters reduced over the expert data-parallel group (per GPU)
 * @param sharedGather bytes the shared group's all-gathers assemble
 * @param expertGather bytes the expert group's all-gathers assemble
 * @param group        the expert data-parallel group's ranks (edp of them; one rank where nothing is split off)
 */
record ExpertDpSync(double shared, double expert, double sharedGather, double expertGather, RankGroup group) {

    /**
     * The split for the stage holding the most parameters (the one the dp term prices), which the estimate has found.
     *
     * @param params      that stage's parameters per GPU
     * @param fullest     its index (0 = first)
     * @param gatherBytes the stage's all-gather bytes ({@link ParamGather#stageBytes})
     */
    static ExpertDpSync of(ModelShape m, Layout l, Variants v, double params, int fullest, List<ParallelDim> order,
                           double gatherBytes) {
        if (v.moe() == null || m.experts() <= 1 || l.ep() <= 1) return new ExpertDpSync(params, 0, gatherBytes, 0, RankGroup.strided(1, 1));
        double[] split = MemoryModel.stageSplit(m, l, fullest, v);
        double expert = Math.min(params, split[1]);
        double expertGather = Math.min(gatherBytes, expert * (v.paramGather().fp8() ? ParamGather.FP8 : ParamGather.WIDE));
        return new ExpertDpSync(params - expert, expert, gatherBytes - expertGather, expertGather, v.moe().expertDpGroup(l, order));
    }
}
