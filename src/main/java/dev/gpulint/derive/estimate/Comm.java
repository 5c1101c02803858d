package dev.gpulint.derive.estimate;

import dev.gpulint.spec.ParallelDim;
import java.util.List;
import java.util.Map;

/**
 * The estimate's communication terms: each dimension's collectives and sends priced by {@link CollectiveCost} on the
 * tier its group runs on, kept as numbers ({@link Estimate.Traffic}) with the tier per dimension and as the breakdown's
 * terms ({@link Term.Collectives}, {@link Term.Sends}). Made with no lists (the search's score, {@link Estimator#score}), it
 * prices alike and keeps neither: no record, and no text ({@code what} may then be null).
 */
final class Comm {
    private final Hardware hw;
    private final Map<ParallelDim, Long> stride;
    private final List<Term> terms;
    private final List<Estimate.Traffic> traffic;
    private final Map<ParallelDim, Tier> tiers;

    /** @param terms the breakdown's terms and {@code traffic} its records; both null: kept by neither (a score) */
    Comm(Hardware hw, Map<ParallelDim, Long> stride, List<Term> terms, List<Estimate.Traffic> traffic, Map<ParallelDim, Tier> tiers) {
        this.hw = hw;
        this.stride = stride;
        this.terms = terms;
        this.traffic = traffic;
        this.tiers = tiers;
    }

    /** {@code count} collectives {@code c} of {@code bytes} each over a dimension's group of n. Seconds. */
    double collective(ParallelDim dim, long n, double count, double bytes, Collective c, String what) {
        return collective(dim, n, stride.get(dim), count, bytes, c, what);
    }

    /**
     * {@link #collective} over a sub-group of a dimension whose members are {@code groupStride} ranks apart (hybrid
     * sharding's shard group and replicas: {@link HybridShard}); the dimension's tier becomes this group's.
     */
    double collective(ParallelDim dim, long n, long groupStride, double count, double bytes, Collective c, String what) {
        return collective(dim, RankGroup.strided(n, groupStride), count, bytes, c, what);
    }

    /**
     * {@link #collective} over a group of several strided parts ({@link RankGroup}: the dp·cp group with a dimension between
     * cp and dp in the rank order), on the tier its widest span reaches; the dimension's tier becomes this group's.
     */
    double collective(ParallelDim dim, RankGroup g, double count, double bytes, Collective c, String what) {
        if (g.n() <= 1 || count <= 0) return 0;
        return count * priced(dim, g, count, bytes, c, what).seconds();
    }

    /**
     * {@link #collective} as its price, for a caller that prices several collectives as one quantity ({@link HybridSync}): the
     * group has more than one rank and the count is above 0.
     */
    CollectiveCost priced(ParallelDim dim, RankGroup g, double count, double bytes, Collective c, String what) {
        CollectiveCost k = apart(dim, g, count, bytes, c, what);
        tiers.put(dim, k.tier());
        return k;
    }

    /**
     * {@link #collective} over a group along {@code dim} that is not the dimension's own (the embedding group: each pipeline's
     * first and last stage), its tier left to the dimension's group: the price, its tier for the caller to add its time to.
     * {@link #collective} is this plus the dimension's tier.
     */
    CollectiveCost apart(ParallelDim dim, RankGroup g, double count, double bytes, Collective c, String what) {
        return apart(dim, g, g.n(), count, bytes, c, what);
    }

    /** {@link #apart} over a ring of {@code n} ranks no RankGroup lays out, priced on the tier and NICs of {@code reach}. */
    CollectiveCost apart(ParallelDim dim, RankGroup reach, long n, double count, double bytes, Collective c, String what) {
        CollectiveCost k = hw.price(c, reach, n, bytes);
        if (terms != null) {
            traffic.add(new Estimate.Traffic(dim, what, count, k));
            terms.add(new Term.Collectives(dim, count, what, n, k, hw.links(), count * k.seconds()));
        }
        return k;
    }

    /**
     * {@code count} passes of the flex dispatcher over a dimension's group of n ({@link FlexDispatch}): across nodes as it
     * moves tokens ({@code tokenBytes} a token's 16-bit hidden state × the tokens per rank), else as {@link #collective}'s
     * all-to-all of {@code bytes}. Seconds.
     */
    double flex(ParallelDim dim, long n, double count, double bytes, double tokenBytes, long experts, long topK, long groups,
                long groupTopK, FlexDispatch.Backend backend, String what) {
        RankGroup g = RankGroup.strided(n, stride.get(dim));
        if (g.n() <= 1 || count <= 0) return 0;
        FlexDispatch.Priced p = FlexDispatch.price(hw.links(), hw.efficiency(), g, experts, topK, groups, groupTopK, bytes, tokenBytes,
                backend);
        if (p == null) return collective(dim, g, count, bytes, Collective.ALL_TO_ALL, what);
        CollectiveCost k = p.cost();
        tiers.put(dim, k.tier());
        double s = count * k.seconds();
        if (terms == null) return s;
        traffic.add(new Estimate.Traffic(dim, "flex dispatch/combine per micro-batch (" + (backend == FlexDispatch.Backend.HYBRIDEP
                ? "HybridEP" : "DeepEP") + ": remote " + (p.deepEpGroups() ? "8-GPU groups" : "nodes") + " over RDMA, NVLink forwarding)",
                count, k));
        terms.add(new Term.Flex(dim, count, n, p.traffic(), tokenBytes, backend, p.deepEpGroups(), k, hw.links(), s));
        return s;
    }

    /** The tier group {@code g} runs on in this job ({@link Tier#of(RankGroup, long, long, boolean, long)}). */
    Tier tier(RankGroup g) {
        Links k = hw.links();
        return Tier.of(g, k.gpusPerNode(), k.domainSize(), k.scaleUp(), k.jobGpus());
    }

    /**
     * {@code bytes} sent by each rank of the dimension's group to its neighbour per micro-batch, in {@code count} sends of
     * equal size (each pays NCCL's latency once: {@link NcclLatency}). Seconds.
     */
    double p2p(ParallelDim dim, long n, double count, double bytes, String what) {
        if (n <= 1 || bytes <= 0 || count <= 0) return 0;
        CollectiveCost k = hw.price(Collective.SEND, n, stride.get(dim), bytes / count);
        tiers.put(dim, k.tier());
        double s = count * k.seconds();
        if (terms == null) return s;
        traffic.add(new Estimate.Traffic(dim, what, count, k));
        terms.add(new Term.Sends(dim, what, count, bytes, k, hw.links(), s));
        return s;
    }
}
