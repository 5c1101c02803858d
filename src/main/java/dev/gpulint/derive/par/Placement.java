package dev.gpulint.derive.par;

import dev.gpulint.spec.ParallelDim;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Rank placement of a job (Megatron's convention): ranks fill nodes in order
 * (rank r sits on node r / gpusPerNode), and the parallel dimensions are laid
 * out over ranks in the job's rank order, fastest-varying first (default
 * tp-cp-ep-dp-pp). Works on counts, never on one object per GPU.
 */
public final class Placement {
    private Placement() {}

    /** Upper bound on TP groups examined; the layout repeats, so this only matters for absurd inputs. */
    static final long MAX_GROUPS = 5_000_000;

    /** A TP group that spans several NVLink domains: its ranks and the domain of each. */
    public record Crossing(long[] ranks, long[] domains) {
        public int domainCount() {
            int n = 1;
            for (int i = 1; i < domains.length; i++) if (domains[i] != domains[i - 1]) n++;
            return n;
        }
    }

    /**
     * The stride between consecutive members of a TP group: the product of the
     * sizes of the dimensions before tp in the rank order. ep does not shape the
     * dense (attention) grid, so it counts as 1.
     */
    public static long tpStride(List<ParallelDim> order, long cp, long dp, long pp) {
        long s = 1;
        for (ParallelDim d : order) {
            if (d == ParallelDim.TP) return s;
            s = mulSat(s, switch (d) { case CP -> cp; case DP -> dp; case PP -> pp; default -> 1; });
        }
        return s;
    }

    /**
     * The NVLink domain of a rank. Domains of at least a node hold whole nodes
     * (domainSize GPUs each, e.g. 72 on GB200 NVL72); smaller ones split a node
     * (bridged pairs).
     */
    public static long domainOf(long rank, long gpusPerNode, long domainSize) {
        if (domainSize >= gpusPerNode) return rank / domainSize;
        long perNode = (gpusPerNode + domainSize - 1) / domainSize;
        return (rank / gpusPerNode) * perNode + (rank % gpusPerNode) / domainSize;
    }

    /**
     * The first TP group (in rank order) whose members do not share one NVLink
     * domain, or empty when every group stays inside one.
     */
    public static Optional<Crossing> firstCrossingTpGroup(long world, long gpusPerNode, long domainSize, long tp, long stride) {
        if (tp <= 1 || world < tp || gpusPerNode < 1 || domainSize < 1 || stride < 1) return Optional.empty();
        long groups = world / tp;
        long block = mulSat(stride, tp);
        // The group layout repeats every stride*tp ranks, the domain layout every max(domain, node) ranks.
        long period = lcmSat(block, domainSize >= gpusPerNode ? domainSize : gpusPerNode);
        long limit = Math.min(groups, Math.min(Math.max(1, period / tp), MAX_GROUPS));
        for (long g = 0; g < limit; g++) {
            long base = (g / stride) * block + (g % stride);
            long first = domainOf(base, gpusPerNode, domainSize);
            long lastRank = base + (tp - 1) * stride;
            if (lastRank >= world) break;
            boolean crosses = false;
            for (long i = 1; i < tp && !crosses; i++) {
                if (domainOf(base + i * stride, gpusPerNode, domainSize) != first) crosses = true;
            }
            if (crosses) {
                int n = (int) Math.min(tp, 1 << 20);
                long[] ranks = new long[n];
                long[] doms = new long[n];
                for (int i = 0; i < n; i++) {
                    ranks[i] = base + i * stride;
                    doms[i] = domainOf(ranks[i], gpusPerNode, domainSize);
                }
                return Optional.of(new Crossing(ranks, doms));
            }
        }
        return Optional.empty();
    }

    /** The name gpulint gives node {@code index} of a node group in messages and pictures: "dgx-0", "dgx-1", ... */
    public static String nodeName(String group, long index) { return group + "-" + index; }

    /** "0-15", "6-8", "0,4,8,12", "0,4,8,...,60" (long strided lists shortened). */
    public static String ranks(long[] r) {
        if (r.length == 0) return "";
        boolean consecutive = true;
        for (int i = 1; i < r.length; i++) if (r[i] != r[i - 1] + 1) { consecutive = false; break; }
        if (consecutive) return r.length == 1 ? String.valueOf(r[0]) : r[0] + "-" + r[r.length - 1];
        List<String> parts = new ArrayList<>();
        if (r.length <= 8) {
            for (long x : r) parts.add(String.valueOf(x));
        } else {
            parts.add(String.valueOf(r[0])); parts.add(String.valueOf(r[1])); parts.add(String.valueOf(r[2]));
            parts.add("..."); parts.add(String.valueOf(r[r.length - 1]));
        }
        return String.join(",", parts);
    }

    /** Saturating multiply: absurd inputs (tp = 2^40) never overflow into wrong answers. */
    public static long mulSat(long a, long b) {
        long hi = Math.multiplyHigh(a, b);
        long lo = a * b;
        if ((hi == 0 && lo >= 0) || (hi == -1 && lo < 0)) return lo;
        return Long.MAX_VALUE;
    }

    static long lcmSat(long a, long b) {
        return mulSat(a / gcd(a, b), b);
    }

    static long gcd(long a, long b) {
        while (b != 0) { long t = a % b; a = b; b = t; }
        return Math.abs(a);
    }
}
