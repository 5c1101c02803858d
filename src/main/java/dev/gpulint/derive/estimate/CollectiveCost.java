package dev.gpulint.derive.estimate;

import java.util.Map;

/**
 * What one collective costs each rank on the tier its group runs on: the one model of a collective's time that NET003,
 * the plan's estimate and the plan's tier table read (docs/plan.md, "Collectives").
 *
 * <ul>
 * <li>Volume per rank: {@link Collective#bytesPerRank} (nccl-tests doc/PERFORMANCE.md).</li>
 * <li>Inside one scale-up domain (an NVSwitch node, a bridged pair, an NVL72 rack): the GPU's NVLink (or Infinity Fabric
 *     peer link) per direction. Inside a node without it: the GPU's PCIe link.</li>
 * <li>Across nodes, a ring (all-reduce, reduce-scatter, all-gather) crosses each node once per channel, one channel per
 *     NIC: the group's k ranks on a node (k on a multi-host NVLink domain) share the node's NICs with the node's other
 *     groups, so a rank gets k × the NICs per GPU, capped by what those k GPUs' PCIe links carry to the NICs and by the
 *     link inside the node.</li>
 * <li>Across nodes, a send (a pipeline boundary, a context-parallel ring step) is one pair of GPUs: NCCL's proxy posts it
 *     through one NIC (the sender's own, or with PXN the rail's NIC of a GPU on the same host: NVIDIA/nccl#823, #1479),
 *     so it runs at one NIC per GPU whatever the group's other ranks on the node or rack do (capped by the GPU's PCIe
 *     link to it): 45 GB/s on a 400 Gb/s NIC at 0.9, on a DGX H100 and a GB200 NVL72 rack alike.</li>
 * <li>Across nodes, an all-to-all sends (n − k)/n of S through each rank's own NIC (k its group's ranks in its scale-up
 *     domain, or node) and (k − 1)/n of S inside: both at once, the slower decides. A two-node all-to-all keeps half on
 *     NVLink; the NICs of the node do not add up for one rank as in a ring.</li>
 * <li>Efficiency: the tier's NCCL bus bandwidth over its line rate (catalog {@code nvlink}, {@code pcie}, {@code network}
 *     for RDMA NICs, {@code tcp} for plain Ethernet through NCCL's socket transport), or an nccl-tests measurement of the
 *     tier instead. Without efficiencies ({@code null}): line rate, the ideal time.</li>
 * </ul>
 *
 * @param bytes        S, the bytes each rank holds
 * @param bytesPerRank what each rank sends (and receives)
 * @param lineRate     the rank's bottleneck rate per direction, bytes/s (for an all-to-all: bytesPerRank ÷ ideal time)
 * @param efficiency   the achieved share of it (1 at line rate)
 * @param measured     an nccl-tests bus bandwidth priced it instead of lineRate × efficiency
 * @param local        the group's ranks sharing the node's (or the NVLink rack's) links (network tier only, else n; 1 for a
 *                     send across nodes: one GPU's own NIC)
 * @param remoteBytes  all-to-all only: the bytes each rank sends through its own NIC
 * @param limit        what bounds it
 * @param idealSeconds α + bytesPerRank at line rate
 * @param seconds      the estimate: α + bytesPerRank at the bus bandwidth (÷ 0.92 more on NCCL's tree)
 * @param latency      α, NCCL's latency of the collective ({@link NcclLatency}), in both times above
 * @param algorithm    the algorithm α is NCCL's figure for (an all-reduce: the ring or the tree, as NCCL's tuner picks)
 * @param nodes        the nodes the group spans as NCCL counts them (1 inside one scale-up domain)
 * @param nvlink       the group's ranks on one node are joined by NVLink (else PCIe): α's intra-node steps
 */
