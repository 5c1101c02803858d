package dev.gpulint.derive.net;

import dev.gpulint.catalog.Catalog;
import dev.gpulint.core.Span;
import dev.gpulint.derive.Estimates;
import dev.gpulint.derive.Facts;
import dev.gpulint.derive.par.Placement;
import dev.gpulint.derive.Resolved;
import dev.gpulint.facts.AllReduceFact;
import dev.gpulint.spec.Specs;
import java.util.Locale;

/**
 * NET003's analysis: one step's gradient all-reduce over the data-parallel ranks, on the link the
 * first data-parallel group uses (NVLink, PCIe or the network), against the step time.
 */
public final class AllReduceAnalysis {
    private AllReduceAnalysis() {}

    public static void job(Resolved.Job r, Catalog catalog, Facts out) {
        Specs.Job j = r.spec();
        Resolved.Group g = r.group();
        long n = r.dpEffective();
        long gpn = r.gpusPerNode();
        if (g == null || n <= 1 || !r.modelSizesKnown() || r.zeroStage() < 0 || j.model() == null || j.model().parameters() == null || gpn <= 0) return;
        double params = j.model().parameters().value();
        String dtype = j.model().dtype() == null ? null : j.model().dtype().value().toLowerCase(Locale.ROOT);
        int bytesPerGrad = dtype != null && (dtype.equals("fp32") || dtype.equals("float32")) ? 4 : 2;
        long zero = r.zeroStage();
        double size = params / ((double) r.tp() * r.pp()) * bytesPerGrad;
        double volumeFactor = zero >= 3 ? 1.5 : 1;

        // where the first data-parallel group sits: ranks 0, s, 2s, ... with s the dp stride of the rank order
        long stride = 1;
        for (String dim : r.order()) {
            if (dim.equals("dp")) break;
            stride = Placement.mulSat(stride, switch (dim) { case "tp" -> r.tp(); case "cp" -> r.cp(); case "pp" -> r.pp(); default -> 1; });
        }
        long domain = Math.max(1, g.domainSize());
        long last = Placement.mulSat(n - 1, stride);
        boolean crossesNodes = last >= gpn || last == Long.MAX_VALUE;
        boolean sameDomain = g.scaleUpDomain() && Placement.domainOf(0, gpn, domain) == Placement.domainOf(last, gpn, domain);
        double bw;
        AllReduceFact.Link link;
        int generation = 0;
        Span related = null;
        long nics = 0;
        String nicName = null;
        long ringsPerNode = 1;
        double nicShare = 0, pcieCap = 0;
        int capGeneration = 0;
        long capLanes = 16, membersOnNode = 0;
        Catalog.Gpu gpu = g.gpu();
        if (sameDomain && gpu != null && gpu.hasNvlink()) {
            bw = catalog.nvlinkBidirectional(gpu) / 2;
            link = AllReduceFact.Link.NVLINK;
            generation = gpu.nvlinkGeneration();
        } else if (sameDomain && gpu != null && gpu.infinityFabric() && gpu.scaleUpBidirectional() > 0) {
            bw = gpu.scaleUpBidirectional() / 2;
            link = AllReduceFact.Link.INFINITY_FABRIC;
        } else if (!crossesNodes) {
            if (gpu == null || catalog.pcie(gpu.pcieGeneration()).isEmpty()) return;
            bw = catalog.pcie(gpu.pcieGeneration()).get().perDirection();
            link = AllReduceFact.Link.PCIE;
            generation = gpu.pcieGeneration();
        } else {
            double nodeBw = 0;
            for (Specs.Nic x : g.spec().nics()) {
                if (x.speed() == null) continue;
                long c = x.count() == null ? 1L : x.count().value();
                nodeBw += x.speed().value().bytesPerSecond() * c;
                nics += c;
                if (nicName == null) {
                    nicName = x.speed().value().written() + (x.model() != null ? " " + x.model().value() : "");
                    related = x.speed().span();
                }
            }
            if (nodeBw <= 0) return;
            long membersPerNode = Math.max(1, Math.min(n, stride >= gpn ? 1 : gpn / stride));
            ringsPerNode = Math.max(1, gpn / membersPerNode);
            nicShare = nodeBw / ringsPerNode;
            bw = nicShare;
            link = AllReduceFact.Link.NETWORK;
            // a GPU reaches the NICs through its own PCIe link: the ring's GPUs on a node move at most
            // their links' per-direction rate to the network, however many NICs the node has
            Specs.Pcie pc = g.spec().pcie();
            capGeneration = pc != null && pc.generation() != null ? (int) (long) pc.generation().value()
                    : gpu != null ? gpu.pcieGeneration() : 0;
            if (pc != null && pc.lanes() != null && pc.lanes().value() > 0) capLanes = pc.lanes().value();
            var gen = catalog.pcie(capGeneration);
            if (gen.isPresent() && (gpu == null || gpu.form() != Catalog.Form.SUPERCHIP)) {
                membersOnNode = membersPerNode;
                pcieCap = gen.get().perDirection() * capLanes / 16.0 * membersPerNode;
                bw = Math.min(bw, pcieCap);
            }
        }
        double seconds = Estimates.ringAllReduceSeconds(size, n, bw) * volumeFactor;
        Specs.Parallelism p = j.parallelism();
        Span dpSpan = p == null || p.dp() == null ? null : p.dp().span();
        Span parSpan = p == null ? null : p.keySpan();
        out.add(new AllReduceFact(r.name(), j.file(), params, r.tp(), r.pp(), bytesPerGrad, dtype, size, n, volumeFactor,
                2.0 * (n - 1) / n * size * volumeFactor, link, generation, bw, nics, nicName, ringsPerNode, g.name(), seconds,
                j.stepTime() == null ? 0 : j.stepTime().value(),
                dpSpan != null ? dpSpan : parSpan != null ? parSpan : j.model().parameters().span(), related)
                .pcieCap(nicShare, pcieCap, capGeneration, capLanes, membersOnNode));
    }
}
