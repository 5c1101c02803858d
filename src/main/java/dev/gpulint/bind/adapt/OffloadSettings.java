package dev.gpulint.bind.adapt;

import static dev.gpulint.bind.adapt.TreeValues.map;
import static dev.gpulint.bind.adapt.TreeValues.scalar;

import dev.gpulint.spec.Located;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.ScalarNode;

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
        Located<String> opt = device(j, scalar(map(zero, "offload_optimizer"), "device"), "zero_optimization.offload_optimizer.device",
                "the optimizer states");
        if (opt != null) j.offloadOptimizer = j.key("zero_optimization.offload_optimizer.device", opt);
        Located<String> par = device(j, scalar(map(zero, "offload_param"), "device"), "zero_optimization.offload_param.device",
                "the parameters");
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
        Located<Boolean> on = DraftValues.bool(j, s, key, "the estimate keeps the parameters and optimizer states on the GPU"
                + " (FSDP's default, no CPU offload)");
        if (on == null || !Boolean.TRUE.equals(on.value())) return;
        j.offloadParameters = j.key(key, new Located<>("cpu", on.span()));
        j.offloadOptimizer = j.key(key, new Located<>("cpu", on.span()));
    }

    /**
     * Megatron-LM: {@code --optimizer-cpu-offload} with {@code --optimizer-offload-fraction} (the share of the optimizer
     * states on the CPU, default 1.0; megatron/core/optimizer/cpu_offloading, HybridDeviceOptimizer).
     */
    static void megatron(JobDraft j, Located<Boolean> offload, dev.gpulint.bind.adapt.shell.Shell.Word fraction) {
        if (offload == null || !Boolean.TRUE.equals(offload.value())) return;
        j.offloadOptimizer = j.key("--optimizer-cpu-offload", new Located<>("cpu", offload.span()));
        if (fraction == null || !fraction.known()) return;
        j.offloadFraction = DraftValues.fraction(j, fraction.text(), fraction.span(), "--optimizer-offload-fraction",
                "the estimate counts the whole optimizer offloaded (Megatron's default fraction, 1.0)");
    }

    /**
     * NeMo 2 / Megatron-Bridge: {@code optim.config.optimizer_cpu_offload} with {@code optimizer_offload_fraction}, fields
     * of Megatron-Core's OptimizerConfig (megatron/core/optimizer/optimizer_config.py), whose fraction defaults to 0.0,
     * not to the command line's 1.0: a recipe that switches the offload on without a fraction keeps every optimizer
     * state on the GPU, and the plan says so.
     */
    static void optimizerConfig(JobDraft j, MappingNode config, String where) {
        String key = where + ".optimizer_cpu_offload";
        Located<Boolean> on = DraftValues.bool(j, scalar(config, "optimizer_cpu_offload"), key,
                "the estimate keeps the optimizer states on the GPU (OptimizerConfig's default, no offload)");
        if (on == null || !on.value()) return;
        ScalarNode f = scalar(config, "optimizer_offload_fraction");
        String fractionKey = where + ".optimizer_offload_fraction";
        if (f == null || f.isNull()) {
            j.unpriced.add(key + " without " + fractionKey + ": Megatron-Core's OptimizerConfig offloads a fraction of 0.0 by"
                    + " default, so every optimizer state is counted on the GPU; write the fraction (1.0 offloads them all)");
            return;
        }
        Located<Double> share = DraftValues.fraction(j, f.text(), f.span(), fractionKey,
                "the estimate counts every optimizer state on the GPU (OptimizerConfig's default fraction, 0.0)");
        // unknown (a placeholder), refused (said) or 0: nothing is counted off the GPU
        if (share == null || share.value() == 0) return;
        j.offloadOptimizer = j.key(key, new Located<>("cpu", on.span()));
        j.offloadFraction = share;
    }

    /** DeepSpeed's offload devices (DeepSpeed's OffloadDeviceEnum): "cpu" or "nvme" bind; "none" keeps them on the GPU. */
    private static final java.util.List<String> DEVICES = java.util.List.of("none", "cpu", "nvme");

    private static Located<String> device(JobDraft j, ScalarNode s, String key, String what) {
        Located<String> d = DraftValues.choice(j, s, key, DEVICES, "the estimate keeps " + what + " on the GPU (DeepSpeed's default, \"none\")");
        return d == null || d.value().equals("none") ? null : d;
    }
}
