package dev.gpulint.derive.estimate;

import dev.gpulint.spec.ParallelDim;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToLongFunction;

/**
 * The ranks of one communication group as the rank order lays them out: one or more strided parts, fastest first, each
 * part {@code size} ranks {@code stride} apart, the group every sum of one member of each part. A dimension's own group
 * is one part (its size, its stride); a group of several dimensions is one part when they are neighbours in the rank
 * order (the default tp-cp-ep-dp-pp's dp·cp: cp·dp ranks tp apart) and several when a dimension of more than one rank
 * lies between them (tp-cp-pp-dp, or Megatron's {@code --use-tp-pp-dp-mapping} order tp-cp-ep-pp-dp with pp &gt; 1: cp's
 * ranks tp apart, dp's tp·cp·pp apart). Megatron-Core builds its groups so: {@code RankGenerator.get_ranks('dp-cp')}
 * masks the order's sizes and {@code generate_masked_orthogonal_rank_groups} makes each group the sum of the masked
 * dimensions' ranks times their strides in the whole order (NVIDIA/Megatron-LM megatron/core/parallel_state.py at
 * commit 00caa53af30912914981c86f39db123961678bbd).
 *
 * <p>The groups of one kind tile blocks of {@link #block} consecutive ranks (the slowest part's size × stride): each block
 * holds block ÷ n whole groups. So a group sits in one node or scale-up domain when its block fits one and the units
 * divide into blocks ({@link Tier#of(RankGroup, long, long, boolean, long)}), and crosses one otherwise: the tier its
 * widest span reaches.
 *
 * @param parts the strided parts, fastest first; a part's stride is at least the previous part's size × stride
 */
public record RankGroup(List<Part> parts) {

    /** {@code size} ranks {@code stride} apart. */
    public record Part(long size, long stride) {}

    public RankGroup {
        parts = List.copyOf(parts);
    }

    /** A dimension's own group: n ranks {@code stride} apart. */
    public static RankGroup strided(long n, long stride) {
        return new RankGroup(List.of(new Part(n, Math.max(1, stride))));
    }

    /**
     * The data-parallel gradient group, dp·cp ranks, of a job of these sizes laid out in {@code order}: the group the
     * plan prices the gradients' reduction over ({@link Estimator#dpCpGroup}) and NET003 its all-reduce over
     * (derive/net AllReduceAnalysis), from this one function. Sizes at least 1, their product at most a long.
     */
    public static RankGroup dpCp(long tp, long cp, long dp, long pp, List<ParallelDim> order) {
        return of(attentionGrid(tp, cp, dp, pp), order, java.util.EnumSet.of(ParallelDim.CP, ParallelDim.DP));
    }

    /**
     * Ranks between consecutive members of each dimension's group in a job of these sizes laid out in {@code order}
     * (fastest first; null: the default): the product of the sizes before it; ep's is dp's (ep's ranks are counted in
     * dp's). The one home of the dimensions' spacing for the plan ({@link Estimator#strides}) and NET003's HSDP replicas
     * (derive/net AllReduceAnalysis: dp's, {@link HybridSync#replicaGroup}). A map the caller may change.
     */
    public static Map<ParallelDim, Long> strides(long tp, long cp, long dp, long pp, List<ParallelDim> order) {
        ToLongFunction<ParallelDim> size = attentionGrid(tp, cp, dp, pp);
        Map<ParallelDim, Long> s = new EnumMap<>(ParallelDim.class);
        long acc = 1;
        for (ParallelDim d : ParallelDim.completeOrder(order)) {
            s.put(d, acc);
            acc *= size.applyAsLong(d);
        }
        s.put(ParallelDim.EP, s.get(ParallelDim.DP));
        return s;
    }

    /** The attention grid's sizes: tp, cp, dp, pp, ep of one rank (its size is counted in dp's). */
    private static ToLongFunction<ParallelDim> attentionGrid(long tp, long cp, long dp, long pp) {
        return d -> switch (d) { case TP -> tp; case CP -> cp; case DP -> dp; case PP -> pp; default -> 1; };
    }

