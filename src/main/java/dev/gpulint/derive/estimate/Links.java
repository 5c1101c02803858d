package dev.gpulint.derive.estimate;

import dev.gpulint.catalog.Catalog;
import dev.gpulint.derive.Resolved;
import dev.gpulint.derive.Resolver;
import dev.gpulint.derive.unit.BandwidthCheck;
import dev.gpulint.derive.unit.NicSpeeds;
import dev.gpulint.spec.Protocol;
import dev.gpulint.spec.Specs;
import java.util.Locale;
import java.util.Optional;

/**
 * The links a GPU's collectives run on, per direction, as a node group declares them (else as the catalog knows its
 * GPU): the scale-up fabric (NVLink through an NVSwitch, a bridge or a multi-host NVLink rack; AMD Infinity Fabric),
 * the GPU's PCIe link, and the node's NICs. One home for them: NET003 and the plan's estimate read the same figures
 * ({@link CollectiveCost} prices a collective on them).
 *
 * @param gpusPerNode         GPUs per node (ranks fill nodes in order)
 * @param domainSize          GPUs one scale-up domain joins (8 in an HGX node, 2 for bridged pairs, 72 in an NVL72 rack)
 * @param scaleUp             the GPUs have NVLink or Infinity Fabric between them
 * @param infinityFabric      the scale-up fabric is AMD's Infinity Fabric (point to point: a pair gets one link)
 * @param nvlinkGeneration    the NVLink generation (0 for none or Infinity Fabric)
 * @param scaleUpPerDirection a GPU's NVLink (or an Infinity Fabric peer link's) bandwidth per direction, bytes/s
 * @param pcieGeneration      the PCIe generation of each GPU's link (the node group's pcie, else the GPU's)
 * @param pciePerDirection    a GPU's PCIe link per direction, bytes/s (lanes as declared, x16 otherwise)
 * @param hostLinked          a GPU reaches its NIC through its PCIe link (false for superchips, whose NICs hang off the
 *                            Grace CPU's C2C link)
 * @param nicPerNode          the node's NICs together per direction, bytes/s (the RDMA ones when any is declared, else the
 *                            plain Ethernet ones); when none is declared, one 400 Gb/s NIC per GPU ({@link Transport#ASSUMED})
 * @param transport           how NCCL crosses nodes on them
 * @param nics                NICs per node counted in {@code nicPerNode} (0 when assumed)
 * @param nicName             the first of them as written ("400 Gb/s ConnectX-7"), null when assumed
 * @param nicSpan             where that NIC's speed is written, null when assumed
 * @param misread             when that NIC's speed is 8× off its catalog port speed (UNIT001 reports it in the same run):
 *                            the port speed it most likely means, which {@code nicPerNode} counts instead; else null
 * @param jobGpus             the job's GPUs, which fill nodes and scale-up domains in rank order ({@link #forJob}); 0 when
 *                            not known (a group is then taken to sit inside its node or domain whenever it fits one)
 */
