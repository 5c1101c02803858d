package dev.gpulint.facts;

import dev.gpulint.core.Span;

/**
 * Two GPUs of an nvidia-smi topo -m matrix (each pair once, the cell of the lower-numbered GPU's
 * row) and how they are joined: the cell as printed (NV18, SYS, NODE, PHB, PXB, PIX) and its
 * NVLink count, beside the most each of the two GPUs shows to any GPU, what the node group declares
 * and the matrix's other pairs.
 */
public record TopoPairFact(String file, String gpuA, String gpuB, String cell, int nvlinks, Span span, int linksA, int linksB,
                           boolean linked, String cluster, String nodeGroup, boolean nvswitch, String gpu, int expectedLinks,
                           int maxLinks, boolean allPairsNvlink, boolean fullLinks, Span declaredSpan) {
    /** The matrix's file. */
    public String getFile() { return file; }
    /** The first GPU's label (GPU0). */
    public String getGpuA() { return gpuA; }
    /** The second GPU's label (GPU3). */
    public String getGpuB() { return gpuB; }
    /** The cell as printed: NV# (a bonded set of # NVLinks), PIX, PXB, PHB, NODE, SYS (SOC on old drivers). */
    public String getCell() { return cell; }
    /** NVLinks between the two GPUs: # of an NV# cell, 0 for any other. */
    public int getNvlinks() { return nvlinks; }
    /** Where the cell is written. */
    public Span getSpan() { return span; }
    /** The most NVLinks the first GPU shows to any GPU of the matrix (TopoGpuFact links). */
    public int getLinksA() { return linksA; }
    /** The most NVLinks the second GPU shows to any GPU of the matrix (TopoGpuFact links). */
    public int getLinksB() { return linksB; }
    /** The matrix belongs to a node group (EvidenceFact). */
    public boolean isLinked() { return linked; }
    /** Its cluster; "" when not linked. */
    public String getCluster() { return cluster; }
    /** Its node group; "" when not linked. */
    public String getNodeGroup() { return nodeGroup; }
    /** The node group declares an NVSwitch (nvlink.switch: true): every GPU pair is joined by all of each GPU's links. */
    public boolean isNvswitch() { return nvswitch; }
    /** The node group's GPU as the catalog names it; "" when unknown or not linked. */
    public String getGpu() { return gpu; }
    /** NVLinks every pair shows through an NVSwitch: the GPU's generation's links per GPU (A100 12, H100 and B200 18); 0 without a switch or when unknown. */
    public int getExpectedLinks() { return expectedLinks; }
    /** The largest NVLink count of any pair of the matrix. */
    public int getMaxLinks() { return maxLinks; }
    /** Every GPU pair of the matrix shows NV# (an NVSwitch board, or a fully meshed one). */
    public boolean isAllPairsNvlink() { return allPairsNvlink; }
    /**
     * The matrix's largest NV# is the links per GPU of an NVLink generation of the catalog (V100 6, A100 12, H100 and
     * B200 18): what every pair shows through an NVSwitch; boards without one (the V100 hybrid cube-mesh) show fewer.
     */
    public boolean isFullLinks() { return fullLinks; }
    /** Where the node group declares its NVLink; null when not linked or not declared. */
    public Span getDeclaredSpan() { return declaredSpan; }

    /** The stable name of what a finding on this fact is about, for fingerprints. */
    public String identity() { return "topo:" + file + "/" + gpuA + "-" + gpuB; }
}
