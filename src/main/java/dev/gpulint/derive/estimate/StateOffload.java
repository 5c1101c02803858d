package dev.gpulint.derive.estimate;

import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs;
import java.util.Locale;

/**
 * Model states a job keeps in host memory instead of GPU memory (issue #35, docs/plan.md "Offloaded model states"), as
 * the frameworks place them:
 * <ul>
 * <li>the optimizer states (fp32 master weights and Adam's moments, the accounting's optimizer bytes): DeepSpeed's
 *     {@code zero_optimization.offload_optimizer.device} cpu or nvme (ZeRO-Offload, Ren et al. 2021: "offloads gradients,
 *     optimizer states and optimizer computation to CPU"), Megatron's {@code --optimizer-cpu-offload} with the share
 *     {@code --optimizer-offload-fraction} (megatron/core/optimizer/cpu_offloading: HybridDeviceOptimizer), FSDP's CPU
 *     offload (the optimizer steps where its parameters are). {@link #optimizerShare} of them leave the GPU;
 * <li>the gradients: where ZeRO partitions them (stage 2 or 3: DeepSpeed's ZeRO-Offload copies each reduced gradient
 *     partition to its host buffer; FSDP with CPU offload moves the reduce-scatter's output to the host), the same share
 *     leaves with the optimizer states. At stage 1 and under Megatron's distributed optimizer (its gradient buffer stays
 *     on the GPU) they stay;
 * <li>the parameters: under ZeRO-3 / FSDP FULL_SHARD with DeepSpeed's {@code offload_param.device} cpu or nvme,
 *     accelerate's {@code fsdp_offload_params}, torchtitan's {@code enable_cpu_offload} (FSDP2's CPUOffloadPolicy), the
 *     weight shard lives on the host and every forward and backward copies it up before its all-gather. Below stage 3
 *     the GPU keeps the unsharded weights it computes with, so they stay counted.
 * </ul>
 * What the step pays ({@link #price}): the host link's per-direction rate × the catalog's {@code pcie} efficiency
 * (hardware-facts.md §2: PCIe x16 per direction, Gen4 31.5, Gen5 63 GB/s; a superchip's GPU reaches its Grace CPU over
 * NVLink-C2C, 900 GB/s bidirectional, §1 GB200 row, so 450 GB/s each way). Copies made every micro-batch (gradients
 * down where the host accumulates them, parameters up where they live on the host) run on their own stream behind the
 * stage's compute: the gradients behind its backward (two thirds of a micro-batch), the parameters behind forward and
 * backward; what outlasts it is exposed. Copies made once per step (the gradients down and the updated 16-bit weights up
 * around the CPU optimizer step) are exposed whole. The CPU optimizer step itself is not priced: no published CPU-Adam
 * throughput for today's host CPUs was found; {@link #describe} says so in the assumptions.
 *
 * @param optimizer       where the optimizer states live
 * @param fraction        the share of them offloaded when {@code optimizer} is not the GPU (Megatron's fraction; else 1)
 * @param parameters      where the parameter shard lives
 * @param optimizerWhere  the key that states {@code optimizer}, in its format's words
 * @param parametersWhere the key that states {@code parameters}
 */
public record StateOffload(Device optimizer, double fraction, Device parameters, String optimizerWhere, String parametersWhere) {

    /** Where a state lives. */
    public enum Device {
        GPU, CPU, NVME;

        static Device parse(Located<String> s) {
            if (s == null || s.value() == null) return GPU;
            return switch (s.value().strip().toLowerCase(Locale.ROOT)) {
                case "cpu" -> CPU;
                case "nvme" -> NVME;
                default -> GPU;
            };
        }

        /** "host memory", "NVMe". */
        String text() { return this == NVME ? "NVMe (through host memory)" : "host memory"; }
    }

    /** Nothing offloaded. */
    public static final StateOffload NONE = new StateOffload(Device.GPU, 0, Device.GPU, null, null);

    public StateOffload {
        if (optimizer == null) optimizer = Device.GPU;
        if (parameters == null) parameters = Device.GPU;
        fraction = optimizer == Device.GPU ? 0 : Double.isFinite(fraction) ? Math.max(0, Math.min(1, fraction)) : 1;
    }

    /** The offload a job states (any format: Specs.Offload as the binders fill it); NONE when it states none. */
    public static StateOffload of(Specs.Job j) {
        Specs.Offload o = j.offload();
        if (o == null || (o.optimizer() == null && o.parameters() == null)) return NONE;
        Device opt = Device.parse(o.optimizer()), par = Device.parse(o.parameters());
        double f = o.optimizerFraction() == null || o.optimizerFraction().value() == null ? 1 : o.optimizerFraction().value();
        String ow = where(j, "offload_optimizer", "offload.optimizer"), pw = where(j, "offload_parameters", "offload.parameters");
        StateOffload s = new StateOffload(opt, f, par, ow, pw);
        return s.any() ? s : NONE;
    }

    private static String where(Specs.Job j, String quantity, String nativeKey) {
        String k = j.origin() == null ? null : j.origin().key(quantity);
        return k != null ? k : nativeKey;
    }

