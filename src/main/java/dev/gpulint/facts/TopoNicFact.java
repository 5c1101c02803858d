package dev.gpulint.facts;

import dev.gpulint.core.Span;

/**
 * A GPU of an nvidia-smi topo -m matrix that shows NICs, and the NIC nearest to it: the cell
 * kind (PIX and PXB stay under PCIe switches; PHB, NODE and SYS cross the CPU's host bridge or
 * the link between sockets), beside what the node group declares for GPUDirect RDMA.
 */
public record TopoNicFact(String file, String gpu, String nic, String nicName, String kind, TopoPath path, Span span, int nicCount,
                          boolean linked, String cluster, String nodeGroup, boolean railOptimized, boolean gdrDeclared,
                          Span gdrSpan) {
    /** The matrix's file. */
    public String getFile() { return file; }
    /** The GPU's label (GPU0). */
    public String getGpu() { return gpu; }
    /** The nearest NIC's label (NIC0, or mlx5_0 on old drivers). */
    public String getNic() { return nic; }
    /** The nearest NIC's device name from the NIC legend (mlx5_0); its label when there is no legend. */
    public String getNicName() { return nicName; }
    /** The nearest NIC's cell in the GPU's row: PIX, PXB, PHB, NODE or SYS. */
    public String getKind() { return kind; }
    /** That cell's path: PIX, PXB, PHB, NODE, SYS or SOC. */
    public TopoPath getPath() { return path; }
    /** Where that cell is written. */
    public Span getSpan() { return span; }
    /** NICs the matrix shows. */
    public int getNicCount() { return nicCount; }
    /** The matrix belongs to a node group (EvidenceFact). */
    public boolean isLinked() { return linked; }
    /** Its cluster; "" when not linked. */
    public String getCluster() { return cluster; }
    /** Its node group; "" when not linked. */
    public String getNodeGroup() { return nodeGroup; }
    /** The cluster's fabric is rail-optimized (fabric.topology). */
    public boolean isRailOptimized() { return railOptimized; }
    /** A NIC of the node group declares gpudirect_rdma: true. */
    public boolean isGdrDeclared() { return gdrDeclared; }
    /** Where gpudirect_rdma is declared; null when it is not. */
    public Span getGdrSpan() { return gdrSpan; }

    /** The stable name of what a finding on this fact is about, for fingerprints. */
    public String identity() { return "topo:" + file + "/" + gpu + "/nic"; }
}
