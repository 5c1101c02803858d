package dev.gpulint.derive.estimate;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Collective and point-to-point costs of one dimension's group (nccl-tests doc/PERFORMANCE.md): a ring all-reduce
 * moves 2(n − 1)/n · S per rank, an all-gather, reduce-scatter or all-to-all (n − 1)/n · S, at the bus bandwidth of
 * the group's tier; a send moves S at the tier's per-direction rate. Each call records the tier and a study note.
 */
final class Comm {
    private final Hardware hw;
    private final Map<String, Long> stride;
    private final List<Estimate.Note> notes;
    private final Map<String, Tier> tiers;

    Comm(Hardware hw, Layout l, Map<String, Long> stride, List<Estimate.Note> notes, Map<String, Double> comm, Map<String, Tier> tiers) {
        this.hw = hw;
        this.stride = stride;
        this.notes = notes;
        this.tiers = tiers;
    }

    /** The tier of a dimension's group of n ranks. */
    Tier tier(String dim, long n) {
        return Tier.of(n, stride.get(dim), hw.gpusPerNode(), hw.domainSize(), hw.scaleUp());
    }

    /**
     * {@code count} collectives of {@code bytes} each over a group of n; {@code factor} 1 for an all-reduce's
     * 2(n − 1)/n, 0.5 for the (n − 1)/n of the others. Seconds.
     */
    double collective(String dim, long n, double count, double bytes, double factor, String what) {
        if (n <= 1 || count <= 0) return 0;
        Tier t = tier(dim, n);
        tiers.put(dim, t);
        long perNode = Tier.membersPerNode(n, stride.get(dim), hw.gpusPerNode());
        double bw = hw.busBandwidth(t, perNode);
        double moved = 2.0 * factor * (n - 1) / n * bytes;
        double s = count * moved / bw;
        note(dim, t, String.format(Locale.ROOT, "%s × %s %s over %d ranks: %s moved per rank (%s) each, over %s at %.0f GB/s%s: %s",
                num(count), dim, what, n, Units.bytes(moved), factor >= 1 ? "2(n−1)/n·S" : "(n−1)/n·S", name(t),
                bw / 1e9, hw.measured().containsKey(t) ? " (measured by nccl-tests)" : "", Units.seconds(s)));
        return s;
    }

    /** {@code bytes} sent by each rank of the dimension's group to its neighbour. Seconds. */
    double p2p(String dim, long n, double bytes, String what) {
        if (n <= 1 || bytes <= 0) return 0;
        Tier t = tier(dim, n);
        tiers.put(dim, t);
        long perNode = Tier.membersPerNode(n, stride.get(dim), hw.gpusPerNode());
        double bw = hw.busBandwidth(t, perNode);
        double s = bytes / bw;
        note(dim, t, String.format(Locale.ROOT, "%s %s: %s per micro-batch over %s at %.0f GB/s: %s", dim, what, Units.bytes(bytes),
                name(t), bw / 1e9, Units.seconds(s)));
        return s;
    }

    private void note(String dim, Tier t, String text) {
        notes.add(new Estimate.Note(dim, text));
    }

    static String name(Tier t) {
        return switch (t) { case NVLINK -> "NVLink / Infinity Fabric"; case PCIE -> "PCIe"; case NETWORK -> "the network (RDMA NICs)"; };
    }

    private static String num(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.format(Locale.ROOT, "%.1f", v);
    }
}
