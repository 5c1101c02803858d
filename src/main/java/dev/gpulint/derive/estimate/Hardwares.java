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

    /**
     * @param links       the node group's links (NVLink or Infinity Fabric, PCIe, NICs)
     * @param measured    nccl-tests bus bandwidths per tier
     * @param overrides   efficiencies by name (.gpulint.yaml plan:)
     * @param assumptions receives one line per figure used, with its source
     */
    public static Optional<Hardware> of(Catalog catalog, Catalog.Gpu gpu, Links links, Map<Tier, Double> measured, Map<String, Double> overrides, List<String> assumptions) {
        Compute c = catalog.compute();
        Optional<Compute.Peaks> peaks = c.peaks(gpu.name());
        Optional<Compute.Efficiencies> eff = c.efficiencies(gpu.family());
        if (peaks.isEmpty() || eff.isEmpty()) return Optional.empty();
        Map<ModelShape.Dtype, Double> flops = new EnumMap<>(ModelShape.Dtype.class);
        for (Map.Entry<String, Double> p : peaks.get().flops().entrySet()) {
            flops.put(ModelShape.Dtype.valueOf(p.getKey().toUpperCase(Locale.ROOT)), p.getValue());
        }
        StringBuilder pk = new StringBuilder();
        for (String d : Compute.PRECISIONS) {
            Double v = peaks.get().flops().get(d);
            if (v != null) pk.append(pk.length() == 0 ? "" : ", ").append(d).append(' ').append(fmt(v / 1e12));
        }
        assumptions.add(gpu.name() + " dense peak TFLOP/s: " + pk + " (" + peaks.get().source() + ")");
        Map<String, Double> values = new LinkedHashMap<>(eff.get().values());
        values.putAll(overrides);
        Efficiency e = Efficiency.of(values, eff.get().source());
        StringBuilder ef = new StringBuilder();
        for (String k : Efficiency.KEYS) {
            ef.append(ef.length() == 0 ? "" : ", ").append(k).append(' ').append(fmt(e.get(k)))
                    .append(overrides.containsKey(k) ? " (.gpulint.yaml plan:)" : "");
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
        return Optional.of(new Hardware(gpu.name(), gpu.memoryBytes(), flops, gpu.hbmBytesPerSecond(), links, measured, e));
    }

    static String fmt(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) return String.valueOf((long) v);
        return String.format(Locale.ROOT, "%.3g", v);
    }
}
