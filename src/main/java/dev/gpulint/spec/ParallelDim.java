package dev.gpulint.spec;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The parallel dimensions of a training job, the one vocabulary from the bound specs up (bind, derive, plan, report).
 * A format's own words for them (a Megatron flag, a NeMo YAML key, a JSON field of PLAN.md) stay text at that
 * format's reader or writer, mapped to a constant in one place each.
 *
 * <p>The constants are declared in Megatron-LM's default rank order (fastest first: tp-cp-ep-dp-pp), then the two
 * dimensions that take no place in a rank order (etp, vpp), so an {@link java.util.EnumMap} of them iterates in
 * that order.
 */
public enum ParallelDim {
    /** Tensor parallel: splits each layer's matrices; a factor of the GPU count. */
    TP("tp", "tp", true, true),
    /** Context parallel: splits the sequence; a factor of the GPU count. */
    CP("cp", "cp", true, true),
    /**
     * Expert parallel: splits the experts over the ranks of cp × dp (Megatron-Core's expert grid, expert-dp =
     * cp·dp ÷ ep), so it is no factor of the GPU count of its own; it has a place in the rank order.
     */
    EP("ep", "ep", false, true),
    /** Data parallel: replicas (or ZeRO/FSDP shards) of the model; a factor of the GPU count. */
    DP("dp", "dp", true, true),
    /** Pipeline parallel: splits the layers into stages; a factor of the GPU count. */
    PP("pp", "pp", true, true),
    /** Expert tensor parallel: tp inside the experts (Megatron's default: tp); no factor of the GPU count. */
    ETP("etp", "etp", false, false),
    /** Virtual pipeline stages (model chunks) per pipeline rank: interleaving, no factor of the GPU count. */
    VPP("virtual_pp", "vpp", false, false);

    /** The dimensions a rank order names, in Megatron-LM's default order (fastest first): tp, cp, ep, dp, pp. */
    public static final List<ParallelDim> DEFAULT_ORDER = List.of(TP, CP, EP, DP, PP);

    /** The dimensions whose sizes multiply into the job's GPU count (world = tp·cp·dp·pp). */
    public static final List<ParallelDim> WORLD = List.of(TP, CP, DP, PP);

    private final String key;
    private final String label;
    private final boolean world;
    private final boolean ranked;

    ParallelDim(String key, String label, boolean world, boolean ranked) {
        this.key = key;
        this.label = label;
        this.world = world;
        this.ranked = ranked;
    }

    /** The native manifest's key under {@code parallelism} (FORMAT.md): {@code tp}, ..., {@code virtual_pp}. */
    public String key() { return key; }

    /** The short name reports, notes and rank orders write: {@code tp}, ..., {@code vpp}. */
    public String label() { return label; }

    /** Its size is a factor of the job's GPU count (tp, cp, dp, pp). */
    public boolean multipliesWorld() { return world; }

    /** It has a place in a rank order ({@code parallelism.order}: tp, cp, ep, dp, pp). */
    public boolean ranked() { return ranked; }

    /** The short name, so that text built from a dimension reads as reports write it. */
    @Override public String toString() { return label; }

    /** The dimension of a short name ({@code "vpp"}), case as written; empty for any other text. */
    public static Optional<ParallelDim> ofLabel(String label) {
        for (ParallelDim d : values()) if (d.label.equals(label)) return Optional.of(d);
        return Optional.empty();
    }

    /** The short names of the ranked dimensions, in the default order: what a rank order may name. */
    public static List<String> rankedLabels() {
        List<String> out = new ArrayList<>();
        for (ParallelDim d : DEFAULT_ORDER) out.add(d.label);
        return List.copyOf(out);
    }

    /**
     * A rank order made whole: the ranked dimensions of {@code order} (null: none) in its order, each once, then the
     * ones it leaves out in the default order.
     */
    public static List<ParallelDim> completeOrder(List<ParallelDim> order) {
        // the estimate asks for it several times per layout priced (RankGroup: ~3 % of a plan-hybrid profile, lists made and
        // searched each time): an order that is whole already (null: the default) is its own answer
        if (order == null || order.isEmpty()) return DEFAULT_ORDER;
        if (whole(order)) return List.copyOf(order);
        List<ParallelDim> out = new ArrayList<>();
        if (order != null) for (ParallelDim d : order) if (d.ranked && !out.contains(d)) out.add(d);
        for (ParallelDim d : DEFAULT_ORDER) if (!out.contains(d)) out.add(d);
        return List.copyOf(out);
    }

    /** Each ranked dimension once and no other: what {@link #completeOrder} makes of such an order is the order. */
    private static boolean whole(List<ParallelDim> order) {
        if (order.size() != DEFAULT_ORDER.size()) return false;
        int seen = 0;
        for (ParallelDim d : order) {
            if (d == null || !d.ranked || (seen & (1 << d.ordinal())) != 0) return false;
            seen |= 1 << d.ordinal();
        }
        return true;
    }

    /** A rank order as a manifest writes it: "tp-cp-ep-dp-pp". */
    public static String orderText(List<ParallelDim> order) {
        StringBuilder b = new StringBuilder();
        for (ParallelDim d : order) {
            if (b.length() > 0) b.append('-');
            b.append(d.label);
        }
        return b.toString();
    }

    /**
     * The GPU count of the sizes given: the product of the world dimensions' sizes (a missing one counts 1),
     * saturating at {@link Long#MAX_VALUE}.
     */
    public static long world(Map<ParallelDim, Long> sizes) {
        long p = 1;
        for (ParallelDim d : WORLD) {
            long s = sizes.getOrDefault(d, 1L);
            p = s != 0 && p > Long.MAX_VALUE / s ? Long.MAX_VALUE : p * s;
        }
        return p;
    }
}
