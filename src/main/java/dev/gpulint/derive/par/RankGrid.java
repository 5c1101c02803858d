package dev.gpulint.derive.par;

import dev.gpulint.derive.estimate.MoeShape;
import dev.gpulint.derive.estimate.RankGroup;
import dev.gpulint.spec.ParallelDim;
import java.util.List;

/**
 * Where each rank sits in a job's parallel grid, under its rank order (fastest first; Megatron's default
 * tp-cp-ep-dp-pp): the coordinates of a rank and the stride between neighbours of a dimension. The dense grid
 * (attention, dense MLP) is tp × cp × dp × pp, and ep does not shape it ({@link Placement#tpStride}); the expert
 * grid is Megatron-Core's etp × ep × expert-dp × pp over the same ranks, expert-dp = tp·cp·dp ÷ (etp·ep), laid out by
 * the same order without cp: an ep group is the expert grid's ({@link RankGroup#expertEp}, the group the plan prices the
 * all-to-alls over). Nodes and NVLink domains come from {@link Placement}: rank r sits on node r ÷ GPUs per node.
 */
public final class RankGrid {

    private final List<ParallelDim> order;
    private final long tp, cp, ep, dp, pp;
    private final RankGroup epGroup;

    /**
     * {@code order}: the rank order, fastest first, naming each of tp, cp, ep, dp, pp once (missing ones go last);
     * {@code etp}: the experts' tensor-parallel size (0: tp).
     */
    public RankGrid(List<ParallelDim> order, long tp, long cp, long ep, long dp, long pp, long etp) {
        if (tp < 1 || cp < 1 || ep < 1 || dp < 1 || pp < 1 || etp < 0) throw new IllegalArgumentException("every size is at least 1");
        this.order = ParallelDim.completeOrder(order);
        this.tp = tp; this.cp = cp; this.ep = ep; this.dp = dp; this.pp = pp;
        long e = etp == 0 ? tp : etp;
        // expert data-parallel ranks tp·cp·dp ÷ (etp·ep) (MoeShape's ExpertShare); a grid Megatron refuses (not whole) takes 1
        MoeShape.ExpertShare share = MoeShape.ExpertShare.of(tp, e, ep, (double) Placement.mulSat(cp, dp));
        this.epGroup = RankGroup.expertEp(e, ep, share.whole() ? (long) share.ranks() : 1, pp, this.order);
    }

    public List<ParallelDim> order() { return order; }

    /** Ranks in the grid: tp·cp·dp·pp. */
    public long world() { return Placement.mulSat(Placement.mulSat(tp, cp), Placement.mulSat(dp, pp)); }

    /** The size of a dimension. */
    public long size(ParallelDim dim) {
        return switch (dim) {
            case TP -> tp; case CP -> cp; case EP -> ep; case DP -> dp; case PP -> pp;
            default -> throw new IllegalArgumentException("no place in a rank order: " + dim);
        };
    }

    /**
     * The distance in ranks between a rank and its next neighbour of {@code dim}: the product of the sizes of the
     * dimensions before it in the order (the dense grid's, ep counting 1; for ep, the expert grid's group,
     * {@link RankGroup#expertEp}).
     */
    public long stride(ParallelDim dim) {
        if (dim == ParallelDim.EP) return epGroup.firstStride();
        long s = 1;
        for (ParallelDim d : order) {
            if (d == dim) return s;
            if (d != ParallelDim.EP) s = Placement.mulSat(s, size(d));
        }
        throw new IllegalStateException("unreachable: every dimension is in the order");
    }

    /** The coordinate of {@code rank} in {@code dim}: 0 to size − 1. */
    public long coordinate(long rank, ParallelDim dim) {
        return rank / stride(dim) % size(dim);
    }

    /** The next member of {@code rank}'s group of {@code dim} (coordinate + 1), or −1 for the group's last member. */
    public long next(long rank, ParallelDim dim) {
        return coordinate(rank, dim) + 1 < size(dim) ? rank + stride(dim) : -1;
    }

    /** The first member (coordinate 0) of {@code rank}'s group of {@code dim}. */
    public long first(long rank, ParallelDim dim) {
        return rank - coordinate(rank, dim) * stride(dim);
    }
}
