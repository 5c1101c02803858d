package dev.gpulint.facts;

/**
 * RoCE traffic-class arithmetic under the usual trust-DSCP map, for rules on NCCL_IB_TC: the
 * traffic-class (ToS) byte carries the DSCP in its upper six bits and ECN in its lower two, and a
 * switch trusting DSCP maps DSCP d to priority d >> 3.
 */
public final class TrafficClass {
    private TrafficClass() {}

    /** ECT(0), the ECN code point a RoCE sender may set in the byte's lower two bits. */
    public static final int ECT0 = 2;

    /** The DSCP a traffic-class byte carries: TC >> 2. */
    public static int dscp(int tc) { return tc >> 2; }

    /** The priority a DSCP lands on under the trust-DSCP map: DSCP >> 3. */
    public static int priority(int dscp) { return dscp >> 3; }

    /** The DSCP NVIDIA's RoCE configuration gives priority p: 8p + 2 (26 for priority 3). */
    public static int dscpForPriority(int priority) { return 8 * priority + 2; }

    /** The traffic-class byte that carries a DSCP with the ECN bits clear: DSCP << 2. */
    public static int tcFor(int dscp) { return dscp << 2; }
}
