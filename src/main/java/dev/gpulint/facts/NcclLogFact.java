package dev.gpulint.facts;

import dev.gpulint.core.Span;

/**
 * An NCCL_DEBUG=INFO log: the network NCCL chose and the transports of its channels, counted,
 * each with the first line that shows it, beside what the linked node group declares.
 */
public record NcclLogFact(String file, int socketLines, Span socketSpan, int ibLines, int shmChannels, Span shmSpan,
                          int netChannels, int gdrChannels, Span netSpan, int anyNetChannels, Span anyNetSpan, String anyNetVia,
                          int maxNodes, int oneNodeRanks, int maxNetRank, boolean linked, String cluster,
                          String nodeGroup, boolean rdma, String fabric, boolean nvlink, boolean gdrDeclared,
                          Span declaredSpan) {
    /** The log's file. */
    public String getFile() { return file; }
    /** Lines showing NCCL's socket transport: "NET/Socket : Using ..." or "Using network Socket"; in a log pasted without them, its channels "via NET/Socket/N". */
    public int getSocketLines() { return socketLines; }
    /** The first of them; null when none. */
    public Span getSocketSpan() { return socketSpan; }
    /** Lines showing the IB verbs transport (InfiniBand or RoCE): "NET/IB : Using ..." or "Using network IB". */
    public int getIbLines() { return ibLines; }
    /** Channels "via SHM/...": through host shared memory, between GPUs of one node. */
    public int getShmChannels() { return shmChannels; }
    /** The first of them; null when none. */
    public Span getShmSpan() { return shmSpan; }
    /** Channels "via NET/IB/..." (the IB verbs transport, InfiniBand or RoCE; send and receive sides). */
    public int getNetChannels() { return netChannels; }
    /** Those whose path ends in /GDRDMA (GPUDirect RDMA). */
    public int getGdrChannels() { return gdrChannels; }
    /** The first NET/IB channel without /GDRDMA; null when none. */
    public Span getNetSpan() { return netSpan; }
    /** Channels "via NET/..." of any network: IB verbs with or without /GDRDMA, Socket, a plugin's (send and receive sides). */
    public int getAnyNetChannels() { return anyNetChannels; }
    /** The first of them; null when none. */
    public Span getAnyNetSpan() { return anyNetSpan; }
    /** The path of the first of them as printed after "via" (NET/IB/0/GDRDMA); "" when none. */
    public String getAnyNetVia() { return anyNetVia; }
    /** The most nodes a communicator's init line states (NCCL 2.19+ "nNodes"); -1 when none does. */
    public int getMaxNodes() { return maxNodes; }
    /**
     * The most ranks of a communicator of one node (its init line says nNodes 1); -1 when none. A channel whose
     * ranks are all below it can lie inside that node.
     */
    public int getOneNodeRanks() { return oneNodeRanks; }
    /** The largest rank any channel through the network names (either end, every channel counted); -1 when none. */
    public int getMaxNetRank() { return maxNetRank; }
    /** The log belongs to a node group (EvidenceFact). */
    public boolean isLinked() { return linked; }
    /** Its cluster; "" when not linked. */
    public String getCluster() { return cluster; }
    /** Its node group; "" when not linked. */
    public String getNodeGroup() { return nodeGroup; }
    /** The cluster declares an RDMA fabric (InfiniBand or RoCE). */
    public boolean isRdma() { return rdma; }
    /** The fabric as the manifest declares it (InfiniBand, RoCE, Ethernet); "" when not. */
    public String getFabric() { return fabric; }
    /** The node group's GPUs are joined by NVLink inside the node (an NVSwitch, a mesh or bridges). */
    public boolean isNvlink() { return nvlink; }
    /** A NIC of the node group declares gpudirect_rdma: true. */
    public boolean isGdrDeclared() { return gdrDeclared; }
    /** Where the node group is declared; null when not linked. */
    public Span getDeclaredSpan() { return declaredSpan; }

    /** The stable name of what a finding on this fact is about, for fingerprints. */
    public String identity() { return "nccl-log:" + file; }
}
