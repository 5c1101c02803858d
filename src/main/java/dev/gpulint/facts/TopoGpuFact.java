package dev.gpulint.facts;

import dev.gpulint.core.Span;
import java.util.List;

/**
 * One GPU of an nvidia-smi topo -m matrix and the NVLinks it shows: the most it shows to any other
 * GPU (taken as its own links: through an NVSwitch a GPU with links down is assumed to show fewer on
 * its pairs, which NVIDIA does not document) and the fewest, with its row's cells to the other GPUs,
 * beside what the node group declares and the matrix's other pairs and GPUs.
 */
public record TopoGpuFact(String file, String gpuLabel, int index, Span span, int links, int fewest, List<String> cells, int others,
                          boolean linked, String cluster, String nodeGroup, boolean nvswitch, String gpu, int expectedLinks,
                          int maxLinks, int minLinks, boolean allPairsNvlink, boolean fullLinks, Span declaredSpan) {
    public TopoGpuFact {
        cells = List.copyOf(cells);
    }

    /** The matrix's file. */
    public String getFile() { return file; }
    /** The GPU's label (GPU3). */
    public String getGpuLabel() { return gpuLabel; }
    /** Its place among the matrix's GPUs, from 0 (the first GPU row is 0). */
    public int getIndex() { return index; }
    /** Where its row's label is written. */
    public Span getSpan() { return span; }
    /** The most NVLinks it shows to any other GPU of the matrix: # of its largest NV# cell, 0 when none is NV#. */
    public int getLinks() { return links; }
    /** The fewest NVLinks it shows to another GPU (0 when a cell is a PCIe path). */
    public int getFewest() { return fewest; }
    /** Its row's cells to the other GPUs, in column order, each "GPUn CELL" (GPU0 NV17). */
    public List<String> getCells() { return cells; }
    /** The other GPUs of the matrix. */
    public int getOthers() { return others; }
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
    /** NVLinks each GPU shows through an NVSwitch: the GPU's generation's links per GPU (A100 12, H100 and B200 18); 0 without a switch or when unknown. */
    public int getExpectedLinks() { return expectedLinks; }
    /** The largest NVLink count of any pair of the matrix. */
    public int getMaxLinks() { return maxLinks; }
    /** The fewest NVLinks any GPU of the matrix shows as its own: the smallest of the GPUs' links (0 when a GPU shows none). */
    public int getMinLinks() { return minLinks; }
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
    public String identity() { return "topo:" + file + "/" + gpuLabel; }
}
