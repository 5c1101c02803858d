package dev.gpulint.derive.estimate;

import dev.gpulint.spec.ParallelDim;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The estimate's communication terms: each dimension's collectives and sends priced by {@link CollectiveCost} on the
 * tier its group runs on, kept as numbers ({@link Estimate.Traffic}) with the tier per dimension and a study note.
 */
final class Comm {
    private final Hardware hw;
    private final Map<ParallelDim, Long> stride;
    private final List<Estimate.Note> notes;
    private final List<Estimate.Traffic> traffic;
    private final Map<ParallelDim, Tier> tiers;

    Comm(Hardware hw, Map<ParallelDim, Long> stride, List<Estimate.Note> notes, List<Estimate.Traffic> traffic, Map<ParallelDim, Tier> tiers) {
        this.hw = hw;
        this.stride = stride;
        this.notes = notes;
        this.traffic = traffic;
        this.tiers = tiers;
    }

    /** {@code count} collectives {@code c} of {@code bytes} each over a dimension's group of n. Seconds. */
    double collective(ParallelDim dim, long n, double count, double bytes, Collective c, String what) {
        return collective(dim, n, stride.get(dim), count, bytes, c, what);
    }

    /**
     * {@link #collective} over a sub-group of a dimension whose members are {@code groupStride} ranks apart (hybrid
     * sharding's shard group and replicas: {@link HybridShard}); the dimension's tier becomes this group's.
     */
    double collective(ParallelDim dim, long n, long groupStride, double count, double bytes, Collective c, String what) {
        if (n <= 1 || count <= 0) return 0;
        CollectiveCost k = hw.price(c, n, groupStride, bytes);
        tiers.put(dim, k.tier());
        traffic.add(new Estimate.Traffic(dim, what, count, k));
        double s = count * k.seconds();
        notes.add(new Estimate.Note(dim.label(), () -> String.format(Locale.ROOT, "%s × %s %s over %d ranks: %s moved per rank (%s) each, over %s%s: %s",
                num(count), dim.label(), what, n, Units.bytes(k.bytesPerRank()), c.formula(), path(k), rate(k), Units.seconds(s))));
        return s;
    }

    /** {@code bytes} sent by each rank of the dimension's group to its neighbour. Seconds. */
    double p2p(ParallelDim dim, long n, double bytes, String what) {
        if (n <= 1 || bytes <= 0) return 0;
        CollectiveCost k = hw.price(Collective.SEND, n, stride.get(dim), bytes);
        tiers.put(dim, k.tier());
        traffic.add(new Estimate.Traffic(dim, what, 1, k));
        notes.add(new Estimate.Note(dim.label(), () -> String.format(Locale.ROOT, "%s %s: %s per micro-batch over %s%s: %s", dim.label(), what,
                Units.bytes(bytes), path(k), rate(k), Units.seconds(k.seconds()))));
        return k.seconds();
    }

    /** Where the bytes go: the tier as the hardware names it, and for an all-to-all across nodes its remote share. */
    private String path(CollectiveCost k) {
        String name = hw.links().tierName(k.tier());
        if (k.collective() == Collective.ALL_TO_ALL && k.tier() == Tier.NETWORK) {
            return String.format(Locale.ROOT, "%s (%d of the %d ranks in reach inside; %s per rank through its own NIC)", name,
                    k.local(), k.n(), Units.bytes(k.remoteBytes()));
        }
        if (k.tier() == Tier.NETWORK && k.local() > 1) {
            return name + String.format(Locale.ROOT, " (the ring's %d ranks on a node cross it once per channel: %d GPUs' share of its NICs)",
                    k.local(), k.local());
        }
        return name;
    }

    private static String rate(CollectiveCost k) {
        double bus = k.seconds() > 0 ? k.bytesPerRank() / k.seconds() : 0;
        return String.format(Locale.ROOT, " at %.0f GB/s%s", bus / 1e9, k.measured() ? " (measured by nccl-tests)"
                : String.format(Locale.ROOT, " (%.0f GB/s line rate × %.2f)", k.lineRate() / 1e9, k.efficiency()));
    }

    private static String num(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.format(Locale.ROOT, "%.1f", v);
    }
}
