package dev.gpulint.facts;

import dev.gpulint.core.Span;

/**
 * A port of an ibstat or ibv_devinfo capture: its state, physical state, rate and link layer as
 * printed, beside the NIC speed and protocol the node group declares.
 */
public record IbPortFact(String file, String adapter, int port, Span span, String state, Span stateSpan, boolean active,
                         String physicalState, boolean linkUp, double rateGbps, Span rateSpan, String linkLayer,
                         Span linkLayerSpan, boolean linked, String cluster, String nodeGroup, double declaredGbps,
                         String declaredLayer, String declaredProtocol, Span declaredSpan, boolean otherNetwork,
                         String otherNetworkPorts, long computePorts, long declaredNics) {
    /** The capture's file. */
    public String getFile() { return file; }
    /** The adapter (mlx5_0). */
    public String getAdapter() { return adapter; }
    /** The port number. */
    public int getPort() { return port; }
    /** Where the port's section starts. */
    public Span getSpan() { return span; }
    /** The state as printed: Active, Down, Initializing, Armed (ibstat); PORT_ACTIVE (4), PORT_DOWN (1) (ibv_devinfo); "" when not printed. */
    public String getState() { return state; }
    /** The capture prints the port's state ({@link #getState()} is not ""). */
    public boolean isStatePrinted() { return !state.isEmpty(); }
    /** The link layer is printed, the node group's protocol runs on one, and they differ. */
    public boolean isOtherLayer() { return !linkLayer.isEmpty() && !declaredLayer.isEmpty() && !linkLayer.equals(declaredLayer); }
    /** Where the state is printed; the port's section when it is not. */
    public Span getStateSpan() { return stateSpan; }
    /** The state is Active (PORT_ACTIVE); false when not printed. */
    public boolean isActive() { return active; }
    /** The physical state as printed: LinkUp, Polling, Disabled (ibstat); LINK_UP (5) (ibv_devinfo -v); "" when not printed. */
    public String getPhysicalState() { return physicalState; }
    /** The physical state is LinkUp, or is not printed. */
    public boolean isLinkUp() { return linkUp; }

    /** No physical state printed (ibv_devinfo without -v): the message names the state alone. */
    public boolean isNoPhysicalState() { return physicalState.isEmpty(); }

    /** Polling, in either tool's spelling: the port sees no peer (EVID005's cause). */
    public boolean isPolling() { return printed("Polling"); }

    /** Disabled, in either tool's spelling: the port is shut. */
    public boolean isDisabled() { return printed("Disabled"); }

    /** Initializing or Armed (ibstat; INIT, ARMED in ibv_devinfo): the link is up but no subnet manager configured the port. */
    public boolean isUnconfigured() { return printed("Init") || printed("Armed"); }

    /** Whether the state or physical state holds word as ibstat writes it (Polling) or as ibv_devinfo does (POLLING). */
    private boolean printed(String word) {
        String states = state + " " + physicalState;
        return states.contains(word) || states.contains(word.toUpperCase(java.util.Locale.ROOT));
    }
    /** The port's rate in Gb/s (ibstat Rate; ibv_devinfo width × lane speed); -1 when not printed. */
    public double getRateGbps() { return rateGbps; }
    /** Where the rate is printed; null when it is not. */
    public Span getRateSpan() { return rateSpan; }
    /** The link layer as printed: InfiniBand or Ethernet (RoCE); "" when not printed. */
    public String getLinkLayer() { return linkLayer; }
    /** Where the link layer is printed; null when it is not. */
    public Span getLinkLayerSpan() { return linkLayerSpan; }
    /** The capture belongs to a node group (EvidenceFact). */
    public boolean isLinked() { return linked; }
    /** Its cluster; "" when not linked. */
    public String getCluster() { return cluster; }
    /** Its node group; "" when not linked. */
    public String getNodeGroup() { return nodeGroup; }
    /** The speed in Gb/s the node group's NICs declare, when they all declare the same one; -1 otherwise. */
    public double getDeclaredGbps() { return declaredGbps; }
    /** The link layer the declared protocol runs on, when all NICs agree: InfiniBand (infiniband), Ethernet (roce, ethernet); "" otherwise. */
    public String getDeclaredLayer() { return declaredLayer; }
    /** The declared protocol as the manifest names it (InfiniBand, RoCE, Ethernet); "" when the NICs disagree or none is declared. */
    public String getDeclaredProtocol() { return declaredProtocol; }
    /** Where the node group's NICs are declared; null when not linked. */
    public Span getDeclaredSpan() { return declaredSpan; }

    /**
     * The port belongs to another network than the node group's declared NICs (storage, in-band management): the
     * capture has at least as many ports as the declared NICs on their link layer (and at their rate), and this one is
     * on another layer (or slower); EVID006 and EVID007 do not judge it (read.evidence.ComputePorts).
     */
    public boolean isOtherNetwork() { return otherNetwork; }
    /**
     * On the capture's first port of another network: every such port, "mlx5_1 port 1 (Ethernet, 400 Gb/s)" each,
     * comma-separated; "" on every other port.
     */
    public String getOtherNetworkPorts() { return otherNetworkPorts; }
    /** The first port of another network in its capture ({@link #getOtherNetworkPorts()} is not ""). */
    public boolean isFirstOtherNetwork() { return !otherNetworkPorts.isEmpty(); }
    /** The capture's ports that are not of another network: the compute ports. */
    public long getComputePorts() { return computePorts; }
    /** The node group's RDMA NICs, summed; 0 when not linked. */
    public long getDeclaredNics() { return declaredNics; }

    /** The stable name of what a finding on this fact is about, for fingerprints. */
    public String identity() { return "ib:" + file + "/" + adapter + "/" + port; }
}