    /** The product of {@code size} over the dimensions before {@code dim} in {@code order}. */
    private static long stride(ToLongFunction<ParallelDim> size, List<ParallelDim> order, ParallelDim dim) {
        long stride = 1;
        for (ParallelDim d : ParallelDim.completeOrder(order)) {
            if (d == dim) break;
            stride *= size.applyAsLong(d);
        }
        return stride;
    }

    /**
     * The expert data-parallel group of an MoE job, edp ranks: the group the routed experts' gradients are reduced (and,
     * sharded, their parameters gathered) over ({@link ExpertDpSync}). Megatron-Core builds it from a rank generator of its
     * own, the expert grid: {@code expert_decoder_rank_generator = RankGenerator(tp=expert_tensor_parallel_size,
     * ep=expert_model_parallel_size, dp=expert_data_parallel_size, pp=pipeline_model_parallel_size, cp=1, order=order)},
     * the job's order with cp of one rank, and takes {@code get_ranks('dp')} as the expert data-parallel group
     * (megatron/core/parallel_state.py at commit 00caa53af30912914981c86f39db123961678bbd, initialize_model_parallel; "TODO:
     * support expert specific ordering": the order is the attention grid's). One dimension masked: always one strided
     * part, edp ranks the product of the expert sizes before dp apart (etp·ep in the default tp-cp-ep-dp-pp, etp·ep·pp in
     * --use-tp-pp-dp-mapping's tp-cp-ep-pp-dp). Sizes at least 1.
     */
    public static RankGroup expertDp(long etp, long ep, long edp, long pp, List<ParallelDim> order) {
        return of(expertGrid(etp, ep, edp, pp), order, java.util.EnumSet.of(ParallelDim.DP));
    }

    /**
     * The expert-parallel group of an MoE job, ep ranks: the group its token all-to-alls (or the allgather dispatcher's
     * gathers) run over, from the same expert grid as {@link #expertDp} ({@code get_ranks('ep')} of Megatron-Core's expert
     * RankGenerator, megatron/core/parallel_state.py at commit 00caa53af30912914981c86f39db123961678bbd: the expert model
     * parallel group). One dimension masked: one strided part, ep ranks the product of the expert sizes before ep apart (etp
     * in the default tp-cp-ep-dp-pp and in tp-cp-ep-pp-dp), whatever cp and tp are: MoE parallel folding lets ep span what cp
     * and dp span in the attention grid. Tp 2, cp 2, dp 8 (32 GPUs on four 8-GPU nodes), etp 1, ep 8, so edp 32 ÷ 8 = 4: the
     * attention grid's dp·cp group is 16 ranks 2 apart (0, 2, ..., 30: four nodes), but the expert group of rank 0 is ranks
     * 0–7, one node (the next 8–15, ...); reading ep inside dp (ranks tp·cp = 4 apart: 0, 4, ..., 28) spanned four nodes. The one home of the ep group for the plan's pricing ({@link Estimator}'s
     * ep stride, {@link MoeShape#epGroup}), its tier table ({@link TierTable#named}) and the placement drawing (derive/par
     * RankGrid). Sizes at least 1.
     */
    public static RankGroup expertEp(long etp, long ep, long edp, long pp, List<ParallelDim> order) {
        return of(expertGrid(etp, ep, edp, pp), order, java.util.EnumSet.of(ParallelDim.EP));
    }

    /**
     * Ranks between consecutive members of {@code dim}'s group in the expert grid ({@link #expertDp}'s sizes and order):
     * the product of the grid's sizes before it, whatever {@code dim}'s own size (an expert-parallel group's spacing,
     * MoeShape.epStride, is read where ep is 1 too).
     */
    static long expertStride(long etp, long ep, long edp, long pp, List<ParallelDim> order, ParallelDim dim) {
        return stride(expertGrid(etp, ep, edp, pp), order, dim);
    }

    /** The expert grid's sizes: tp as etp, ep, dp as edp, pp, cp of one rank (Megatron-Core's expert RankGenerator). */
    private static ToLongFunction<ParallelDim> expertGrid(long etp, long ep, long edp, long pp) {
        return d -> switch (d) { case TP -> etp; case EP -> ep; case DP -> edp; case PP -> pp; default -> 1; };
    }

