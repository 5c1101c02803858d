package dev.gpulint.facts;

import dev.gpulint.core.Span;

/** A cluster as the rules see it: one fact per cluster, fabric settings flattened. */
public final class ClusterFact {
    private final String name;
    private final String file;
    private final Span nameSpan;
    private final int ordinal;
    private final String fabricType;
    private final String topology;
    private final boolean roce;
    private final Span roceSpan;
    private final String roceSource;
    private final Boolean pfcEnabled;
    private final Span pfcSpan;
    private final Boolean ecnEnabled;
    private final Span ecnSpan;
    private final int nodeGroupCount;


    public String getName() { return name; }
    public String getFile() { return file; }
    public Span getNameSpan() { return nameSpan; }
    public int getOrdinal() { return ordinal; }
    public String getFabricType() { return fabricType; }
    public String getTopology() { return topology; }
    /** RoCE is declared: fabric type roce, or a NIC with protocol roce. */
    public boolean isRoce() { return roce; }
    public Span getRoceSpan() { return roceSpan; }
    /** Where RoCE is declared, for messages: "fabric type roce" or "NIC ConnectX-7 protocol roce". */
    public String getRoceSource() { return roceSource; }
    /** null when not stated. */
    public Boolean getPfcEnabled() { return pfcEnabled; }
    public Span getPfcSpan() { return pfcSpan; }
    public Boolean getEcnEnabled() { return ecnEnabled; }
    public Span getEcnSpan() { return ecnSpan; }
    public int getNodeGroupCount() { return nodeGroupCount; }

    private final double oversubscription;
    private final Span oversubscriptionSpan;
    private final boolean rdma;
    private final int pfcPriority;
    private final Span pfcPrioritySpan;

    /** The fabric's oversubscription, whether RDMA is declared anywhere, and the PFC priority. */
    public ClusterFact(String name, String file, Span nameSpan, int ordinal, String fabricType, String topology,
                       boolean roce, Span roceSpan, String roceSource, Boolean pfcEnabled, Span pfcSpan,
                       Boolean ecnEnabled, Span ecnSpan, int nodeGroupCount, double oversubscription,
                       Span oversubscriptionSpan, boolean rdma, int pfcPriority, Span pfcPrioritySpan) {
        this.name = name; this.file = file; this.nameSpan = nameSpan; this.ordinal = ordinal;
        this.fabricType = fabricType; this.topology = topology; this.roce = roce; this.roceSpan = roceSpan;
        this.roceSource = roceSource; this.pfcEnabled = pfcEnabled; this.pfcSpan = pfcSpan;
        this.ecnEnabled = ecnEnabled; this.ecnSpan = ecnSpan; this.nodeGroupCount = nodeGroupCount;
        this.oversubscription = oversubscription;
        this.oversubscriptionSpan = oversubscriptionSpan;
        this.rdma = rdma;
        this.pfcPriority = pfcPriority;
        this.pfcPrioritySpan = pfcPrioritySpan;
    }

    /** N of "N:1"; 0 when not stated. */
    public double getOversubscription() { return oversubscription; }
    public Span getOversubscriptionSpan() { return oversubscriptionSpan; }
    /** InfiniBand or RoCE anywhere: the fabric type or a NIC's protocol. */
    public boolean isRdma() { return rdma; }
    /** Declared PFC priority; -1 when not stated. */
    public int getPfcPriority() { return pfcPriority; }
    public Span getPfcPrioritySpan() { return pfcPrioritySpan; }
    public String getOversubscriptionText() { return dev.gpulint.spec.Quantities.format(oversubscription) + ":1"; }

    public String identity() { return "cluster:" + name; }

    @Override public String toString() {
        return "ClusterFact[" + name + ", fabric=" + fabricType + ", topology=" + topology + ", roce=" + roce
                + " (" + roceSource + "), pfc=" + pfcEnabled + ", ecn=" + ecnEnabled + ", groups=" + nodeGroupCount + "]";
    }
}