public record CollectiveCost(Collective collective, long n, Tier tier, double bytes, double bytesPerRank, double lineRate,
                             double efficiency, boolean measured, long local, double remoteBytes, Limit limit,
                             double idealSeconds, double seconds, double latency, NcclLatency.Algorithm algorithm, long nodes, boolean nvlink) {

    /**
     * A cost of its bandwidth alone, α 0: a group that moves nothing ({@link #none}). A collective that moves bytes is priced
     * by {@link #price}, its α added as the record is made ({@link #withLatency}), never by this alone.
     */
    public static CollectiveCost withoutLatency(Collective collective, long n, Tier tier, double bytes, double bytesPerRank,
                                                double lineRate, double efficiency, boolean measured, long local, double remoteBytes,
                                                Limit limit, double idealSeconds, double seconds) {
        return new CollectiveCost(collective, n, tier, bytes, bytesPerRank, lineRate, efficiency, measured, local, remoteBytes, limit,
                idealSeconds, seconds, 0, NcclLatency.Algorithm.RING, 1, tier != Tier.PCIE);
    }

    /** α's formula with its numbers, as the estimate prints it ({@link NcclLatency#describe}). */
    public String latencyFormula() {
        if (latency <= 0) return "no latency (nothing moves)";
        return NcclLatency.describe(collective, algorithm, n, nodes, nvlink);
    }

    /** The seconds its bytes take at the bus bandwidth, without α. */
    public double bandwidthSeconds() {
        return seconds - latency;
    }

    /** What bounds a collective's rate. */
    public enum Limit {
        /** the GPU's NVLink or Infinity Fabric link */
        SCALE_UP,
        /** the GPU's PCIe link */
        PCIE,
        /** the node's NICs shared by the ring's ranks on the node */
        NICS,
        /** the PCIe links through which the ring's GPUs on a node reach the NICs */
        HOST_LINKS,
        /** each rank's own NIC (an all-to-all's remote share, a send across nodes) */
        OWN_NIC,
        /** the link inside the node or domain (an all-to-all's local share, a ring whose NICs outrun it) */
        INSIDE
    }

    /** Nothing to move: a group of one. */
    static CollectiveCost none(Collective c, Tier t, double bytes) {
        return withoutLatency(c, 1, t, bytes, 0, 0, 1, false, 1, 0, Limit.SCALE_UP, 0, 0);
    }

    /**
     * The cost of collective {@code c} over a group of {@code n} ranks spaced {@code stride} apart in rank order: α, NCCL's
     * latency for the group's ranks and nodes ({@link NcclLatency}), plus its bytes at the tier's bus bandwidth. The group is
     * {@link RankGroup#strided}'s, the one path every strided group takes (a stride below 1 is 1: neighbouring ranks).
     *
     * @param e        the efficiencies, or null for line rate
     * @param measured nccl-tests bus bandwidths per tier (a one-host run for the scale-up tier, several hosts for the
     *                 network), replacing line rate × efficiency; ignored at line rate
     */
    public static CollectiveCost price(Links k, Efficiency e, Map<Tier, Double> measured, Collective c, long n, long stride, double s) {
        return price(k, e, measured, c, RankGroup.strided(n, stride), s);
    }

    /**
     * {@link #price(Links, Efficiency, Map, Collective, long, long, double)} over a group of several strided parts
     * ({@link RankGroup}: the dp·cp group with another dimension between cp and dp in the rank order): its tier the one its
     * widest span reaches ({@link Tier#of(RankGroup, long, long, boolean, long)}), the NICs shared by its members on one
     * node ({@link RankGroup#membersPerUnit}).
     */
    public static CollectiveCost price(Links k, Efficiency e, Map<Tier, Double> measured, Collective c, RankGroup g, double s) {
        return price(k, e, measured, c, g, g.n(), s);
    }

    /**
     * {@link #price(Links, Efficiency, Map, Collective, RankGroup, double)} of a ring of {@code n} ranks that no RankGroup lays
     * out, on the tier and NICs of {@code reach}, a group that reaches as far and shares the NICs as the ring's slowest hop:
     * NCCL's ring moves 2(n − 1)/n of the bytes over every hop at once, so it runs at that hop's rate (EmbeddingSync's group
     * of the first, the MTP layers' and the last stage).
     */
    public static CollectiveCost price(Links k, Efficiency e, Map<Tier, Double> measured, Collective c, RankGroup reach, long n, double s) {
        return bandwidth(k, e, measured, c, reach, n, s);
    }

    /**
     * A collective that moves bytes, its bandwidth half worked out by {@link #bandwidth}, with NCCL's α added: one record per
     * collective priced (the plan's search prices tens of thousands of layouts, several collectives each), not its bandwidth
     * half and then a copy with α.
     */
    private static CollectiveCost withLatency(Links k, Collective c, long n, Tier t, double bytes, double bytesPerRank, double lineRate,
                                              double efficiency, boolean measured, long local, double remoteBytes, Limit limit,
                                              double idealSeconds, double seconds) {
        // NCCL counts the nodes of the communicator; a multi-node NVLink domain is one (MNNVL)
        long nodes = t == Tier.NETWORK ? (n + local - 1) / Math.max(1, local) : 1;
        boolean nvlink = t == Tier.NVLINK || (t == Tier.NETWORK && k.scaleUp());
        NcclLatency.Algorithm a = c == Collective.ALL_REDUCE
                ? NcclLatency.allReduce(n, nodes, nvlink, bytesPerRank, seconds > 0 ? bytesPerRank / seconds : 0)
                : c == Collective.SEND || c == Collective.ALL_TO_ALL ? NcclLatency.Algorithm.STEP : NcclLatency.Algorithm.RING;
        double alpha = NcclLatency.seconds(c, a, n, nodes, nvlink);
        double bw = a == NcclLatency.Algorithm.TREE ? seconds / NcclLatency.TREE_BANDWIDTH : seconds;
        return new CollectiveCost(c, n, t, bytes, bytesPerRank, lineRate, efficiency, measured, local, remoteBytes, limit,
                alpha + idealSeconds, alpha + bw, alpha, a, nodes, nvlink);
    }

    /**
     * A pass of two legs at once, the flex dispatcher's ({@link FlexDispatch}): {@code remote} bytes per rank through its own
     * NIC at {@code nicShare} of {@code nic}, {@code inside} bytes over the scale-up link at {@code linkShare} of
     * {@code link}; the slower decides (as an all-to-all's two shares), NCCL's α of the collective on top.
     */
    static CollectiveCost twoLegs(Links k, Collective c, long n, Tier t, double s, double remote, double inside, double nic,
                                  double nicShare, double link, double linkShare, long local) {
        double ideal = Math.max(inside / link, remote / nic);
        double secs = Math.max(inside / (link * linkShare), remote / (nic * nicShare));
        Limit lim = inside / (link * linkShare) > remote / (nic * nicShare) ? Limit.INSIDE : Limit.OWN_NIC;
        double v = remote + inside;
        return withLatency(k, c, n, t, s, v, v / ideal, ideal / secs, false, local, remote, lim, ideal, secs);
    }

    /**
     * The cost of {@link #price}: nothing to move ({@link #none}, no α), or the rate its tier and limit give, with α
     * ({@link #withLatency}).
     */
    private static CollectiveCost bandwidth(Links k, Efficiency e, Map<Tier, Double> measured, Collective c, RankGroup g, long n, double s) {
        long gpn = k.gpusPerNode();
        Tier t = Tier.of(g, gpn, k.domainSize(), k.scaleUp(), k.jobGpus());
        if ((n <= 1 && c != Collective.SEND) || s <= 0) return none(c, t, s);
        // a group straddling a node or rack boundary shares the NICs of its fewest members on one side (Tier.straddles)
        long perNode = g.membersPerUnit(gpn, k.jobGpus());
        long perDomain = g.membersPerUnit(k.domainSize(), k.jobGpus());
        double v = c.bytesPerRank(n, s);
        Double m = e == null || measured == null ? null : measured.get(t);
        boolean useMeasured = m != null && m > 0;
        double net = e == null ? 1 : k.transport() == Links.Transport.TCP ? e.tcp() : e.network();
        switch (t) {
            case NVLINK -> {
                double eff = e == null ? 1 : e.nvlink();
                double bus = useMeasured ? m : k.scaleUpPerDirection() * eff;
                return withLatency(k, c, n, t, s, v, k.scaleUpPerDirection(), eff, useMeasured, n, 0, Limit.SCALE_UP,
                        v / k.scaleUpPerDirection(), v / bus);
            }
            case PCIE -> {
                double eff = e == null ? 1 : e.pcie();
                // a one-host nccl-tests run on a node without NVLink measures this tier (derive/net NcclMeasured.tier)
                double bus = useMeasured ? m : k.pciePerDirection() * eff;
                return withLatency(k, c, n, t, s, v, k.pciePerDirection(), eff, useMeasured, n, 0, Limit.PCIE,
                        v / k.pciePerDirection(), v / bus);
            }
            default -> { }
        }
        boolean rackDomain = k.scaleUp() && k.domainSize() > gpn;
        if (c == Collective.ALL_TO_ALL) {
            boolean upInside = k.scaleUp() && k.domainSize() >= gpn;
            long local = Math.max(1, upInside ? Math.max(perDomain, perNode) : perNode);
            double insideRate = upInside ? k.scaleUpPerDirection() : k.pciePerDirection();
            double insideEff = e == null ? 1 : upInside ? e.nvlink() : e.pcie();
            double remote = s * (n - local) / n, inside = s * (local - 1) / n;
            double own = k.hostLinked() ? Math.min(k.nicPerGpu(), k.pciePerDirection()) : k.nicPerGpu();
            double ownBus = useMeasured ? m / gpn : own * net;
            double ideal = Math.max(inside / insideRate, remote / own);
            double secs = Math.max(inside / (insideRate * insideEff), remote / ownBus);
            Limit lim = inside / insideRate > remote / own ? Limit.INSIDE : Limit.OWN_NIC;
            return withLatency(k, c, n, t, s, v, v / ideal, ideal / secs, useMeasured, local, remote, lim, ideal, secs);
        }
        if (c == Collective.SEND) {
            // one pair of GPUs, one NIC: the node's other NICs carry other pairs' sends, never this one's
            double own = k.nicPerGpu();
            double link = k.hostLinked() ? k.pciePerDirection() : Double.POSITIVE_INFINITY;
            double line = Math.min(own, link);
            double bus = useMeasured ? m / gpn : line * net;
            return withLatency(k, c, n, t, s, v, line, useMeasured ? bus / line : net, useMeasured, 1, 0,
                    own <= link ? Limit.OWN_NIC : Limit.HOST_LINKS, v / line, v / bus);
        }
        long local = Math.max(1, rackDomain ? Math.max(perNode, perDomain) : perNode);
        double nics = k.nicPerGpu() * local;
        double host = k.hostLinked() ? k.pciePerDirection() * local : Double.POSITIVE_INFINITY;
        double inside = k.scaleUp() ? k.scaleUpPerDirection() : k.pciePerDirection();
        double line = Math.min(nics, Math.min(host, inside));
        Limit lim = line == nics ? Limit.NICS : line == host ? Limit.HOST_LINKS : Limit.INSIDE;
        double bus = useMeasured ? m * local / gpn : line * net;
        return withLatency(k, c, n, t, s, v, line, useMeasured ? bus / line : net, useMeasured, local, 0, lim, v / line, v / bus);
    }
}