    /**
     * The group of the dimensions {@code dims} in a grid of these sizes laid out in {@code order} (fastest first; null: the
     * default tp-cp-ep-dp-pp), as Megatron-Core's RankGenerator masks them: each dimension of more than one rank a part at
     * its stride in the whole order, neighbours merged into one part. The attention grid gives ep one rank (its size is
     * counted in dp's, {@link Estimator#strides}); the expert grid cp.
     */
    private static RankGroup of(ToLongFunction<ParallelDim> sizes, List<ParallelDim> order, Set<ParallelDim> dims) {
        List<Part> parts = new ArrayList<>();
        long stride = 1;
        for (ParallelDim d : ParallelDim.completeOrder(order)) {
            long size = sizes.applyAsLong(d);
            if (dims.contains(d) && size > 1) {
                Part last = parts.isEmpty() ? null : parts.get(parts.size() - 1);
                if (last != null && last.size() * last.stride() == stride) parts.set(parts.size() - 1, new Part(last.size() * size, last.stride()));
                else parts.add(new Part(size, stride));
            }
            stride *= size;
        }
        return parts.isEmpty() ? strided(1, 1) : new RankGroup(parts);
    }

    /** The group's ranks. */
    public long n() {
        // by index: a for-each made an iterator per call, and the estimate asks each group's size several times per layout
        // priced (217 MB of iterators in 8 rounds of the hybrid plan, 2026-12-07)
        long n = 1;
        for (int i = 0; i < parts.size(); i++) n *= parts.get(i).size();
        return n;
    }

    /** One part: ranks evenly spaced. */
    public boolean strided() {
        return parts.size() == 1;
    }

    /** The spacing of the first (fastest) part. */
    public long firstStride() {
        return parts.get(0).stride();
    }

    /** The consecutive ranks a tile of such groups spans: the slowest part's size × stride. */
    public long block() {
        Part p = parts.get(parts.size() - 1);
        return p.size() * p.stride();
    }

    /**
     * The group's members whose place along one of its dimensions, {@code size} ranks {@code stride} apart (a part, or a
     * factor of one), is below {@code keep}: an HSDP shard group, the dp·cp group's every cp rank with dp's first shard
     * ranks (torchtitan's dp_shard_cp mesh dimension; {@link HybridSync#shardGroup}). Always a grid of strided parts,
     * whatever the rank order: the first shard·cp members in the group's own order are none when dp is faster than cp
     * and shard·cp is no multiple of dp (parts dp 4 then cp 3, shard 2: the first 6 are 4 ranks of one cp rank and 2 of
     * the next). The group unchanged when no part holds that dimension (it has one rank); {@code keep} at most {@code size}.
     */
    public RankGroup within(long size, long stride, long keep) {
        if (size <= 1 || keep >= size) return this;
        List<Part> split = new ArrayList<>();
        boolean found = false;
        for (Part p : parts) {
            long end = p.size() * p.stride();
            if (!found && stride >= p.stride() && stride % p.stride() == 0 && size * stride <= end && end % (size * stride) == 0) {
                found = true;
                split.add(new Part(stride / p.stride(), p.stride()));
                split.add(new Part(Math.max(1, keep), stride));
                split.add(new Part(end / (size * stride), size * stride));
            } else split.add(p);
        }
        if (!found) return this;
        List<Part> out = new ArrayList<>();
        for (Part p : split) {
            if (p.size() <= 1) continue;
            Part last = out.isEmpty() ? null : out.get(out.size() - 1);
            if (last != null && last.size() * last.stride() == p.stride()) out.set(out.size() - 1, new Part(last.size() * p.size(), last.stride()));
            else out.add(p);
        }
        return out.isEmpty() ? strided(1, firstStride()) : new RankGroup(out);
    }

    /**
     * Members of one group on one unit (node or scale-up domain) of {@code unit} GPUs, at least 1: the product of each
     * part's ({@link Tier#membersPerNode(long, long, long, long)}, a part straddling a boundary counted by its fewest on
     * one side). Exact when the unit is a multiple of each part's stride below it, as on every node of the catalog.
     */
    public long membersPerUnit(long unit, long gpus) {
        if (strided()) return Tier.membersPerNode(parts.get(0).size(), parts.get(0).stride(), unit, gpus);
        long m = 1;
        for (Part p : parts) m *= Tier.membersPerNode(p.size(), p.stride(), unit, gpus);
        return Math.max(1, Math.min(n(), m));
    }
}
