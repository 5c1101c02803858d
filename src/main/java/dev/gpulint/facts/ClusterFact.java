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


    /** The cluster's name. */
    public String getName() { return name; }
    /** The file that declares it. */
    public String getFile() { return file; }
    /** Where the name is written. */
    public Span getNameSpan() { return nameSpan; }
    /** Its position among the run's facts, in input order (the first of a duplicated name has the smaller one). */
    public int getOrdinal() { return ordinal; }
    /** fabric.type as written: infiniband, roce or ethernet; null when not stated. */
    public String getFabricType() { return fabricType; }
    /** fabric.topology: rail-optimized, fat-tree or other; null when not stated. */
    public String getTopology() { return topology; }
    /** fabric.type is ethernet (plain Ethernet, not RoCE as a type). */
    public boolean isEthernet() { return "ethernet".equals(fabricType); }
    /** fabric.topology is rail-optimized. */
    public boolean isRailOptimized() { return "rail-optimized".equals(topology); }
    /** RoCE is declared: fabric type roce, or a NIC with protocol roce. */
    public boolean isRoce() { return roce; }
    /** Where RoCE is declared (the fabric type or the NIC protocol); null without RoCE. */
    public Span getRoceSpan() { return roceSpan; }
    /** Where RoCE is declared, for messages: "fabric type roce" or "NIC ConnectX-7 protocol roce". */
    public String getRoceSource() { return roceSource; }
    /** null when not stated. */
    public Boolean getPfcEnabled() { return pfcEnabled; }
    /** Where fabric.roce.pfc.enabled is written; null when not stated. */
    public Span getPfcSpan() { return pfcSpan; }
    /** fabric.roce.ecn.enabled; null when not stated. */
    public Boolean getEcnEnabled() { return ecnEnabled; }
    /** Where fabric.roce.ecn.enabled is written; null when not stated. */
    public Span getEcnSpan() { return ecnSpan; }
    /** Node groups the cluster declares. */
    public int getNodeGroupCount() { return nodeGroupCount; }

    private Span firstNameSpan;

    /** Where an earlier cluster of the same name is written (the first of them); null when this is the first with its name. */
    public Span getFirstNameSpan() { return firstNameSpan; }

    /** Records the first cluster of the same name (the derive stage keys clusters by name). */
    public ClusterFact firstOfName(Span first) { this.firstNameSpan = first; return this; }

    private final double oversubscription;
    private final Span oversubscriptionSpan;
    private final boolean rdma;
    private final int pfcPriority;
    private final Span pfcPrioritySpan;
    private final int dscp;
    private final Span dscpSpan;

    /** The fabric's oversubscription, whether RDMA is declared anywhere, and the PFC priority. */
    public ClusterFact(String name, String file, Span nameSpan, int ordinal, String fabricType, String topology,
                       boolean roce, Span roceSpan, String roceSource, Boolean pfcEnabled, Span pfcSpan,
                       Boolean ecnEnabled, Span ecnSpan, int nodeGroupCount, double oversubscription,
                       Span oversubscriptionSpan, boolean rdma, int pfcPriority, Span pfcPrioritySpan,
                       int dscp, Span dscpSpan, int roceTrafficPriority, String roceTrafficSource, String origin) {
        this.name = name; this.file = file; this.nameSpan = nameSpan; this.ordinal = ordinal;
        this.fabricType = fabricType; this.topology = topology; this.roce = roce; this.roceSpan = roceSpan;
        this.roceSource = roceSource; this.pfcEnabled = pfcEnabled; this.pfcSpan = pfcSpan;
        this.ecnEnabled = ecnEnabled; this.ecnSpan = ecnSpan; this.nodeGroupCount = nodeGroupCount;
        this.oversubscription = oversubscription;
        this.oversubscriptionSpan = oversubscriptionSpan;
        this.rdma = rdma;
        this.pfcPriority = pfcPriority;
        this.pfcPrioritySpan = pfcPrioritySpan;
        this.dscp = dscp;
        this.dscpSpan = dscpSpan;
        this.roceTrafficPriority = roceTrafficPriority;
        this.roceTrafficSource = roceTrafficSource;
        this.origin = origin;
        if (origin == null) this.pfcFlags = NATIVE_PFC;
    }

    /** Where a gpulint cluster file states its PFC priority. */
    private static final String NATIVE_PFC = "fabric.roce.pfc.priority";

    private final int roceTrafficPriority;
    private final String roceTrafficSource;
    private final String origin;
    /**
     * Where a cluster read from another format comes from ("NicConfigurationTemplate 'cx7'"), null for a
     * native manifest: such clusters (one per NIC configuration object, overlays included) are not native
     * names that jobs bind to by hand.
     */
    public String getOrigin() { return origin; }

    /**
     * The priority RoCE traffic lands on under trust-DSCP: fabric.roce.dscp >> 3, else 3 (DSCP 26,
     * NVIDIA's default); -1 without RoCE.
     */
    public int getRoceTrafficPriority() { return roceTrafficPriority; }
    /** Where the RoCE priority comes from, for messages: "fabric.roce.dscp 34" or "DSCP 26, NVIDIA's RoCE default". */
    public String getRoceTrafficSource() { return roceTrafficSource; }
    /** The DSCP the fabric declares for RoCE (fabric.roce.dscp); -1 when not stated. */
    public int getDscp() { return dscp; }
    /** Where fabric.roce.dscp is written; null when not stated. */
    public Span getDscpSpan() { return dscpSpan; }
    /**
     * The priority the declared DSCP lands on: under the usual trust-DSCP map DSCP >> 3, or where the NICs'
     * own DSCP-to-priority map (mlnx_qos --dscp2prio) puts it; -1 without a DSCP, when the map leaves it
     * unknown, or when the NICs trust PCP (the DSCP picks no priority then).
     */
    public int getDscpPriority() { return dscpPriority; }

    private int dscpPriority = -1;
    private boolean settingsPartial;
    private String pfcFlags = "NicConfigurationTemplate qos.pfc";
    private String trust;

    /**
     * Records what the NICs' own QoS settings say: the declared DSCP's priority under their map, whether the
     * settings are a host's only (absent settings unknown), where PFC's eight flags are written, and the trust state.
     */
    public ClusterFact qos(int dscpPriority, boolean partial, String pfcFlags, String trust) {
        this.dscpPriority = dscpPriority;
        this.settingsPartial = partial;
        if (pfcFlags != null) this.pfcFlags = pfcFlags;
        this.trust = trust;
        return this;
    }

    /**
     * The fabric's settings come from a host tool's lines only (mlnx_qos in a script): a setting they leave
     * out (PFC, ECN) is unknown, not absent, so the rules on absent settings do not judge it.
     */
    public boolean isSettingsPartial() { return settingsPartial; }
    /**
     * Where the PFC priority is written, for advice: "NicConfigurationTemplate qos.pfc" or "mlnx_qos --pfc"
     * (eight 0/1 flags), or "fabric.roce.pfc.priority" (one number) in a gpulint cluster file.
     */
    public String getPfcFlags() { return pfcFlags; }
    private boolean roceDscpMapped;
    private Span dscpMapSpan;

    /** Records whether the NICs' own DSCP map moves RoCE's DSCP, and where the map is written. */
    public ClusterFact dscpMap(boolean mapped, Span where) { this.roceDscpMapped = mapped; this.dscpMapSpan = where; return this; }

    /**
     * The NICs' own DSCP-to-priority map (mlnx_qos --dscp2prio set) sends RoCE's DSCP (26 by default) to
     * another priority than DSCP >> 3: {@link #getRoceTrafficPriority()} is the map's.
     */
    public boolean isRoceDscpMapped() { return roceDscpMapped; }
    /** Where the NICs' DSCP map is written (the first --dscp2prio entry); null when the default map applies. */
    public Span getDscpMapSpan() { return dscpMapSpan; }

    /** Whether {@link #getPfcFlags()} names a list of eight 0/1 flags (priorities 0-7) rather than one priority number. */
    public boolean isPfcFlagList() { return !NATIVE_PFC.equals(pfcFlags); }
    /** The NICs' priority trust state as set ("dscp" or "pcp"); null when nothing sets it. */
    public String getTrust() { return trust; }

    /** N of "N:1"; 0 when not stated. */
    public double getOversubscription() { return oversubscription; }
    /** Where fabric.oversubscription is written; null when not stated. */
    public Span getOversubscriptionSpan() { return oversubscriptionSpan; }
    /** InfiniBand or RoCE anywhere: the fabric type or a NIC's protocol. */
    public boolean isRdma() { return rdma; }
    /** Declared PFC priority; -1 when not stated. */
    public int getPfcPriority() { return pfcPriority; }
    /** Where fabric.roce.pfc.priority is written; null when not stated. */
    public Span getPfcPrioritySpan() { return pfcPrioritySpan; }
    /** The oversubscription as the manifest writes ratios: "4:1". */
    public String getOversubscriptionText() { return dev.gpulint.spec.Quantities.format(oversubscription) + ":1"; }

    public String identity() { return "cluster:" + name; }

    @Override public String toString() {
        return "ClusterFact[" + name + ", fabric=" + fabricType + ", topology=" + topology + ", roce=" + roce
                + " (" + roceSource + "), pfc=" + pfcEnabled + ", ecn=" + ecnEnabled + ", groups=" + nodeGroupCount + "]";
    }
}
