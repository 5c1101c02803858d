package dev.gpulint.facts;

import dev.gpulint.core.Span;

/**
 * A node group with its GPU's catalog entry: one fact per group, however many
 * nodes and GPUs it has, so a 100,000-GPU cluster stays a handful of facts.
 */
public final class NodeGroupFact {
    private final String clusterName;
    private final String name;
    private final String file;
    private final Span span;
    private final long count;
    private final long gpusPerNode;
    private final Span gpuCountSpan;
    private final String gpuModel;
    private final Span gpuModelSpan;
    // catalog
    private final boolean gpuKnown;
    private final String catalogName;
    private final boolean pcieForm;
    private final int nvlinkGeneration;
    private final int bridgeMax;
    // declared NVLink
    private final boolean nvlinkDeclared;
    private final Span nvlinkSpan;
    private final boolean nvswitchDeclared;
    private final Span nvswitchSpan;
    private final String bridge;
    private final Span bridgeSpan;
    private final long declaredDomainSize;
    private final Span domainSizeSpan;
    // derived
    private final long domainSize;
    private final String domainKind;
    private final Span domainSpan;
    private final String domainText;

    public NodeGroupFact(String clusterName, String name, String file, Span span, long count, long gpusPerNode,
                         Span gpuCountSpan, String gpuModel, Span gpuModelSpan, boolean gpuKnown, String catalogName,
                         boolean pcieForm, int nvlinkGeneration, int bridgeMax, boolean nvlinkDeclared, Span nvlinkSpan,
                         boolean nvswitchDeclared, Span nvswitchSpan, String bridge, Span bridgeSpan,
                         long declaredDomainSize, Span domainSizeSpan, long domainSize, String domainKind,
                         Span domainSpan, String domainText) {
        this.clusterName = clusterName; this.name = name; this.file = file; this.span = span; this.count = count;
        this.gpusPerNode = gpusPerNode; this.gpuCountSpan = gpuCountSpan; this.gpuModel = gpuModel;
        this.gpuModelSpan = gpuModelSpan; this.gpuKnown = gpuKnown; this.catalogName = catalogName;
        this.pcieForm = pcieForm; this.nvlinkGeneration = nvlinkGeneration; this.bridgeMax = bridgeMax;
        this.nvlinkDeclared = nvlinkDeclared; this.nvlinkSpan = nvlinkSpan; this.nvswitchDeclared = nvswitchDeclared;
        this.nvswitchSpan = nvswitchSpan; this.bridge = bridge; this.bridgeSpan = bridgeSpan;
        this.declaredDomainSize = declaredDomainSize; this.domainSizeSpan = domainSizeSpan;
        this.domainSize = domainSize; this.domainKind = domainKind; this.domainSpan = domainSpan;
        this.domainText = domainText;
    }

    public String getClusterName() { return clusterName; }
    public String getName() { return name; }
    public String getFile() { return file; }
    public Span getSpan() { return span; }
    public long getCount() { return count; }
    public long getGpusPerNode() { return gpusPerNode; }
    public Span getGpuCountSpan() { return gpuCountSpan; }
    public String getGpuModel() { return gpuModel; }
    public Span getGpuModelSpan() { return gpuModelSpan; }
    public boolean isGpuKnown() { return gpuKnown; }
    public String getCatalogName() { return catalogName; }
    public boolean isPcieForm() { return pcieForm; }
    public int getNvlinkGeneration() { return nvlinkGeneration; }
    /** GPUs one NVLink bridge joins on this PCIe card (2 for A100 PCIe, 4 for H200 NVL); 0 when not bridgeable. */
    public int getBridgeMax() { return bridgeMax; }
    /** A PCIe card whose NVLink comes only through bridges. */
    public boolean isBridgedPcieGpu() { return pcieForm && bridgeMax > 0; }
    public boolean isNvlinkDeclared() { return nvlinkDeclared; }
    public Span getNvlinkSpan() { return nvlinkSpan; }
    public boolean isNvswitchDeclared() { return nvswitchDeclared; }
    public Span getNvswitchSpan() { return nvswitchSpan; }
    /** none, pairs, quads, or null when not stated. */
    public String getBridge() { return bridge; }
    public Span getBridgeSpan() { return bridgeSpan; }
    public boolean isBridgeMissing() { return bridge == null || bridge.equals("none"); }
    /** GPUs the declared bridge joins: 2 (pairs), 4 (quads), 0 otherwise. */
    public int getBridgeJoin() { return bridge == null ? 0 : switch (bridge) { case "pairs" -> 2; case "quads" -> 4; default -> 0; }; }
    public long getDeclaredDomainSize() { return declaredDomainSize; }
    public Span getDomainSizeSpan() { return domainSizeSpan; }
    /** GPUs in one NVLink domain as used for placement (declared, or derived). 1 when there is no NVLink. */
    public long getDomainSize() { return domainSize; }
    /** NODE (NVSwitch or SXM board), RACK (multi-node NVLink), BRIDGE (PCIe bridges), NONE. */
    public String getDomainKind() { return domainKind; }
    /** The line a placement finding relies on: domain_size, or the GPUs per node. */
    public Span getDomainSpan() { return domainSpan; }
    public String getDomainText() { return domainText; }

    // added by the derive stage after construction, before the fact is inserted
    private String closestGpus;
    private boolean memoryMismatch;
    private String memoryText;
    private Span memorySpan;
    private long rdmaNicCount;
    private boolean nicsStated;

    /** HW003: the closest catalog names; HW004: the memory comparison; HW006: the RDMA NICs per node. */
    public NodeGroupFact withExtras(String closestGpus, boolean memoryMismatch, String memoryText, Span memorySpan,
                                    long rdmaNicCount, boolean nicsStated) {
        this.closestGpus = closestGpus;
        this.memoryMismatch = memoryMismatch;
        this.memoryText = memoryText;
        this.memorySpan = memorySpan;
        this.rdmaNicCount = rdmaNicCount;
        this.nicsStated = nicsStated;
        return this;
    }

    public String getClosestGpus() { return closestGpus; }
    public boolean isMemoryMismatch() { return memoryMismatch; }
    public String getMemoryText() { return memoryText; }
    public Span getMemorySpan() { return memorySpan; }
    /** NICs per node whose protocol carries RDMA (InfiniBand or RoCE). */
    public long getRdmaNicCount() { return rdmaNicCount; }
    public boolean isNicsStated() { return nicsStated; }
    public boolean isGpuHasNvlink() { return nvlinkGeneration > 0; }
    public boolean isGpuModelStated() { return gpuModel != null; }

    public String identity() { return "cluster:" + clusterName + "/node_groups[" + name + "]"; }

    @Override public String toString() {
        return "NodeGroupFact[" + clusterName + "/" + name + ", count=" + count + ", gpusPerNode=" + gpusPerNode
                + ", gpu=" + gpuModel + " (" + catalogName + "), nvlink=" + nvlinkDeclared + ", switch=" + nvswitchDeclared
                + ", bridge=" + bridge + ", declaredDomain=" + declaredDomainSize + ", domain=" + domainSize + " " + domainKind + "]";
    }
}
