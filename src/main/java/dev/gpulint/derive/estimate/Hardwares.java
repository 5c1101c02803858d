package dev.gpulint.derive.estimate;

import dev.gpulint.catalog.Catalog;
import dev.gpulint.catalog.Compute;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The estimate's {@link Hardware} from the catalog: a GPU's dense peaks and its family's efficiencies (each may be
 * overridden by a project's {@code plan:}), its links ({@link Links}); and what the
 * assumptions list says of each.
 */
public final class Hardwares {
    private Hardwares() {}

    /** The block-scaled paths whose GEMM efficiency a family may state, by catalog key. */
    static final Map<String, ModelShape.Dtype> BLOCK_SCALED = Map.of("gemm_mxfp8", ModelShape.Dtype.MXFP8, "gemm_nvfp4", ModelShape.Dtype.NVFP4);

    /**
     * @param memory      the node group's GPU memory (its declared {@code gpu.memory}, else the catalog's), null for the
     *                    catalog's
     * @param clock       the node group's stated clock and power limits
     * @param links       the node group's links (NVLink or Infinity Fabric, PCIe, NICs)
     * @param measured    nccl-tests bus bandwidths per tier
     * @param overrides   efficiencies by name (.gpulint.yaml plan:)
     * @param assumptions receives one line per figure used, with its source
     */
    public static Optional<Hardware> of(Catalog catalog, Catalog.Gpu gpu, GpuMemory memory, GpuClock clock, Links links,
                                        Map<Tier, Double> measured, Map<String, Double> overrides, List<String> assumptions) {
        Compute c = catalog.compute();
        Optional<Compute.Peaks> datasheet = c.peaks(gpu.name());
        Optional<Compute.Efficiencies> eff = c.efficiencies(gpu.family());
        if (datasheet.isEmpty() || eff.isEmpty()) return Optional.empty();
        Compute.Peaks peaks = datasheet.get();
        double f = clock.scale(peaks.clockMhz());
        if (f < 1) peaks = peaks.scaled(f);
        Map<ModelShape.Dtype, Double> flops = new EnumMap<>(ModelShape.Dtype.class);
        for (Map.Entry<String, Double> p : peaks.flops().entrySet()) {
            ModelShape.Dtype d = ModelShape.Dtype.parse(p.getKey());
            if (d != null) flops.put(d, p.getValue());       // fp6 and mxfp4: listed, no training recipe runs on them
        }
        StringBuilder pk = new StringBuilder();
        for (String d : Compute.PRECISIONS) {
            Double v = peaks.flops().get(d);
            if (v != null) pk.append(pk.length() == 0 ? "" : ", ").append(d).append(' ').append(fmt(v / 1e12));
        }
        assumptions.add(gpu.name() + " dense peak TFLOP/s: " + pk + " (" + peaks.source() + ")");
        limits(gpu, datasheet.get(), clock, f, assumptions);
        Map<String, Double> values = withOverrides(eff.get(), overrides);
        Efficiency e = Efficiency.of(values, eff.get().source());
        StringBuilder ef = new StringBuilder();
        for (String k : Efficiency.KEYS) {
            // the expert GEMM's fixed time is MoE's: the moe term prints it where a job pays it
            if (k.startsWith("expert_gemm")) continue;
            ef.append(ef.length() == 0 ? "" : ", ").append(k).append(' ').append(fmt(e.get(k)))
                    .append(overrides.containsKey(k) ? " (.gpulint.yaml plan:)" : "");
        }
        Map<ModelShape.Dtype, Double> blockScaled = new EnumMap<>(ModelShape.Dtype.class);
        // in the catalog's order of these keys: the assumption names them in it, the same on every run (Map.of's order is not)
        for (String k : Compute.BLOCK_SCALED_EFFICIENCIES) {
            ModelShape.Dtype d = BLOCK_SCALED.get(k);
            Double v = values.get(k);
            if (d != null && v != null && flops.containsKey(d)) {
                blockScaled.put(d, v);
                ef.append(", ").append(k).append(' ').append(fmt(v));
            }
        }
        Map<AttentionKernel, Double> kernels = new EnumMap<>(AttentionKernel.class);
        for (AttentionKernel k : AttentionKernel.values()) {
            Double v = k.catalogKey() == null ? null : values.get(k.catalogKey());
            if (v != null) {
                kernels.put(k, v);
                ef.append(", ").append(k.catalogKey()).append(' ').append(fmt(v));
            }
        }
        assumptions.add(gpu.family() + " efficiencies: " + ef + " (catalog: " + eff.get().source() + ")");
        if (links.scaleUp()) {
            assumptions.add(gpu.name() + " " + links.scaleUpName() + (links.infinityFabric() ? " per peer link" : "") + " per direction "
                    + fmt(links.scaleUpPerDirection() / 1e9) + " GB/s (" + gpu.source() + ")"
                    + (links.domainSize() > links.gpusPerNode() ? ", one domain of " + links.domainSize() + " GPUs across "
                    + links.domainSize() / links.gpusPerNode() + " nodes (a multi-host NVLink rack)" : ""));
        }
        assumptions.add(gpu.name() + " PCIe Gen" + links.pcieGeneration() + " per direction " + fmt(links.pciePerDirection() / 1e9)
                + " GB/s (STAS)");
        assumptions.add(gpu.name() + " HBM " + fmt(gpu.hbmBytesPerSecond() / 1e12) + " TB/s, memory "
                + fmt(gpu.memoryBytes() / (1L << 30)) + " GiB (" + gpu.source() + ")");
        double capacity = gpu.memoryBytes();
        if (memory != null && memory.declared() && memory.bytes() != gpu.memoryBytes()) {
            // the node group's declared gpu.memory is the capacity memory is held to (GpuMemory), not the catalog's
            capacity = memory.bytes();
            assumptions.add("GPU memory " + Units.bytes(memory.bytes()) + " as the node group's gpu.memory declares it (the catalog's "
                    + gpu.name() + " has " + Units.bytes(memory.catalogBytes()) + ")");
        }
        double nic = links.nicPerNode();
        assumptions.add(switch (links.transport()) {
            case ASSUMED -> "node NICs not declared: one 400 Gb/s NIC per GPU assumed (" + fmt(nic / 1e9) + " GB/s per node per direction)";
            case RDMA -> "node NICs " + links.networkName() + ": " + fmt(nic / 1e9) + " GB/s per direction together, NCCL bus bandwidth "
                    + fmt(e.network()) + " of it (network)";
            case TCP -> "node NICs " + links.networkName() + ": " + fmt(nic / 1e9) + " GB/s per direction together, NCCL bus bandwidth "
                    + fmt(e.tcp()) + " of it (tcp: NCCL's socket transport; nccl-tests on TCP reach 32-60 % of line rate, NVIDIA/nccl#209, #450)";
        });
        if (links.misread() != null) assumptions.add("node NIC speed " + links.misread().describe());
        for (Map.Entry<Tier, Double> m : measured.entrySet()) {
            assumptions.add(m.getKey().id() + " bus bandwidth " + fmt(m.getValue() / 1e9)
                    + " GB/s measured by nccl-tests replaces the catalog's for that tier");
        }
        return Optional.of(new Hardware(gpu.name(), capacity, flops, gpu.hbmBytesPerSecond(), links, measured, e, blockScaled, kernels));
    }

