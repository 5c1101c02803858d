package dev.gpulint.derive.evid;

import dev.gpulint.catalog.Catalog;
import dev.gpulint.core.Span;
import dev.gpulint.derive.Resolved;
import dev.gpulint.derive.Resolver;
import dev.gpulint.spec.Protocol;
import dev.gpulint.spec.Specs;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

/**
 * The node group a captured tool output belongs to, and the quantities of its declaration the
 * evidence checks compare with: GPU and NIC counts, NVLink links and bandwidth, NIC speed and
 * link layer, GPUDirect RDMA, the fabric. {@link #NONE} for evidence that belongs to none.
 *
 * @param expectedLinks NVLinks every GPU pair shows through an NVSwitch (the generation's links per GPU), 0 without one
 * @param nvlinkPerDirection the GPU's NVLink bandwidth per direction, GB/s; 0 without an NVSwitch
 * @param rdmaNics    the group's NICs that run an RDMA protocol (InfiniBand, RoCE), summed
 * @param nicGbps     their speed when they all declare the same one, else -1
 * @param layer       InfiniBand or Ethernet when all NICs' protocols run on it, else ""
 */
record Target(boolean linked, String cluster, String group, String linkedBy, Span declaredSpan, long gpus, long nics,
              String gpuModel, boolean nvswitch, boolean nvlink, int expectedLinks, double nvlinkPerDirection,
              Span nvlinkSpan, boolean railOptimized, boolean gdr, Span gdrSpan, boolean rdma, String fabric,
              long rdmaNics, double nicGbps, String layer, String protocol) {

    static final Target NONE = new Target(false, "", "", "", null, -1, -1, "", false, false, 0, 0, null, false, false, null,
            false, "", 0, -1, "", "");

    static Target of(Resolved.Cluster c, Resolved.Group g, Catalog catalog, String linkedBy) {
        Specs.NodeGroup spec = g.spec();
        Catalog.Gpu gpu = g.gpu();
        int links = 0;
        double perDirection = 0;
        if (g.nvswitch() && gpu != null && gpu.hasNvlink()) {
            links = catalog.nvlink(gpu.nvlinkGeneration()).map(Catalog.Nvlink::links).orElse(0);
            perDirection = catalog.nvlinkBidirectional(gpu) / 2 / 1e9;
        }
        long nics = spec.nics().isEmpty() ? -1 : 0, rdmaNics = 0;
        Set<Double> speeds = new LinkedHashSet<>();
        Set<String> layers = new LinkedHashSet<>(), protocols = new LinkedHashSet<>();
        boolean gdr = false;
        Span gdrSpan = null;
        for (Specs.Nic n : spec.nics()) {
            long count = n.count() == null ? 1 : n.count().value();
            nics += count;
            Protocol p = Resolver.protocol(n, c.fabric());
            if (p != null) {
                layers.add(p == Protocol.INFINIBAND ? "InfiniBand" : "Ethernet");
                protocols.add(p.display());
            } else {
                layers.add("?");
                protocols.add("?");
            }
            if (p != null && p.rdma()) {
                rdmaNics += count;
                if (n.speed() != null) speeds.add(n.speed().value().gigabitsPerSecond());
                else speeds.add(-1.0);
            }
            if (n.gpudirectRdma() != null && Boolean.TRUE.equals(n.gpudirectRdma().value())) {
                gdr = true;
                gdrSpan = n.gpudirectRdma().span();
            }
        }
        double nicGbps = speeds.size() == 1 ? speeds.iterator().next() : -1;
        String layer = layers.size() == 1 && !layers.contains("?") ? layers.iterator().next() : "";
        String protocol = protocols.size() == 1 && !protocols.contains("?") ? protocols.iterator().next() : "";
        Specs.Fabric f = c.spec().fabric();
        boolean rail = f != null && f.topology() != null && f.topology().value().toLowerCase(Locale.ROOT).equals("rail-optimized");
        Span nvSpan = spec.nvlink() == null ? null : spec.nvlink().keySpan();
        return new Target(true, c.name(), g.name(), linkedBy, spec.name() == null ? spec.span() : spec.name().span(),
                g.gpusPerNode() > 0 ? g.gpusPerNode() : -1, nics, gpu == null ? "" : gpu.name(), g.nvswitch(), g.nvlinkDomain(),
                links, perDirection, nvSpan, rail, gdr, gdrSpan, c.rdma(), c.fabric() == null ? "" : c.fabric().display(),
                rdmaNics, nicGbps, layer, protocol);
    }
}
