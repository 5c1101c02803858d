package dev.gpulint.derive.par;

import dev.gpulint.derive.Facts;
import dev.gpulint.derive.Resolved;
import dev.gpulint.facts.LinearLossFact;
import dev.gpulint.spec.Specs;

/**
 * PAR022's analysis: a job whose model's loss is the fused linear cross-entropy ({@link Specs.CrossEntropy#LINEAR}, as the
 * binders read it: the fusion on with the implementation written linear) on a node group whose GPU has a CUDA compute
 * capability in the catalog, or an AMD GPU with the device capability PyTorch on ROCm reports ({@link LinearLossFact}). The
 * span and key are the implementation's, as written.
 */
public final class LinearLossAnalysis {
    private LinearLossAnalysis() {}

    public static void job(Resolved.Job r, Facts out) {
        Specs.Job j = r.spec();
        Specs.Model m = j.model();
        Resolved.Group g = r.group();
        if (m == null || g == null || g.gpu() == null) return;
        var ce = m.crossEntropy();
        if (ce == null || ce.value() != Specs.CrossEntropy.LINEAR || ce.span() == null) return;
        // an NVIDIA GPU's CUDA compute capability, else what PyTorch on ROCm reports for an AMD GPU (the same
        // torch.cuda.get_device_capability() the Platform reads: gfx942's 9, so ValueError there too)
        int major = g.gpu().computeCapabilityMajor();
        boolean rocm = major < 0 && g.gpu().rocmCapabilityMajor() >= 0;
        if (rocm) major = g.gpu().rocmCapabilityMajor();
        if (major < 0) return;
        String k = j.origin() == null ? null : j.origin().key(Specs.Origin.CROSS_ENTROPY_IMPL);
        out.add(new LinearLossFact(r.name(), j.file(), k != null ? k : "model.loss.kernel", g.gpu().name(), g.name(),
                rocm ? g.gpu().rocmCapability() : g.gpu().computeCapability(), major, rocm, ce.span()));
    }
}
