package dev.gpulint.bind.adapt;

import static dev.gpulint.bind.adapt.TreeValues.map;
import static dev.gpulint.bind.adapt.TreeValues.scalar;

import dev.gpulint.spec.Located;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.ScalarNode;
import java.util.Locale;

/**
 * Model states the frameworks' configurations keep in host memory, read into the job's offload (Specs.Offload: where
 * the optimizer states and the parameters live, the optimizer's offloaded share), which derive.estimate.StateOffload
 * counts off each GPU's memory and prices on the host link (docs/plan.md, "Offloaded model states"). Each format's key
 * is recorded as where the offload is written, for the plan's assumptions and MEM001's message.
 */
final class OffloadSettings {
    private OffloadSettings() {}

    /**
     * DeepSpeed: {@code zero_optimization.offload_optimizer.device} and {@code zero_optimization.offload_param.device}
     * ("cpu" or "nvme"; "none", DeepSpeed's default, keeps them on the GPU). DeepSpeed's config docs: offload_param is
     * "valid only with stage 3"; offload_optimizer with stages 1, 2 and 3.
     */
    static void deepspeed(JobDraft j, MappingNode zero) {
        Located<String> opt = device(scalar(map(zero, "offload_optimizer"), "device"));
        if (opt != null) j.offloadOptimizer = j.key("zero_optimization.offload_optimizer.device", opt);
        Located<String> par = device(scalar(map(zero, "offload_param"), "device"));
        if (par != null) j.offloadParameters = j.key("zero_optimization.offload_param.device", par);
    }

    /**
     * accelerate's FSDP plugin: {@code fsdp_config.fsdp_offload_params: true} (FSDP's CPUOffload(offload_params=True)):
     * the parameter shards and their gradients live in host memory, and the optimizer, built on those parameters, steps
     * there.
     */
    static void accelerate(JobDraft j, MappingNode fsdp) {
        host(j, scalar(fsdp, "fsdp_offload_params"), "fsdp_config.fsdp_offload_params");
    }

    /**
     * torchtitan: {@code [training] enable_cpu_offload = true} (torchtitan/config/job_config.py; FSDP2's
     * CPUOffloadPolicy): parameters, gradients and optimizer states in host memory, the optimizer's step on the CPU.
     */
    static void torchtitan(JobDraft j, MappingNode root) {
        host(j, scalar(map(root, "training"), "enable_cpu_offload"), "[training] enable_cpu_offload");
    }

    /** FSDP's CPU offload switched on at {@code s}: parameters and optimizer states on the CPU. */
    private static void host(JobDraft j, ScalarNode s, String key) {
        Located<Boolean> on = TreeValues.bool(s);
        if (on == null || !Boolean.TRUE.equals(on.value())) return;
        j.offloadParameters = j.key(key, new Located<>("cpu", on.span()));
        j.offloadOptimizer = j.key(key, new Located<>("cpu", on.span()));
    }

    /**
     * Megatron-LM: {@code --optimizer-cpu-offload} with {@code --optimizer-offload-fraction} (the share of the optimizer
     * states on the CPU, default 1.0; megatron/core/optimizer/cpu_offloading, HybridDeviceOptimizer).
     */
    static void megatron(JobDraft j, Located<Boolean> offload, String fraction, dev.gpulint.core.Span fractionAt) {
        if (offload == null || !Boolean.TRUE.equals(offload.value())) return;
        j.offloadOptimizer = j.key("--optimizer-cpu-offload", new Located<>("cpu", offload.span()));
        if (fraction == null) return;
        try {
            double v = Double.parseDouble(fraction.strip());
            if (v >= 0 && v <= 1) j.offloadFraction = new Located<>(v, fractionAt);
        } catch (NumberFormatException e) {
            // text Megatron itself would refuse: the whole optimizer counted offloaded, its default
        }
    }

    private static Located<String> device(ScalarNode s) {
        if (s == null || s.isNull()) return null;
        String d = s.text().strip().toLowerCase(Locale.ROOT);
        return d.equals("cpu") || d.equals("nvme") ? new Located<>(d, s.span()) : null;
    }
}
