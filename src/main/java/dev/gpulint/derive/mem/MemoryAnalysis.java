package dev.gpulint.derive.mem;

import dev.gpulint.catalog.Catalog;
import dev.gpulint.core.Span;
import dev.gpulint.derive.Estimates;
import dev.gpulint.derive.Facts;
import dev.gpulint.derive.Resolved;
import dev.gpulint.derive.Thresholds;
import dev.gpulint.facts.EstimateFact;
import dev.gpulint.spec.Quantities;
import dev.gpulint.spec.Specs;

import static dev.gpulint.derive.Text.count;
import static dev.gpulint.derive.Text.gbDecimal;
import static dev.gpulint.derive.Text.gib;

/** The MEM family's analysis: model states per GPU (weights, gradients, optimizer states) against GPU memory. */
public final class MemoryAnalysis {
    private MemoryAnalysis() {}

    public static void job(Resolved.Job r, Thresholds thresholds, Facts out) {
        Specs.Job j = r.spec();
        Resolved.Group g = r.group();
        if (g == null || g.spec().gpu() == null || j.model() == null || j.model().parameters() == null) return;
        Catalog.Gpu gpu = g.gpu();
        Specs.NodeGroup group = g.spec();
        double capacity;
        Span capSpan;
        String capText;
        if (group.gpu().memory() != null && g.memoryMatches()) {
            capacity = gpu != null ? gpu.memoryBytes() : group.gpu().memory().value().bytes();
            capSpan = group.gpu().memory().span();
            capText = "memory of the GPUs of node group '" + g.name() + "'";
        } else if (gpu != null) {
            capacity = gpu.memoryBytes();
            capSpan = group.gpu().model() == null ? null : group.gpu().model().span();
            capText = gpu.name() + ": " + gib(gpu.memoryBytes()) + " of memory";
        } else {
            return;
        }
        double params = j.model().parameters().value();
        long zero = j.optimizer() == null || j.optimizer().zeroStage() == null ? 0 : j.optimizer().zeroStage().value();
        boolean overridden = j.optimizer() != null && j.optimizer().bytesPerParameter() != null;
        double bpp = overridden ? j.optimizer().bytesPerParameter().value() : 16;
        long dp = r.dpEffective();
        if (zero > 0 && dp <= 0) return;
        Estimates.StateBytes sb = Estimates.StateBytes.of(bpp);
        double perGpu = Estimates.modelStatesPerGpu(params, sb, r.tp(), r.pp(), dp, zero);
        StringBuilder t = new StringBuilder();
        t.append("model states need ").append(gbDecimal(perGpu)).append(" per GPU: ").append(count(params))
         .append(" parameters × ").append(Quantities.format(bpp)).append(" bytes (")
         .append(Quantities.format(sb.weights())).append(" weights + ").append(Quantities.format(sb.gradients()))
         .append(" gradients + ").append(Quantities.format(sb.optimizer())).append(" optimizer states")
         .append(overridden ? ", from optimizer.bytes_per_parameter" : ", mixed-precision Adam per the ZeRO paper")
         .append(") ÷ (tp ").append(r.tp()).append(" × pp ").append(r.pp()).append(")");
        if (zero > 0) {
            t.append(", with ZeRO-").append(zero).append(" sharding the ")
             .append(zero == 1 ? "optimizer states" : zero == 2 ? "optimizer states and gradients" : "optimizer states, gradients and weights")
             .append(" over dp ").append(dp);
        }
        t.append("; the ").append(gpu != null ? gpu.name() : "GPU").append(" has ").append(gib(capacity))
         .append(", so that is ").append(Math.round(perGpu / capacity * 100))
         .append("% of its memory before activations, buffers and the CUDA context");
        out.add(new EstimateFact(r.name(), j.file(), EstimateFact.MEMORY, perGpu, capacity, t.toString(),
                j.model().parameters().span(), capSpan, capText).withThresholds(thresholds.memoryWarning(), 0));
    }
}
