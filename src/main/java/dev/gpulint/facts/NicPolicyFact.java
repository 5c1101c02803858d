package dev.gpulint.facts;

import dev.gpulint.core.Span;

/**
 * A NIC policy of a network operator (SriovNetworkNodePolicy, NicConfigurationTemplate, a NicClusterPolicy's
 * RDMA device-plugin resource): its link type, its MTU and what that MTU gives RDMA, and whether it selects its nodes.
 */
public final class NicPolicyFact {
    private final String kind, name, file, linkType, linkTypeWritten;
    private final Span span, linkTypeSpan, mtuSpan;
    private final long mtu;
    private final boolean rdma, nodeSelector, nodeSelectorRequired;

    public NicPolicyFact(String kind, String name, String file, Span span, String linkType, String linkTypeWritten,
                         Span linkTypeSpan, long mtu, Span mtuSpan, boolean rdma, boolean nodeSelector,
                         boolean nodeSelectorRequired) {
        this.kind = kind; this.name = name; this.file = file; this.span = span; this.linkType = linkType;
        this.linkTypeWritten = linkTypeWritten; this.linkTypeSpan = linkTypeSpan; this.mtu = mtu; this.mtuSpan = mtuSpan;
        this.rdma = rdma; this.nodeSelector = nodeSelector; this.nodeSelectorRequired = nodeSelectorRequired;
    }

    /** The object's kind: SriovNetworkNodePolicy, NicConfigurationTemplate or NicClusterPolicy. */
    public String getKind() { return kind; }
    /** The object is a NicClusterPolicy (the NVIDIA Network Operator's, which names the cluster's RDMA resources). */
    public boolean isClusterPolicy() { return "NicClusterPolicy".equals(kind); }
    /** metadata.name. */
    public String getName() { return name; }
    /** The file it is declared in. */
    public String getFile() { return file; }
    /** Where the object's name is written (its first key when it has no name). */
    public Span getSpan() { return span; }
    /** The link type: infiniband, ethernet, or null when not stated. */
    public String getLinkType() { return linkType; }
    /** The link type is infiniband. */
    public boolean isInfiniband() { return "infiniband".equals(linkType); }
    /** The link type is ethernet. */
    public boolean isEthernet() { return "ethernet".equals(linkType); }
    /** The link type as written (ib, eth, Ethernet, Infiniband, a device plugin's ether); null when not stated. */
    public String getLinkTypeWritten() { return linkTypeWritten; }
    /** Where the link type is written; null when not stated. */
    public Span getLinkTypeSpan() { return linkTypeSpan; }
    /** The MTU the policy sets; -1 when not stated. */
    public long getMtu() { return mtu; }
    /** Where the MTU is written; null when not stated. */
    public Span getMtuSpan() { return mtuSpan; }
    /** The policy turns RDMA on (isRdma: true, deviceType rdma, or a NIC configuration template, which is for RDMA). */
    public boolean isRdma() { return rdma; }
    /** The policy names the nodes it applies to (spec.nodeSelector). */
    public boolean isNodeSelector() { return nodeSelector; }
    /** The kind's API requires spec.nodeSelector (SriovNetworkNodePolicy). */
    public boolean isNodeSelectorRequired() { return nodeSelectorRequired; }
    /**
     * The RDMA MTU an Ethernet MTU gives RoCE: the largest InfiniBand MTU (256, 512, 1024, 2048,
     * 4096) that does not exceed it (1024 for 1500, 4096 for 9000); -1 without an MTU.
     */
    public long getRoceMtu() {
        if (mtu < 0) return -1;
        long best = 0;
        for (long m = 256; m <= 4096; m *= 2) if (m <= mtu) best = m;
        return best;
    }
    /** The IPoIB MTU of datagram mode on a 4096-byte InfiniBand link MTU: 4096 less the 4-byte IPoIB header. */
    public long getIpoibMtu() { return 4092; }
    /** The IPoIB MTU of datagram mode on a 2048-byte InfiniBand link MTU, the smallest a current fabric runs: 2044. */
    public long getIpoibMinMtu() { return 2044; }

    private String resource;

    /** Records the device-plugin resource the policy makes (NicClusterPolicy: rdma/rdma_shared_device_a). */
    public NicPolicyFact resource(String resource) { this.resource = resource; return this; }

    /**
     * The Kubernetes resource a NicClusterPolicy's RDMA device plugin makes of the NICs it selects
     * (rdma/rdma_shared_device_a, nvidia.com/hostdev); null for the other kinds.
     */
    public String getResource() { return resource; }

    private boolean narrowed;
    private String otherCluster, otherFabricSource;
    private Span otherClusterSpan;

    /** Records that the resource picks NICs by more than their link type. */
    public NicPolicyFact narrowed(boolean narrowed) { this.narrowed = narrowed; return this; }

    /**
     * A device-plugin resource picks some NICs of a node (deviceIDs, ifNames, pfNames, rootDevices,
     * pciAddresses or drivers selectors), or its policy also has a resource of the other link type: its link
     * type says which NICs of a node it takes (storage NICs, say), not what the fabric is.
     */
    public boolean isNarrowed() { return narrowed; }

    /** Records the run's first cluster whose fabric is of the other link type, when none is of this one. */
    public NicPolicyFact otherFabric(String cluster, Span clusterSpan, String source) {
        this.otherCluster = cluster; this.otherClusterSpan = clusterSpan; this.otherFabricSource = source;
        return this;
    }

    /**
     * For a NicClusterPolicy resource that selects NICs by link type alone: the run's first cluster whose
     * fabric is of the other link type (InfiniBand for ether, RoCE for infiniband), when no cluster of the run has
     * a fabric of the selected link type; null otherwise.
     */
    public String getOtherFabricCluster() { return otherCluster; }
    /** Where that cluster is named; null when there is none. */
    public Span getOtherFabricClusterSpan() { return otherClusterSpan; }
    /** Where that cluster's fabric kind is declared, for messages (fabric type infiniband, mlnx_qos lines); null when there is none. */
    public String getOtherFabricSource() { return otherFabricSource; }

    /** The stable name of what a finding on this fact is about, for fingerprints. */
    public String identity() { return kind + ":" + name + (resource == null ? "" : "/" + resource); }

    @Override public String toString() {
        return "NicPolicyFact[" + kind + " " + name + " link=" + linkType + " mtu=" + mtu + " rdma=" + rdma + " selector=" + nodeSelector + "]";
    }
}
