package dev.gpulint.facts;

import dev.gpulint.core.Span;
import dev.gpulint.spec.DomainKind;
import java.util.List;

/**
 * A node group with its GPU's catalog entry: one fact per group, however many nodes and GPUs it
 * has, so a 100,000-GPU cluster stays a handful of facts. It carries what the manifest declares and
 * what the catalog says; rules compare them.
 */
public final class NodeGroupFact {

    /** A catalog GPU model and its memory in bytes. */
    public record Variant(String model, double memoryBytes) {}

    private final String clusterName, name, file, gpuModel, catalogName, bridge, memoryWritten;
    private final Span span, gpuCountSpan, gpuModelSpan, nvlinkSpan, nvswitchSpan, bridgeSpan, domainSizeSpan, domainSpan, memorySpan;
    private final long count, gpusPerNode, declaredDomainSize, domainSize, rdmaNicCount;
    private final boolean gpuKnown, pcieForm, nvlinkDeclared, nvswitchDeclared, nicsStated, boardNvswitch;
    private final int nvlinkGeneration, bridgeMax;
    private final DomainKind domainKind;
    private final double memoryBytes, catalogMemoryBytes, nearestMemoryBytes;
    private final List<String> closestGpuModels;
    private final String nearestGpuModel;
    private final List<Variant> memoryNeighbours;

    private NodeGroupFact(Builder b) {
        clusterName = b.clusterName; name = b.name; file = b.file; gpuModel = b.gpuModel; catalogName = b.catalogName;
        bridge = b.bridge; memoryWritten = b.memoryWritten; span = b.span; gpuCountSpan = b.gpuCountSpan;
        gpuModelSpan = b.gpuModelSpan; nvlinkSpan = b.nvlinkSpan; nvswitchSpan = b.nvswitchSpan; bridgeSpan = b.bridgeSpan;
        domainSizeSpan = b.domainSizeSpan; domainSpan = b.domainSpan; memorySpan = b.memorySpan; count = b.count;
        gpusPerNode = b.gpusPerNode; declaredDomainSize = b.declaredDomainSize; domainSize = b.domainSize;
        rdmaNicCount = b.rdmaNicCount; gpuKnown = b.gpuKnown; pcieForm = b.pcieForm; nvlinkDeclared = b.nvlinkDeclared;
        nvswitchDeclared = b.nvswitchDeclared; nicsStated = b.nicsStated; boardNvswitch = b.boardNvswitch; nvlinkGeneration = b.nvlinkGeneration;
        bridgeMax = b.bridgeMax; domainKind = b.domainKind; memoryBytes = b.memoryBytes;
        catalogMemoryBytes = b.catalogMemoryBytes; nearestMemoryBytes = b.nearestMemoryBytes;
        closestGpuModels = b.closestGpuModels; memoryNeighbours = b.memoryNeighbours; nearestGpuModel = b.nearestGpuModel;
    }

    public static Builder builder() { return new Builder(); }

    /** Collects a fact's values; {@link #build()} returns the finished, immutable fact. */
    public static final class Builder {
        private String clusterName, name, file, gpuModel, catalogName, bridge, memoryWritten;
        private Span span, gpuCountSpan, gpuModelSpan, nvlinkSpan, nvswitchSpan, bridgeSpan, domainSizeSpan, domainSpan, memorySpan;
        private long count, gpusPerNode, declaredDomainSize, domainSize, rdmaNicCount;
        private boolean gpuKnown, pcieForm, nvlinkDeclared, nvswitchDeclared, nicsStated, boardNvswitch;
        private int nvlinkGeneration, bridgeMax;
        private DomainKind domainKind = DomainKind.UNKNOWN;
        private double memoryBytes, catalogMemoryBytes, nearestMemoryBytes;
        private List<String> closestGpuModels = List.of();
        private String nearestGpuModel;
        private List<Variant> memoryNeighbours = List.of();

        private Builder() {}

        public NodeGroupFact build() { return new NodeGroupFact(this); }