    /** Something is offloaded. */
    public boolean any() { return optimizerShare() > 0 || parameters != Device.GPU; }

    /** The share of the optimizer states in host memory. */
    public double optimizerShare() { return optimizer == Device.GPU ? 0 : fraction; }

    /** The share of the gradients in host memory: the optimizer's share where ZeRO partitions them (stage ≥ 2). */
    public double gradientShare(int zeroStage) { return zeroStage >= 2 ? optimizerShare() : 0; }

    /** The share of the weights in host memory: all of the shard under ZeRO-3 with the parameters offloaded. */
    public double weightShare(int zeroStage) { return zeroStage >= 3 && parameters != Device.GPU ? 1 : 0; }

    /** {@code b} as the GPU holds it: each part less its share in host memory (the split before sharding, so sharding still applies). */
    public StateBytes onGpu(StateBytes b, int zeroStage) {
        if (!any()) return b;
        return new StateBytes(b.weights() * (1 - weightShare(zeroStage)), b.gradients() * (1 - gradientShare(zeroStage)),
                b.optimizer() * (1 - optimizerShare()), b.accounting(), b.dtype(), b.where(), b.width());
    }

    /** What leaves the GPU, as MEM001's message names it: "the optimizer states and gradients (zero_optimization...)". */
    public String leaving(int zeroStage) {
        if (!any()) return null;
        StringBuilder what = new StringBuilder();
        if (optimizerShare() > 0) {
            what.append(optimizerShare() < 1 ? pct(optimizerShare()) + " of the optimizer states" : "the optimizer states");
            if (gradientShare(zeroStage) > 0) what.append(weightShare(zeroStage) > 0 ? ", " : " and ").append("gradients");
        }
        if (weightShare(zeroStage) > 0) what.append(what.length() > 0 ? " and " : "").append("the weights");
        if (what.length() == 0) return null;        // parameters offloaded below ZeRO-3: the GPU computes with them whole
        String w = optimizerShare() > 0 ? optimizerWhere : parametersWhere;
        if (optimizerShare() > 0 && weightShare(zeroStage) > 0 && !java.util.Objects.equals(optimizerWhere, parametersWhere)) w = optimizerWhere + ", " + parametersWhere;
        return what + " in " + (optimizer == Device.NVME || parameters == Device.NVME ? Device.NVME.text() : Device.CPU.text()) + " (" + w + ")";
    }

    /** The plan's assumptions line. */
    public String describe(int zeroStage) {
        String leaving = leaving(zeroStage);
        StringBuilder b = new StringBuilder("offloaded model states: ");
        if (leaving == null) {
            b.append("the parameters offloaded (").append(parametersWhere).append(") but kept whole on the GPU below ZeRO-3, as the"
                    + " GPU computes with them: nothing counted off the GPU");
        } else {
            b.append(leaving).append(", counted off each GPU's memory; the host copies are priced (host-states)");
        }
        if (optimizerShare() > 0) {
            b.append("; the optimizer's step on the CPU is not priced (no published CPU-Adam throughput for the host's CPU), so the"
                    + " step time is a floor");
        }
        if (optimizer == Device.NVME || parameters == Device.NVME) b.append("; NVMe's own bandwidth is not modelled: the copies are priced at the host link's rate");
        return b.toString();
    }

    /**
     * The host copies on the GPU's host link (see the class comment): their {@link Term}, whose {@link Term.HostStates#exposed}
     * is the seconds per step they add; null when nothing is offloaded.
     *
     * @param params    the slowest stage's parameters per GPU before ZeRO sharding
     * @param shard     the GPU's share of them under the layout's sharding
     * @param stageS    the slowest stage's compute per micro-batch
     * @param mb        micro-batches per step
     * @param gradBytes the reduced gradients' bytes per parameter
     */
    Term.HostStates price(Layout l, double shard, double stageS, long mb, double gradBytes, Hardware hw) {
        if (!any()) return null;
        double link = hw.links().hostPerDirection();
        double rate = link * hw.efficiency().pcie();
        double o = optimizerShare();
        boolean hostGrads = gradientShare(l.zeroStage()) > 0, hostWeights = weightShare(l.zeroStage()) > 0;
        // gradients down: each micro-batch's reduced shard where the host accumulates them, else once per step
        double down = o * shard * gradBytes;
        // parameters up: the shard before each forward and backward where it lives on the host, else the updated 16-bit
        // weights once per step after the CPU optimizer's step
        double up = hostWeights ? 2 * shard * 2 : o * shard * 2;
        double downS = down / rate, upS = up / rate;
        double exposed = 0;
        if (hostGrads) exposed += mb * Math.max(0, downS - stageS * 2 / 3);
        else exposed += downS;
        if (hostWeights) exposed += mb * Math.max(0, upS - stageS);
        else exposed += upS;
        return new Term.HostStates(hw.links().hostLinkName(), link, hw.efficiency().pcie(), rate,
                down, hostGrads, up, hostWeights, downS, upS, stageS, mb, exposed);
    }

    private static String pct(double v) {
        double p = v * 100;
        return (p == Math.rint(p) ? String.valueOf((long) p) : String.format(Locale.ROOT, "%.1f", p)) + " %";
    }
}
