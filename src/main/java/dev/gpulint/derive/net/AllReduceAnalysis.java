package dev.gpulint.derive.net;

import dev.gpulint.catalog.Catalog;
import dev.gpulint.core.Span;
import dev.gpulint.derive.estimate.Collective;
import dev.gpulint.derive.estimate.CollectiveCost;
import dev.gpulint.derive.estimate.Efficiency;
import dev.gpulint.derive.estimate.GradientReduce;
import dev.gpulint.derive.estimate.Hardwares;
import dev.gpulint.derive.estimate.HybridSync;
import dev.gpulint.derive.estimate.Links;
import dev.gpulint.derive.estimate.RankGroup;
import dev.gpulint.derive.estimate.StateShards;
import dev.gpulint.derive.estimate.Tier;
import dev.gpulint.derive.Facts;
import dev.gpulint.derive.par.Placement;
import dev.gpulint.derive.Resolved;
import dev.gpulint.facts.AllReduceFact;
import dev.gpulint.spec.ParallelDim;
import dev.gpulint.spec.Specs;
import java.util.Locale;
import java.util.Map;

/**
 * NET003's analysis: one step's gradient all-reduce over the data-parallel group, dp·cp ranks as the rank order lays
 * them out ({@link RankGroup#dpCp}, the group the plan's data-parallel term is priced over), on the link the first such
 * group uses (NVLink, PCIe or the network: the tier its widest span reaches), against the step time. The group, the
 * link, its rate and the gradients' bytes are the plan's ({@link Links}, {@link CollectiveCost}, {@link GradientReduce}): NET003 compares the
 * time at line rate and prints the estimate beside it at the plan's bus bandwidth: NCCL's usual efficiency (a project's
 * {@code plan:} may override it), or the nccl-tests run linked to the node group. A NIC speed 8× off its catalog port
 * speed (UNIT001 in the same run) is priced as the port speed it most likely means, and the finding says so.
 */
public final class AllReduceAnalysis {
    private AllReduceAnalysis() {}