        public Builder group(String clusterName, String name, String file, Span span, long count) {
            this.clusterName = clusterName; this.name = name; this.file = file; this.span = span; this.count = count; return this;
        }
        public Builder gpus(long perNode, Span countSpan, String model, Span modelSpan) {
            gpusPerNode = perNode; gpuCountSpan = countSpan; gpuModel = model; gpuModelSpan = modelSpan; return this;
        }
        public Builder catalog(String catalogName, boolean pcieForm, int nvlinkGeneration, int bridgeMax) {
            gpuKnown = catalogName != null; this.catalogName = catalogName; this.pcieForm = pcieForm;
            this.nvlinkGeneration = nvlinkGeneration; this.bridgeMax = bridgeMax; return this;
        }
        /** The catalog's boards of this GPU have NVSwitch. */
        public Builder boardNvswitch(boolean nvswitch) { boardNvswitch = nvswitch; return this; }
        public Builder closestGpuModels(List<String> names) { closestGpuModels = List.copyOf(names); return this; }
        /** The one catalog name clearly nearest to an unknown model (HW003's fix), or null. */
        public Builder nearestGpuModel(String name) { nearestGpuModel = name; return this; }
        public Builder nvlink(boolean declared, Span span, boolean nvswitch, Span nvswitchSpan, String bridge, Span bridgeSpan) {
            nvlinkDeclared = declared; nvlinkSpan = span; nvswitchDeclared = nvswitch; this.nvswitchSpan = nvswitchSpan;
            this.bridge = bridge; this.bridgeSpan = bridgeSpan; return this;
        }
        public Builder domain(long declared, Span declaredSpan, long size, DomainKind kind, Span span) {
            declaredDomainSize = declared; domainSizeSpan = declaredSpan; domainSize = size; domainKind = kind;
            domainSpan = span; return this;
        }
        public Builder memory(double bytes, String written, Span span, double catalogBytes, double nearestBytes, List<Variant> neighbours) {
            memoryBytes = bytes; memoryWritten = written; memorySpan = span; catalogMemoryBytes = catalogBytes;
            nearestMemoryBytes = nearestBytes; memoryNeighbours = List.copyOf(neighbours); return this;
        }
        public Builder nics(boolean stated, long rdmaNicCount) { nicsStated = stated; this.rdmaNicCount = rdmaNicCount; return this; }
    }

