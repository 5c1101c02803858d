package dev.gpulint.facts;

/**
 * The path between a GPU and a NIC as an nvidia-smi topo -m cell names it ({@link TopoNicFact#getPath()}), nearest
 * first: PIX and PXB stay under PCIe switches; PHB crosses the CPU's host bridge; NODE the interconnect between
 * host bridges of one NUMA node; SYS (SOC on old drivers) the link between sockets (the matrix's legend).
 */
public enum TopoPath {
    /** At most one PCIe switch (PCIe bridge) between them. */
    PIX(1),
    /** Several PCIe switches, no host bridge. */
    PXB(2),
    /** Through a PCIe host bridge, the CPU. */
    PHB(3),
    /** Between PCIe host bridges of one NUMA node. */
    NODE(4),
    /** Across the link between NUMA nodes (QPI, UPI, SMP interconnect). */
    SYS(5),
    /** SYS's name on old drivers. */
    SOC(5);

    private final int distance;

    TopoPath(int distance) { this.distance = distance; }

    /** How far the path goes, 1 (PIX) to 5 (SYS): the nearest NIC has the least. */
    public int distance() { return distance; }

    /** The path a matrix cell names; null for any other cell (X, NV#, a number). */
    public static TopoPath of(String cell) {
        for (TopoPath p : values()) if (p.name().equals(cell)) return p;
        return null;
    }
}
