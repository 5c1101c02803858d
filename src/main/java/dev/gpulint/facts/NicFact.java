package dev.gpulint.facts;

import dev.gpulint.core.Span;
import dev.gpulint.spec.Protocol;

/** One NIC entry of a node group. */
public final class NicFact {
    private final String clusterName, groupName, file, model;
    private final Protocol protocol;
    private final Boolean gpudirectRdma;
    private final Span span, gpudirectSpan;
    private final int index;

    public NicFact(String clusterName, String groupName, String file, int index, String model, Protocol protocol,
                   Boolean gpudirectRdma, Span span, Span gpudirectSpan) {
        this.clusterName = clusterName; this.groupName = groupName; this.file = file; this.index = index; this.model = model;
        this.protocol = protocol; this.gpudirectRdma = gpudirectRdma; this.span = span; this.gpudirectSpan = gpudirectSpan;
    }

    /** The cluster's name. */
    public String getClusterName() { return clusterName; }
    /** The node group's name. */
    public String getGroupName() { return groupName; }
    /** The file the NIC is declared in. */
    public String getFile() { return file; }
    /** The entry's position in the group's nics list, from 1. */
    public int getIndex() { return index; }
    /** The NIC model as written ("ConnectX-7"); null when not stated. */
    public String getModel() { return model; }
    /** INFINIBAND, ROCE or ETHERNET: as stated, or the fabric's type; null when neither is known. */
    public Protocol getProtocol() { return protocol; }
    /** The protocol carries RDMA (InfiniBand or RoCE); false for Ethernet and when unknown. */
    public boolean isRdma() { return protocol != null && protocol.rdma(); }
    /** gpudirect_rdma: true is declared; false when false or not stated. */
    public boolean isGpudirect() { return Boolean.TRUE.equals(gpudirectRdma); }
    /** The NIC entry. */
    public Span getSpan() { return span; }
    /** Where gpudirect_rdma is written; null when not stated. */
    public Span getGpudirectSpan() { return gpudirectSpan; }

    /** "ConnectX-7", or "#2" for a NIC without a model, to follow the word NIC. */
    public String label() { return model != null ? model : "#" + index; }

    /** Stable name of the NIC: "cluster:c/node_groups[g]/nics[ConnectX-7]", or nics[2] without a model. */
    public String identity() { return "cluster:" + clusterName + "/node_groups[" + groupName + "]/nics[" + (model != null ? model : index) + "]"; }

    @Override public String toString() { return "NicFact[" + clusterName + "/" + groupName + " " + model + " " + protocol + " gdr=" + gpudirectRdma + "]"; }
}
