package dev.gpulint.facts;

import dev.gpulint.core.Span;

/** One NIC entry of a node group. */
public final class NicFact {
    private final String clusterName, groupName, file, model, protocol;
    private final Boolean gpudirectRdma;
    private final Span span, gpudirectSpan;
    private final int index;

    public NicFact(String clusterName, String groupName, String file, int index, String model, String protocol,
                   Boolean gpudirectRdma, Span span, Span gpudirectSpan) {
        this.clusterName = clusterName; this.groupName = groupName; this.file = file; this.index = index; this.model = model;
        this.protocol = protocol; this.gpudirectRdma = gpudirectRdma; this.span = span; this.gpudirectSpan = gpudirectSpan;
    }

    public String getClusterName() { return clusterName; }
    public String getGroupName() { return groupName; }
    public String getFile() { return file; }
    public int getIndex() { return index; }
    /** null when not stated. */
    public String getModel() { return model; }
    /** As stated, or the fabric's type; null when neither is known. */
    public String getProtocol() { return protocol; }
    public boolean isRdma() { return "infiniband".equals(protocol) || "roce".equals(protocol); }
    public boolean isGpudirect() { return Boolean.TRUE.equals(gpudirectRdma); }
    public Span getSpan() { return span; }
    public Span getGpudirectSpan() { return gpudirectSpan; }

    /** "ConnectX-7", or "#2" for a NIC without a model, to follow the word NIC. */
    public String label() { return model != null ? model : "#" + index; }

    public String identity() { return "cluster:" + clusterName + "/node_groups[" + groupName + "]/nics[" + (model != null ? model : index) + "]"; }

    @Override public String toString() { return "NicFact[" + clusterName + "/" + groupName + " " + model + " " + protocol + " gdr=" + gpudirectRdma + "]"; }
}