    /**
     * @param measured  the nccl-tests bus bandwidths linked to the job's node group ({@link NcclMeasured}), which price the
     *                  estimate in place of line rate × efficiency, as the plan's
     * @param overrides a project's {@code plan:} efficiencies over the catalog's, as the plan's (Hardwares.efficiency)
     */
    public static void job(Resolved.Job r, Catalog catalog, Map<Tier, Double> measured, Map<String, Double> overrides, Facts out) {
        Specs.Job j = r.spec();
        Resolved.Group g = r.group();
        long gpn = r.gpusPerNode();
        Catalog.Gpu gpu = g == null ? null : g.gpu();
        // the job's GPUs, tp·cp·pp·dp, bounded: a product past a long is no job (the group below multiplies within it)
        long gpus = Placement.mulSat(Placement.mulSat(r.tp(), r.cp()), Placement.mulSat(r.pp(), Math.max(0, r.dpEffective())));
        if (g == null || gpu == null || r.dpEffective() <= 0 || !r.modelSizesKnown() || gpus == Long.MAX_VALUE || r.zeroStage() < 0
                || j.model() == null || j.model().parameters() == null || gpn <= 0) return;
        // the gradients are reduced over dp·cp ranks laid out as the rank order lays them (Megatron-Core's dp-cp group),
        // the group the plan prices its data-parallel term over: one function, RankGroup.dpCp
        RankGroup group = RankGroup.dpCp(r.tp(), r.cp(), r.dpEffective(), r.pp(), r.order());
        long n = group.n();
        if (n <= 1) return;
        double params = j.model().parameters().value();
        String dtype = j.model().dtype() == null ? null : j.model().dtype().value().toLowerCase(Locale.ROOT);
        long zero = r.zeroStage();
        GradientReduce grads = GradientReduce.of(j, zero);
        int bytesPerGrad = (int) grads.bytes();
        double size = params / ((double) r.tp() * r.pp()) * bytesPerGrad;
        // hybrid sharding (HSDP): the shard group's gathers and reduce-scatters and the replicas' all-reduce, priced by the
        // plan's function (HybridSync), not the whole dp·cp group at ZeRO-3's 1.5; at stage 2 (_HYBRID_SHARD_ZERO2) too
        long dp = r.dpEffective();
        long shardRanks = HybridSync.priced(zero) ? StateShards.shardRanks(r, dp) : dp;
        boolean hybrid = shardRanks < dp;
        double volumeFactor = zero >= 3 && !hybrid ? 1.5 : 1;

        // the job's ranks fill its nodes and racks in order, as the plan's (Estimator: Hardware.forJob)
        Links links = Links.of(catalog, gpu, g, gpn).forJob(gpus);
        Efficiency eff = Hardwares.efficiency(catalog, gpu, overrides).orElse(null);
        HybridSync hsLine = null, hsEst = null;
        CollectiveCost line, est;
        if (hybrid) {
            long stride = RankGroup.strides(r.tp(), r.cp(), dp, r.pp(), r.order()).get(ParallelDim.DP);      // the plan's (Estimator.strides)
            Specs.Model mo = j.model();
            double units = HybridSync.units(mo.layers() == null ? 0 : mo.layers().value(), r.pp());
            double gather = size / bytesPerGrad * HybridSync.GATHER_BYTES;
            hsLine = HybridSync.price((c, gr, count, bytes, what) -> CollectiveCost.price(links, null, Map.of(), c, gr, bytes), group,
                    shardRanks, r.cp(), dp / shardRanks, stride, size / bytesPerGrad, gather, bytesPerGrad, units, (int) zero, r.pp(), 1);
            if (eff != null) hsEst = HybridSync.price((c, gr, count, bytes, what) -> CollectiveCost.price(links, eff, measured, c, gr, bytes),
                    group, shardRanks, r.cp(), dp / shardRanks, stride, size / bytesPerGrad, gather, bytesPerGrad, units, (int) zero, r.pp(), 1);
            // the replicas' all-reduce names the link the message words as the job's (its NICs when it leaves the node)
            line = hsLine.allReduce();
            est = hsEst == null ? null : hsEst.allReduce();
            if (links.transport() == Links.Transport.ASSUMED && hsLine.reduceScatter().tier() == Tier.NETWORK) return;
        } else {
            line = CollectiveCost.price(links, null, Map.of(), Collective.ALL_REDUCE, group, size);
            est = eff == null ? null : CollectiveCost.price(links, eff, measured, Collective.ALL_REDUCE, group, size);
        }
        if (line.tier() == Tier.NETWORK && links.transport() == Links.Transport.ASSUMED) return;    // NET003 prices declared NICs only
        AllReduceFact.Link link = linkOf(line.tier(), links);
        int generation = generation(line.tier(), links);
        boolean network = line.tier() == Tier.NETWORK;
        Specs.Pcie pc = g.spec().pcie();
        long lanes = pc != null && pc.lanes() != null && pc.lanes().value() > 0 ? pc.lanes().value() : 16;
        // NET003 states a bandwidth floor, the gradient's bytes over the link: NCCL's latency (NcclLatency), which the plan's
        // bucketed estimate pays per collective, is left out of this one all-reduce of the whole gradient
        double seconds = hybrid ? hsLine.shardLineSeconds() + hsLine.replicaLineSeconds() : (line.idealSeconds() - line.latency()) * volumeFactor;
        Specs.Parallelism p = j.parallelism();
        Span dpSpan = p == null || p.dp() == null ? null : p.dp().span();
        Span parSpan = p == null ? null : p.keySpan();
        AllReduceFact fact = new AllReduceFact(r.name(), j.file(), params, r.tp(), r.pp(), bytesPerGrad, dtype, size, n, volumeFactor,
                hybrid ? hsLine.shardSentBytes() + hsLine.replicaSentBytes() : line.bytesPerRank() * volumeFactor, link, generation, line.lineRate(), network ? links.nics() : 0,
                network ? links.nicName() : null, network ? Math.max(1, gpn / line.local()) : 1, g.name(), seconds,
                j.stepTime() == null ? 0 : j.stepTime().value(),
                dpSpan != null ? dpSpan : parSpan != null ? parSpan : j.model().parameters().span(), network ? links.nicSpan() : null)
                .pcieCap(network ? links.nicPerGpu() * line.local() : 0, network && links.hostLinked() ? links.pciePerDirection() * line.local() : 0,
                        network ? links.pcieGeneration() : 0, lanes, network ? line.local() : 0)
                .estimate(grads.why(), est == null ? 0 : hybrid ? hsEst.seconds() : est.bandwidthSeconds() * volumeFactor,
                        est == null ? 0 : est.efficiency(), links.transport() == Links.Transport.TCP && network);
        if (est != null && (est.measured() || hybrid && hsEst.reduceScatter().measured())) fact.measured();
        if (hybrid) {
            // the shard group's link and the replicas': each group on the tier its widest span reaches, as the plan's
            CollectiveCost in = hsLine.reduceScatter();
            fact.hybrid(shardRanks, dp / shardRanks, hsLine.units(), hsLine.gathersPerUnit(), linkOf(in.tier(), links), generation(in.tier(), links), in.lineRate(),
                    hsLine.shardSentBytes(), hsLine.replicaSentBytes(), size / (shardRanks * Math.max(1, r.cp())),
                    hsLine.shardLineSeconds(), hsLine.replicaLineSeconds(),
                    hsEst == null ? 0 : hsEst.shardSeconds(), hsEst == null ? 0 : hsEst.replicaSeconds()).perStep(hsLine.perStep());
        }
        // a NIC speed UNIT001 calls 8x off is priced as the port speed it most likely means (Links), and NET003 says so
        fact.group(r.dpEffective(), r.cp());
        if (network && links.misread() != null) fact.misread(links.misread().written(), links.misread().meant(), links.misread().label());
        out.add(fact);
    }

    private static AllReduceFact.Link linkOf(Tier t, Links links) {
        return switch (t) {
            case NVLINK -> links.infinityFabric() ? AllReduceFact.Link.INFINITY_FABRIC : AllReduceFact.Link.NVLINK;
            case PCIE -> AllReduceFact.Link.PCIE;
            case NETWORK -> AllReduceFact.Link.NETWORK;
        };
    }

    private static int generation(Tier t, Links links) {
        return switch (t) { case NVLINK -> links.nvlinkGeneration(); case PCIE -> links.pcieGeneration(); default -> 0; };
    }
}
