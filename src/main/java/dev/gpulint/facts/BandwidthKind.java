package dev.gpulint.facts;

/** What a declared bandwidth describes, as rules test it ({@link BandwidthFact#getKind()}): NIC, FABRIC, NVLINK, PCIE, JOB_INTER_NODE or JOB_INTRA_NODE. */
public enum BandwidthKind {
    /** A NIC's port speed. */
    NIC("nic"),
    /** A cluster's fabric link speed. */
    FABRIC("fabric"),
    /** A node group's NVLink bandwidth. */
    NVLINK("nvlink"),
    /** A node group's PCIe bandwidth. */
    PCIE("pcie"),
    /** A job's assumed bandwidth between nodes. */
    JOB_INTER_NODE("job-inter-node"),
    /** A job's assumed bandwidth inside a node. */
    JOB_INTRA_NODE("job-intra-node");

    private final String id;

    BandwidthKind(String id) { this.id = id; }

    /** The kind's name in gpulint's own words: "nic", "job-inter-node". */
    public String id() { return id; }

    /** The kind named {@code id}. */
    public static BandwidthKind of(String id) {
        for (BandwidthKind k : values()) if (k.id.equals(id)) return k;
        throw new IllegalArgumentException("no bandwidth kind '" + id + "'");
    }
}