    /** The cluster's name. */
    public String getClusterName() { return clusterName; }
    /** The node group's name. */
    public String getName() { return name; }
    /** The file the node group is declared in. */
    public String getFile() { return file; }
    /** The node group's entry. */
    public Span getSpan() { return span; }
    /** Nodes in the group; 0 when not stated. */
    public long getCount() { return count; }
    /** GPUs per node as declared; 0 when not stated. */
    public long getGpusPerNode() { return gpusPerNode; }
    /** Where the GPU count is written; null when not stated. */
    public Span getGpuCountSpan() { return gpuCountSpan; }
    /** The GPU model as written; null when not stated. */
    public String getGpuModel() { return gpuModel; }
    /** Where the GPU model is written; null when not stated. */
    public Span getGpuModelSpan() { return gpuModelSpan; }
    /** The GPU model is in gpulint's hardware catalog. */
    public boolean isGpuKnown() { return gpuKnown; }
    /** The catalog's name for the model ("A100-PCIe-40GB" for "NVIDIA A100-PCIE-40GB"); null when not in the catalog. */
    public String getCatalogName() { return catalogName; }
    /**
     * The catalog's boards of this GPU join it through NVSwitch (HGX/DGX 8-GPU baseboards, NVL72 racks);
     * false for V100 SXM2 (hybrid cube-mesh), PCIe cards and unknown models.
     */
    public boolean isBoardNvswitch() { return boardNvswitch; }
    /** The GPU is a PCIe card (catalog form pcie); false for SXM boards and unknown models. */
    public boolean isPcieForm() { return pcieForm; }
    /** The GPU's NVLink generation (3 for A100, 4 for H100); 0 when it has none or the model is unknown. */
    public int getNvlinkGeneration() { return nvlinkGeneration; }
    /** GPUs one NVLink bridge joins on this PCIe card (2 for A100 PCIe, 4 for H200 NVL); 0 when not bridgeable. */
    public int getBridgeMax() { return bridgeMax; }
    /** Up to three catalog model names closest to an unknown model; empty when the model is known or not stated. */
    public List<String> getClosestGpuModels() { return closestGpuModels; }
    /**
     * The one catalog name clearly nearest to an unknown model: within a typo's edit distance (a third of the
     * name, at least 2; case, blanks, dashes and underscores ignored) and nearer than every other name; null when
     * no name is, or two are equally near.
     */
    public String getNearestGpuModel() { return nearestGpuModel; }
    /** The group declares NVLink: a switch, a bandwidth, a bridge other than none, or a domain_size above 1. */
    public boolean isNvlinkDeclared() { return nvlinkDeclared; }
    /** The nvlink block's key; null when there is none. */
    public Span getNvlinkSpan() { return nvlinkSpan; }
    /** The nvlink block declares switch: true. */
    public boolean isNvswitchDeclared() { return nvswitchDeclared; }
    /** Where switch is written; null when not stated. */
    public Span getNvswitchSpan() { return nvswitchSpan; }
    /** none, pairs, quads, or null when not stated. */
    public String getBridge() { return bridge; }
    /** Where bridge is written; null when not stated. */
    public Span getBridgeSpan() { return bridgeSpan; }
    /** GPUs the declared bridge joins: 2 (pairs), 4 (quads); 0 for none or when not stated. */
    public int getBridgeJoin() { return bridge == null ? 0 : switch (bridge) { case "pairs" -> 2; case "quads" -> 4; default -> 0; }; }
    /** domain_size as declared; 0 when not stated. */
    public long getDeclaredDomainSize() { return declaredDomainSize; }
    /** Where domain_size is written; null when not stated. */
    public Span getDomainSizeSpan() { return domainSizeSpan; }
    /** GPUs in one NVLink domain as used for placement (declared, or derived); 1 when there is no NVLink, 0 when unknown. */
    public long getDomainSize() { return domainSize; }
    /** What joins the domain: NODE (NVSwitch or SXM board), RACK (multi-node NVLink), BRIDGE, NONE, UNKNOWN. */
    public DomainKind getDomainKind() { return domainKind; }
    /** The line a placement finding relies on: domain_size, or the GPU count; null when neither is written. */
    public Span getDomainSpan() { return domainSpan; }
    /** GPU memory as declared, in bytes; 0 when not stated. */
    public double getMemoryBytes() { return memoryBytes; }
    /** GPU memory as written ("96 GB"); null when not stated. */
    public String getMemoryWritten() { return memoryWritten; }
    /** Where the GPU memory is written; null when not stated. */
    public Span getMemorySpan() { return memorySpan; }
    /** The catalog model's memory in bytes (binary-sized: 80 GiB); 0 when the model is unknown. */
    public double getCatalogMemoryBytes() { return catalogMemoryBytes; }
    /**
     * Of the catalog model's memory variants, each read in bytes or with its GiB figure written as GB
     * (80 GiB as 80 GB), the one nearest to the declared memory (relative distance), in bytes; 0 when
     * the model is unknown or no memory is declared.
     */
    public double getNearestMemoryBytes() { return nearestMemoryBytes; }
    /** Other catalog models of the same family whose memory is within 5% of the declared memory; empty when none. */
    public List<Variant> getMemoryNeighbours() { return memoryNeighbours; }
    /** NICs per node whose protocol carries RDMA (InfiniBand or RoCE), counting each entry's count (1 when not stated). */
    public long getRdmaNicCount() { return rdmaNicCount; }
    /** The group lists at least one NIC. */
    public boolean isNicsStated() { return nicsStated; }

    /** Stable name of the group: "cluster:c/node_groups[g]". */
    public String identity() { return "cluster:" + clusterName + "/node_groups[" + name + "]"; }

    @Override public String toString() {
        return "NodeGroupFact[" + clusterName + "/" + name + ", count=" + count + ", gpusPerNode=" + gpusPerNode
                + ", gpu=" + gpuModel + " (" + catalogName + "), nvlink=" + nvlinkDeclared + ", switch=" + nvswitchDeclared
                + ", bridge=" + bridge + ", declaredDomain=" + declaredDomainSize + ", domain=" + domainSize + " " + domainKind + "]";
    }
}
