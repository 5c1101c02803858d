package dev.gpulint.derive.net;

import dev.gpulint.catalog.Catalog;
import dev.gpulint.core.Span;
import dev.gpulint.derive.Estimates;
import dev.gpulint.derive.Facts;
import dev.gpulint.derive.par.Placement;
import dev.gpulint.derive.Resolved;
import dev.gpulint.derive.Thresholds;
import dev.gpulint.facts.EstimateFact;
import dev.gpulint.spec.Quantities;
import dev.gpulint.spec.Specs;
import java.util.Locale;

import static dev.gpulint.derive.Text.count;
import static dev.gpulint.derive.Text.gbDecimal;
import static dev.gpulint.derive.Text.gbs;

/**
 * NET003's analysis: one step's gradient all-reduce over the data-parallel ranks, on the link the
 * first data-parallel group uses (NVLink, PCIe or the network), against the step time.
 */
public final class AllReduceAnalysis {
    private AllReduceAnalysis() {}

    public static void job(Resolved.Job r, Catalog catalog, Thresholds thresholds, Facts out) {
        Specs.Job j = r.spec();
        Resolved.Group g = r.group();
        long n = r.dpEffective();
        long gpn = r.gpusPerNode();
        if (g == null || n <= 1 || j.model() == null || j.model().parameters() == null || gpn <= 0) return;
        double params = j.model().parameters().value();
        String dtype = j.model().dtype() == null ? null : j.model().dtype().value().toLowerCase(Locale.ROOT);
        int bytesPerGrad = dtype != null && (dtype.equals("fp32") || dtype.equals("float32")) ? 4 : 2;
        String dtypeText = dtype == null ? "2-byte gradients (bf16 assumed: model.dtype is not given)" : dtype + " gradients";
        long zero = j.optimizer() == null || j.optimizer().zeroStage() == null ? 0 : j.optimizer().zeroStage().value();
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
        boolean sameDomain = g.nvlinkDomain() && Placement.domainOf(0, gpn, domain) == Placement.domainOf(last, gpn, domain);
        double bw;
        String link;
        Span related = null;
        String relatedText = null;
        Catalog.Gpu gpu = g.gpu();
        if (sameDomain && gpu != null && gpu.hasNvlink()) {
            bw = catalog.nvlinkBidirectional(gpu) / 2;
            link = "NVLink" + gpu.nvlinkGeneration() + " (" + gbs(bw) + " per direction)";
        } else if (!crossesNodes) {
            if (gpu == null || catalog.pcie(gpu.pcieGeneration()).isEmpty()) return;
            bw = catalog.pcie(gpu.pcieGeneration()).get().perDirection();
            link = "PCIe Gen" + gpu.pcieGeneration() + " (" + gbs(bw) + " per direction)";
        } else {
            double nodeBw = 0;
            long nics = 0;
            String nicName = null;
            for (Specs.Nic x : g.spec().nics()) {
                if (x.speed() == null) continue;
                long c = x.count() == null ? 1L : x.count().value();
                nodeBw += x.speed().value().bytesPerSecond() * c;
                nics += c;
                if (nicName == null) {
                    nicName = x.speed().value().written() + (x.model() != null ? " " + x.model().value() : "");
                    related = x.speed().span();
                    relatedText = "NIC speed of node group '" + g.name() + "'";
                }
            }
            if (nodeBw <= 0) return;
            long membersPerNode = Math.max(1, Math.min(n, stride >= gpn ? 1 : gpn / stride));
            long ringsPerNode = Math.max(1, gpn / membersPerNode);
            bw = nodeBw / ringsPerNode;
            link = "the network (" + nics + " × " + nicName + " per node" + (ringsPerNode > 1 ? ", shared by "
                    + ringsPerNode + " data-parallel rings: " + gbs(bw) + " each" : ": " + gbs(bw)) + ")";
        }
        double seconds = Estimates.ringAllReduceSeconds(size, n, bw) * volumeFactor;
        double budget;
        String budgetText;
        if (j.stepTime() != null) {
            budget = j.stepTime().value();
            budgetText = "the step time of " + Quantities.format(budget) + " s";
        } else {
            budget = thresholds.allreduceSeconds();
            budgetText = Quantities.format(budget) + " s (no step_time given)";
        }
        String text = "each step all-reduces S = " + gbDecimal(size) + " of gradients per GPU (" + count(params)
                + " parameters ÷ (tp " + r.tp() + " × pp " + r.pp() + ") × " + bytesPerGrad + " bytes, " + dtypeText
                + ") over N = " + n + " data-parallel ranks; a ring all-reduce sends 2(N−1)/N × S = "
                + gbDecimal(2.0 * (n - 1) / n * size * volumeFactor) + (volumeFactor > 1 ? " (×1.5 for ZeRO-3)" : "")
                + " per GPU over " + link + ": about " + Quantities.format2(seconds) + " s, against " + budgetText;
        Specs.Parallelism p = j.parallelism();
        Span dpSpan = p == null || p.dp() == null ? null : p.dp().span();
        Span parSpan = p == null ? null : p.keySpan();
        out.add(new EstimateFact(r.name(), j.file(), EstimateFact.ALLREDUCE, seconds, budget, text,
                dpSpan != null ? dpSpan : parSpan != null ? parSpan : j.model().parameters().span(), related, relatedText));
    }
}
