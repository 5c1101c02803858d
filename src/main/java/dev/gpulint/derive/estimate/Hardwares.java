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
 * overridden by a project's {@code plan:}), its NVLink / Infinity Fabric and PCIe rates per direction; and what the
 * assumptions list says of each.
 */
public final class Hardwares {
    private Hardwares() {}

    /**
     * @param gpusPerNode GPUs per node
     * @param domainSize  GPUs in one scale-up domain (gpusPerNode for an NVSwitch node, 2 for bridged pairs)
     * @param nicPerNode  the node's RDMA NICs together per direction, bytes/s (0: unknown, taken as one 400 Gb/s NIC per GPU)
     * @param measured    nccl-tests bus bandwidths per tier
     * @param overrides   efficiencies by name (.gpulint.yaml plan:)
     * @param assumptions receives one line per figure used, with its source
     */
    public static Optional<Hardware> of(Catalog catalog, Catalog.Gpu gpu, long gpusPerNode, long domainSize, double nicPerNode,
                                        Map<Tier, Double> measured, Map<String, Double> overrides, List<String> assumptions) {
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
        boolean scaleUp = gpu.scaleUp() != Catalog.ScaleUp.NONE;
        double upBidir = gpu.infinityFabric() ? gpu.scaleUpBidirectional() / Math.max(1, gpu.scaleUpDomain() - 1)
                : catalog.nvlinkBidirectional(gpu);
        double up = upBidir / 2;
        double pcie = catalog.pcie(gpu.pcieGeneration()).map(Catalog.Pcie::perDirection).orElse(31.5e9);
        if (scaleUp) {
            assumptions.add(gpu.name() + (gpu.infinityFabric() ? " Infinity Fabric per peer link" : " NVLink") + " per direction "
                    + fmt(up / 1e9) + " GB/s (" + gpu.source() + ")");
        }
        assumptions.add(gpu.name() + " PCIe Gen" + gpu.pcieGeneration() + " x16 per direction " + fmt(pcie / 1e9) + " GB/s (STAS)");
        assumptions.add(gpu.name() + " HBM " + fmt(gpu.hbmBytesPerSecond() / 1e12) + " TB/s, memory "
                + fmt(gpu.memoryBytes() / (1L << 30)) + " GiB (" + gpu.source() + ")");
        double nic = nicPerNode;
        if (nic <= 0) {
            nic = gpusPerNode * 50e9;
            assumptions.add("node NICs not declared: one 400 Gb/s NIC per GPU assumed (" + fmt(nic / 1e9) + " GB/s per node per direction)");
        } else {
            assumptions.add("node RDMA NICs " + fmt(nic / 1e9) + " GB/s per direction together (the cluster's NICs)");
        }
        for (Map.Entry<Tier, Double> m : measured.entrySet()) {
            assumptions.add(m.getKey().id() + " bus bandwidth " + fmt(m.getValue() / 1e9)
                    + " GB/s measured by nccl-tests replaces the catalog's for that tier");
        }
        return Optional.of(new Hardware(gpu.name(), gpu.memoryBytes(), flops, gpu.hbmBytesPerSecond(), gpusPerNode,
                Math.max(1, domainSize), scaleUp, up, pcie, nic, measured, e));
    }

    static String fmt(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) return String.valueOf((long) v);
        return String.format(Locale.ROOT, "%.3g", v);
    }
}
