package dev.gpulint.derive.estimate;

/**
 * Where a communication group's traffic runs: inside a scale-up domain (NVLink through an NVSwitch, a bridge or a
 * multi-host NVLink rack; AMD Infinity Fabric), through PCIe and the host inside one node, or across nodes over the
 * NICs. {@link Links#tierName} names each as the hardware's vendor does.
 * {@link #id()} is the key of PLAN.md's {@code exposed_comm_s}.
 */
public enum Tier {
    NVLINK("nvlink"), PCIE("pcie"), NETWORK("network");

    private final String id;

    Tier(String id) { this.id = id; }

    public String id() { return id; }

    /**
     * The tier of a group of {@code n} ranks spaced {@code stride} apart, ranks filling nodes of {@code gpusPerNode}
     * in order and scale-up domains of {@code domainSize} GPUs ({@code scaleUp} false: the GPUs have no NVLink or
     * Infinity Fabric between them). Members per node: 1 when the stride is a node or more, else gpusPerNode ÷ stride.
     * A group inside one scale-up domain runs on it even when the domain spans nodes (GB200/GB300 NVL72: 72 GPUs in
     * trays of 4, one NVLink domain), as the placement draws it.
     */
    public static Tier of(long n, long stride, long gpusPerNode, long domainSize, boolean scaleUp) {
        if (n <= 1) return NVLINK;
        if (scaleUp && membersPerDomain(n, stride, domainSize) >= n) return NVLINK;
        return membersPerNode(n, stride, gpusPerNode) < n ? NETWORK : PCIE;
    }

    /** Members of such a group in one scale-up domain of {@code domainSize} GPUs (at least 1). */
    public static long membersPerDomain(long n, long stride, long domainSize) {
        if (stride >= domainSize) return 1;
        return Math.min(n, Math.max(1, domainSize / Math.max(1, stride)));
    }

    /** Members of such a group on one node (at least 1). */
    public static long membersPerNode(long n, long stride, long gpusPerNode) {
        if (stride >= gpusPerNode) return 1;
        return Math.min(n, Math.max(1, gpusPerNode / Math.max(1, stride)));
    }
}
