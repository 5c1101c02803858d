package dev.gpulint.derive.estimate;

import dev.gpulint.core.Span;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The links as a machine measured them ("measured links"): the catalog's {@link Links} with what captured evidence
 * shows replacing its figures where it shows one, each replacement kept with its reason and the evidence line that
 * gave it. The estimate prices a job on them exactly as on the catalog's ({@link #on(Hardware)}): one cost model,
 * other inputs. `gpulint diagnose` prices the job on both and on each replacement alone (docs/diagnose.md); the plan
 * could show them too.
 *
 * <ul>
 * <li>{@link #portRate}: the node's compute ports at the rate ibstat prints (Active ports only), not the NICs' declared
 *     speed.</li>
 * <li>{@link #sockets}: NCCL crosses nodes over its TCP socket transport (NET/Socket in its log), priced at the
 *     catalog's {@code tcp} efficiency of the same NICs instead of the RDMA one.</li>
 * <li>{@link #scaleUpLinks}: nvidia-smi nvlink -s shows links inactive: a ring runs at the pace of its slowest GPU, so
 *     the scale-up rate is the worst GPU's active share of its links; a GPU with none leaves the node without NVLink,
 *     and its traffic rides PCIe.</li>
 * <li>{@link #busbw}: an nccl-tests bus bandwidth of a tier (one host: the scale-up tier; several: the network),
 *     replacing line rate × efficiency there ({@link CollectiveCost}).</li>
 * </ul>
 *
 * @param links   the links after every replacement
 * @param busbw   measured bus bandwidths per tier, bytes/s
 * @param changes the replacements, in the order made
 */
public record MeasuredLinks(Links links, Map<Tier, Double> busbw, List<Change> changes) {

    public MeasuredLinks {
        busbw = busbw.isEmpty() ? Map.of() : Map.copyOf(new EnumMap<>(busbw));
        changes = List.copyOf(changes);
    }

    /**
     * One replacement: a stable id (port-rate, sockets, nvlink, busbw-network, busbw-nvlink, busbw-pcie), the tier it changes, what
     * the catalog had and what the evidence shows, in words, and the evidence line that shows it (null: none).
     */
    public record Change(String id, Tier tier, String catalog, String measured, Span where) {}

    /** The catalog's links, nothing replaced yet. */
    public static MeasuredLinks of(Links catalog) {
        return new MeasuredLinks(catalog, Map.of(), List.of());
    }

    /** Nothing was replaced. */
    public boolean unchanged() { return changes.isEmpty(); }

    /**
     * The node's compute ports at {@code gbps} Gb/s together (the Active ones, as ibstat prints their rates), {@code ports}
     * of them; the catalog's figure is the NICs' declared speed.
     */
    public MeasuredLinks portRate(double gbps, long ports, Span where) {
        Links k = links;
        double perNode = Math.max(0, gbps) * 1e9 / 8;
        Links n = new Links(k.gpusPerNode(), k.domainSize(), k.scaleUp(), k.infinityFabric(), k.nvlinkGeneration(),
                k.scaleUpPerDirection(), k.pcieGeneration(), k.pciePerDirection(), k.hostLinked(), perNode, k.transport(),
                ports, rateOf(gbps / Math.max(1, ports)) + " (measured)", where, null, k.jobGpus());
        return with(n, busbw, new Change("port-rate", Tier.NETWORK, k.networkName() + ": " + gbpsOf(k.nicPerNode()) + " per node",
                ports + " port" + (ports == 1 ? "" : "s") + " up at " + rateOf(gbps) + " together", where));
    }

    /** NCCL runs its TCP socket transport across nodes on the same NICs (its log says NET/Socket). */
    public MeasuredLinks sockets(Span where) {
        Links k = links;
        if (k.transport() == Links.Transport.TCP) return this;
        Links n = new Links(k.gpusPerNode(), k.domainSize(), k.scaleUp(), k.infinityFabric(), k.nvlinkGeneration(),
                k.scaleUpPerDirection(), k.pcieGeneration(), k.pciePerDirection(), k.hostLinked(), k.nicPerNode(),
                Links.Transport.TCP, k.nics(), k.nicName() == null ? "NIC" : k.nicName(), k.nicSpan(), k.misread(), k.jobGpus());
        return with(n, busbw, new Change("sockets", Tier.NETWORK, "NCCL's IB verbs transport over " + k.networkName(),
                "NCCL's TCP socket transport (NET/Socket)", where));
    }

    /**
     * The worst GPU has {@code active} of its {@code total} NVLinks up: the scale-up rate falls to that share; none up
     * and the GPUs have no scale-up fabric left (traffic rides PCIe).
     */
    public MeasuredLinks scaleUpLinks(int active, int total, Span where) {
        Links k = links;
        if (!k.scaleUp() || total <= 0 || active >= total) return this;
        boolean none = active <= 0;
        double rate = none ? 0 : k.scaleUpPerDirection() * active / total;
        Links n = new Links(k.gpusPerNode(), none ? 1 : k.domainSize(), !none, !none && k.infinityFabric(), none ? 0 : k.nvlinkGeneration(),
                rate, k.pcieGeneration(), k.pciePerDirection(), k.hostLinked(), k.nicPerNode(), k.transport(), k.nics(), k.nicName(),
                k.nicSpan(), k.misread(), k.jobGpus());
        String catalog = String.format(Locale.ROOT, "%s at %s per direction (%d links)", k.scaleUpName(), gbOf(k.scaleUpPerDirection()), total);
        String measured = none ? "a GPU with no NVLink up: traffic inside the node rides " + k.tierName(Tier.PCIE)
                + " at " + gbOf(k.pciePerDirection()) + " per direction"
                : String.format(Locale.ROOT, "%d of %d links up on the worst GPU: %s per direction", active, total, gbOf(rate));
        Map<Tier, Double> b = busbw;
        if (none && b.containsKey(Tier.NVLINK)) { b = new EnumMap<>(b); b.remove(Tier.NVLINK); }
        return with(n, b, new Change("nvlink", Tier.NVLINK, catalog, measured, where));
    }

    /** nccl-tests measured {@code bytesPerSecond} bus bandwidth on tier {@code t}. */
    public MeasuredLinks busbw(Tier t, double bytesPerSecond, String catalog, Span where) {
        if (bytesPerSecond <= 0) return this;
        Map<Tier, Double> b = new EnumMap<>(Tier.class);
        b.putAll(busbw);
        b.put(t, bytesPerSecond);
        return with(links, b, new Change("busbw-" + t.id(), t, catalog, "nccl-tests bus bandwidth " + gbOf(bytesPerSecond), where));
    }

    /** The hardware with these links and measurements in place of its own. */
    public Hardware on(Hardware hw) {
        Map<Tier, Double> m = new EnumMap<>(Tier.class);
        m.putAll(hw.measured());
        m.putAll(busbw);
        return new Hardware(hw.gpu(), hw.memoryBytes(), hw.peakFlops(), hw.hbmBytesPerSecond(), links, m, hw.efficiency(), hw.blockScaled(),
                hw.attentionKernels());
    }

    private MeasuredLinks with(Links n, Map<Tier, Double> b, Change c) {
        List<Change> all = new ArrayList<>(changes);
        all.add(c);
        return new MeasuredLinks(n, b, all);
    }

    private static String gbOf(double bytesPerSecond) {
        return String.format(Locale.ROOT, "%.3g GB/s", bytesPerSecond / 1e9);
    }

    private static String gbpsOf(double bytesPerSecond) {
        return rateOf(bytesPerSecond * 8 / 1e9);
    }

    private static String rateOf(double gbps) {
        return (gbps == Math.rint(gbps) ? String.valueOf((long) gbps) : String.format(Locale.ROOT, "%.3g", gbps)) + " Gb/s";
    }
}