    /**
     * The efficiencies the plan prices {@code gpu}'s collectives at: its family's, each a project's {@code plan:} names
     * overridden (the one home of that merge: {@link #of} and NET003's estimate, derive/net/AllReduceAnalysis).
     */
    public static Optional<Efficiency> efficiency(Catalog catalog, Catalog.Gpu gpu, Map<String, Double> overrides) {
        return catalog.compute().efficiencies(gpu.family()).map(e -> Efficiency.of(withOverrides(e, overrides), e.source()));
    }

    private static Map<String, Double> withOverrides(Compute.Efficiencies eff, Map<String, Double> overrides) {
        Map<String, Double> values = new LinkedHashMap<>(eff.values());
        values.putAll(overrides);
        return values;
    }

    /** What a stated clock or power limit does to the peaks, in the assumptions. */
    private static void limits(Catalog.Gpu gpu, Compute.Peaks datasheet, GpuClock clock, double f, List<String> assumptions) {
        if (clock.limitMhz() > 0) {
            double at = datasheet.clockMhz();
            if (at <= 0) {
                assumptions.add("gpu.clock_limit_mhz " + clock.limitMhz() + " MHz: the catalog does not state the clock " + gpu.name()
                        + "'s datasheet peaks are computed at, so they cannot be scaled to it; compute is priced at the datasheet's peaks");
            } else if (f < 1) {
                assumptions.add("gpu.clock_limit_mhz " + clock.limitMhz() + " MHz: every dense peak × " + fmt(f) + " (" + clock.limitMhz()
                        + " ÷ the " + fmt(at) + " MHz the datasheet's peaks are computed at: the tensor cores do a fixed number of FLOPs per clock)");
            } else {
                assumptions.add("gpu.clock_limit_mhz " + clock.limitMhz() + " MHz is not below the " + fmt(at)
                        + " MHz the datasheet's peaks are computed at: the peaks stand");
            }
        }
        if (clock.powerW() > 0) {
            double tdp = datasheet.tdpWatts();
            if (tdp > 0 && clock.powerW() >= tdp) {
                assumptions.add("gpu.power_limit_w " + clock.powerW() + " W is not below " + gpu.name() + "'s " + fmt(tdp) + " W TDP: no effect");
            } else {
                assumptions.add("gpu.power_limit_w " + clock.powerW() + " W" + (tdp > 0 ? " is below " + gpu.name() + "'s " + fmt(tdp) + " W TDP" : "")
                        + ": the clock a power cap sustains depends on the workload and is not guessed"
                        + (clock.limitMhz() > 0 ? "" : "; compute is priced at the datasheet's peaks: state gpu.clock_limit_mhz (the SM clock"
                        + " nvidia-smi reports under load) to price the cap"));
            }
        }
    }