public record Links(long gpusPerNode, long domainSize, boolean scaleUp, boolean infinityFabric, int nvlinkGeneration,
                    double scaleUpPerDirection, int pcieGeneration, double pciePerDirection, boolean hostLinked,
                    double nicPerNode, Transport transport, long nics, String nicName, dev.gpulint.core.Span nicSpan,
                    Misread misread, long jobGpus) {

    /**
     * A NIC speed priced as the port speed it most likely means (issue #37: a value the same run calls wrong is not
     * priced as if right): {@code written} as the manifest says it, {@code meant} that port speed ("400 Gb/s"),
     * {@code label} its catalog name ("InfiniBand NDR").
     */
    public record Misread(String written, String meant, String label) {
        /** What the plan's assumptions say once: what was priced instead of what is written, and why. */
        public String describe() {
            return written + " is priced at " + meant + " each, the " + label + " port speed it most likely means: UNIT001 finds"
                    + " it 8× off (bytes written for bits or bits for bytes), and a value the run calls wrong is not priced as if right";
        }
    }

    /** How traffic between nodes runs: NCCL's IB verbs transport (InfiniBand, RoCE), TCP sockets, or not declared. */
    public enum Transport {
        RDMA, TCP, ASSUMED;
    }

    /** A 400 Gb/s NIC per direction (NDR InfiniBand, 400GbE): what an undeclared node is taken to have per GPU. */
    public static final double ASSUMED_NIC = 50e9;

    public Links {
        if (gpusPerNode < 1 || domainSize < 1) throw new IllegalArgumentException("gpus per node and domain size are at least 1");
        if (jobGpus < 0) throw new IllegalArgumentException("a job's GPUs are at least 0 (0: not known)");
    }

    /**
     * The same links for a job of {@code gpus} GPUs as a scheduler places it on multi-host NVLink racks (a domain larger
     * than a node: GB200/GB300 NVL72 and NVL36). A job of one rack or less sits in one. A larger job whose GPUs are a
     * multiple of a segment (the largest power-of-two count of trays a rack holds: 16 trays, 64 GPUs, of an NVL72; 8 trays,
     * 32 GPUs, of an NVL36) runs in whole segments, one per rack: NVIDIA's Slurm block-scheduling guidance for GB200 NVL72
     * ("Achieving Peak System and Workload Efficiency on NVIDIA GB200 NVL72 with Slurm Block Scheduling") recommends segment
     * size 16 for jobs of 128 GPUs and more, and the published multi-rack runs price right only so (bench/plan: the
     * Qwen3-235B ep 64 rows on 256 GB200/GB300 GPUs). Any other job fills racks in rank order: a group that fits a rack's
     * size but straddles the boundary between two (tp 4 · cp 2 · dp 2 at ranks 64–79 of 144 GPUs, the second rack beginning
     * at rank 72) runs at the rate of the slowest link its ring crosses ({@link Tier#of}). Node-sized domains (an HGX node)
     * are filled in order whatever the job.
     */
    public Links forJob(long gpus) {
        long g = Math.max(0, gpus), domain = domainSize;
        if (scaleUp && domainSize > gpusPerNode && g > domainSize) {
            long segment = gpusPerNode * Long.highestOneBit(Math.max(1, domainSize / gpusPerNode));
            if (g % segment == 0) domain = segment;
        }
        return new Links(gpusPerNode, domain, scaleUp, infinityFabric, nvlinkGeneration, scaleUpPerDirection, pcieGeneration,
                pciePerDirection, hostLinked, nicPerNode, transport, nics, nicName, nicSpan, misread, g);
    }

    /**
     * The links of a node group with {@code gpusPerNode} GPUs per node of catalog GPU {@code gpu}. NICs count whatever
     * their protocol: the RDMA ones (InfiniBand, RoCE, or no protocol written: priced as RDMA) when the node has any,
     * else the plain Ethernet ones, which NCCL drives through TCP sockets. A speed that is 8× off its catalog port
     * speed (UNIT001) counts as the port speed it most likely means ({@link NicSpeeds}), and the first such is named.
     */
    public static Links of(Catalog catalog, Catalog.Gpu gpu, Resolved.Group g, long gpusPerNode) {
        long gpn = Math.max(1, gpusPerNode);
        boolean scaleUp = gpu.scaleUp() != Catalog.ScaleUp.NONE;
        double upBidir = gpu.infinityFabric() ? gpu.scaleUpBidirectional() / Math.max(1, gpu.scaleUpDomain() - 1)
                : catalog.nvlinkBidirectional(gpu);
        Specs.Pcie pc = g == null ? null : g.spec().pcie();
        int gen = pc != null && pc.generation() != null ? (int) (long) pc.generation().value() : gpu.pcieGeneration();
        long lanes = pc != null && pc.lanes() != null && pc.lanes().value() > 0 ? pc.lanes().value() : 16;
        double pcie = catalog.pcie(gen).map(Catalog.Pcie::perDirection).orElse(31.5e9) * lanes / 16.0;
        Protocol fabric = null;
        if (g != null && g.cluster() != null && g.cluster().fabric() != null && g.cluster().fabric().type() != null) {
            fabric = Protocol.of(g.cluster().fabric().type().value());
        }
        double rdma = 0, tcp = 0;
        long rdmaCount = 0, tcpCount = 0;
        String rdmaName = null, tcpName = null;
        dev.gpulint.core.Span rdmaSpan = null, tcpSpan = null;
        Misread rdmaMisread = null, tcpMisread = null;
        if (g != null) {
            for (Specs.Nic x : g.spec().nics()) {
                if (x.speed() == null || x.speed().value() == null) continue;
                long c = x.count() == null || x.count().value() == null ? 1L : x.count().value();
                Optional<BandwidthCheck.Figure> meant = NicSpeeds.meant(catalog, x, fabric);
                double bw = meant.map(BandwidthCheck.Figure::bytesPerSecond).orElse(x.speed().value().bytesPerSecond()) * c;
                Misread m = meant.map(f -> new Misread(x.speed().value().written(), fmt(f.bytesPerSecond() * 8 / 1e9) + " Gb/s", f.label())).orElse(null);
                String name = x.speed().value().written() + (x.model() != null ? " " + x.model().value() : "");
                if (Resolver.protocol(x, fabric) == Protocol.ETHERNET) {
                    tcp += bw; tcpCount += c;
                    if (tcpName == null) { tcpName = name; tcpSpan = x.speed().span(); }
                    if (tcpMisread == null) tcpMisread = m;
                } else {
                    rdma += bw; rdmaCount += c;
                    if (rdmaName == null) { rdmaName = name; rdmaSpan = x.speed().span(); }
                    if (rdmaMisread == null) rdmaMisread = m;
                }
            }
        }
        long domain = g == null ? gpn : Math.max(1, g.domainSize());
        int nv = gpu.infinityFabric() ? 0 : gpu.nvlinkGeneration();
        boolean host = gpu.form() != Catalog.Form.SUPERCHIP;
        if (rdma > 0) return new Links(gpn, domain, scaleUp, gpu.infinityFabric(), nv, upBidir / 2, gen, pcie, host, rdma, Transport.RDMA, rdmaCount, rdmaName, rdmaSpan, rdmaMisread, 0);
        if (tcp > 0) return new Links(gpn, domain, scaleUp, gpu.infinityFabric(), nv, upBidir / 2, gen, pcie, host, tcp, Transport.TCP, tcpCount, tcpName, tcpSpan, tcpMisread, 0);
        return new Links(gpn, domain, scaleUp, gpu.infinityFabric(), nv, upBidir / 2, gen, pcie, host, gpn * ASSUMED_NIC, Transport.ASSUMED, 0, null, null, null, 0);
    }

    /** The same node with other NICs: {@code perGpu} bytes/s per direction for each GPU, over {@code transport}. */
    public Links withNics(double perGpu, Transport transport, String name) {
        return new Links(gpusPerNode, domainSize, scaleUp, infinityFabric, nvlinkGeneration, scaleUpPerDirection, pcieGeneration,
                pciePerDirection, hostLinked, perGpu * gpusPerNode, transport, gpusPerNode, name, null, null, jobGpus);
    }

    /**
     * The same GPUs and NICs with a group of ranks laid out otherwise: {@code gpusPerNode} GPUs per node and one scale-up
     * domain of {@code domainSize} (a tier table prices a group inside one domain, or inside one node, as if it fitted:
     * no job's rank order, {@link #jobGpus} 0).
     */
    public Links withDomain(long gpusPerNode, long domainSize) {
        return new Links(gpusPerNode, domainSize, scaleUp, infinityFabric, nvlinkGeneration, scaleUpPerDirection, pcieGeneration,
                pciePerDirection, hostLinked, nicPerNode, transport, nics, nicName, nicSpan, misread, 0);
    }

    /** The same node without NVLink or Infinity Fabric between its GPUs: they reach each other over PCIe only. */
    public Links withoutScaleUp() {
        return new Links(gpusPerNode, 1, false, false, 0, 0, pcieGeneration, pciePerDirection, hostLinked, nicPerNode, transport,
                nics, nicName, nicSpan, null, jobGpus);
    }

    /**
     * NVLink-C2C between a Grace CPU and its GPU, per direction: 900 GB/s bidirectional (hardware-facts.md §1, GB200 row;
     * GB300 the same link), so 450 GB/s each way.
     */
    public static final double C2C_PER_DIRECTION = 450e9;

    /**
     * The GPU's link to host memory, per direction, bytes/s: NVLink-C2C on a Grace superchip (its GPU hangs off the Grace
     * CPU, {@link #hostLinked} false), else its PCIe link. The one home of the host link's rate: CPU activation offload
     * ({@link OffloadCost}) and offloaded model states ({@link StateOffload}) both copy over it.
     */
    public double hostPerDirection() { return hostLinked ? pciePerDirection : C2C_PER_DIRECTION; }

    /** The GPU's link to host memory as the hardware names it: "PCIe Gen5", or "NVLink-C2C" on a Grace superchip. */
    public String hostLinkName() { return hostLinked ? "PCIe Gen" + pcieGeneration : "NVLink-C2C"; }

    /** The node's NIC bandwidth per GPU, per direction: what each rank's own NIC carries in an all-to-all or a send. */
    public double nicPerGpu() { return nicPerNode / gpusPerNode; }

    /** The scale-up fabric as its vendor names it: "NVLink 4", "Infinity Fabric" (AMD), or "NVLink". */
    public String scaleUpName() {
        if (infinityFabric) return "Infinity Fabric";
        return nvlinkGeneration > 0 ? "NVLink " + nvlinkGeneration : "NVLink";
    }

    /** A tier as the hardware names it: the scale-up fabric by its vendor's name, "PCIe Gen5", or the NICs. */
    public String tierName(Tier t) {
        return switch (t) {
            case NVLINK -> scaleUpName();
            case PCIE -> "PCIe Gen" + pcieGeneration;
            case NETWORK -> networkName();
        };
    }

    /**
     * "8 × 400 Gb/s ConnectX-7 (RDMA)", "1 × 25 Gb/s (TCP sockets)", or the assumed NICs; a speed 8× off is said to be
     * priced as the port speed it most likely means: "(RDMA, read as 400 Gb/s: UNIT001)" ({@link Misread#describe()} says why).
     */
    public String networkName() {
        String priced = misread == null ? "" : ", read as " + misread.meant() + ": UNIT001";
        return switch (transport) {
            case RDMA -> nics + " × " + nicName + " per node (RDMA" + priced + ")";
            case TCP -> nics + " × " + nicName + " per node (plain Ethernet: NCCL over TCP sockets" + priced + ")";
            case ASSUMED -> "one 400 Gb/s NIC per GPU (assumed: the node group declares no NIC)";
        };
    }

    static String fmt(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) return String.valueOf((long) v);
        return String.format(Locale.ROOT, "%.3g", v);
    }
}