    /**
     * The assumption line when a job's precision runs on another tensor path than its own (MXFP8 on a GPU without it runs as
     * fp8, fp8 on one without fp8 as bf16), or null.
     */
    public static String precision(Hardware hw, ModelShape.Dtype d) {
        ModelShape.Dtype path = hw.gemmPath(d);
        if (path == d || !d.quantized()) return null;
        return hw.gpu() + " has no " + d.id() + " tensor path in the catalog: its GEMMs are priced on the " + path.id() + " path ("
                + fmt(hw.gemmPeak(d) / 1e12) + " TFLOP/s × " + fmt(hw.gemmEfficiency(d)) + ")";
    }

    /**
     * The assumption line for a job whose GEMMs run on a GPU's own MXFP8 path, or null (docs/plan.md, "Llama 3.1 405B at tp 4,
     * pp 8, cp 2, vp 8 on Blackwell, term by term"). Its GEMMs are priced at {@code gemm_mxfp8}, fp8's fraction carried over:
     * the one kernel-level comparison found runs an MXFP8 GEMM at 0.991 of the fp8 GEMM's rate on a B200 (FlashInfer pull 2256,
     * {@code bmm_mxfp8} against {@code bmm_fp8}, cuDNN backend, 128 × 512 × 512 × 4,096: 2,347.7 against 2,369.0 TFLOP/s), and
     * its casts are priced as a per-tensor fp8 cast. What the step spends beyond that has no kernel-level table, so it is
     * named, not priced: NVIDIA's Megatron-Bridge performance tables measure MXFP8 against fp8 current scaling at the same
     * layout and release at 0.964 (Llama 3 8B, B200), 0.945 (GB200), 0.961 (GB300), 0.944 (Llama 3.1 405B, B200) and 0.927
     * (GB300): validation data, which may show a term is missing and sets nothing.
     */
    public static String mxfp8Casts(Hardware hw, ModelShape.Dtype d) {
        if (d != ModelShape.Dtype.MXFP8 || hw.gemmPath(d) != ModelShape.Dtype.MXFP8) return null;
        return "mxfp8: GEMMs priced at gemm_mxfp8 (an MXFP8 GEMM runs at 0.99 of fp8's rate, FlashInfer pull 2256 on B200) and the"
                + " casts as per-tensor fp8's; MXFP8's quantization beyond that is not priced: NVIDIA's Megatron-Bridge runs measure"
                + " MXFP8 3.6–7.3 % slower than fp8 current scaling at the same layout and release, so the step can be that much longer";
    }

    static String fmt(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) return String.valueOf((long) v);
        return String.format(Locale.ROOT, "%.3g", v);
    }
}
