package dev.gpulint.plan.search;

import dev.gpulint.derive.estimate.Layout;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The layouts a plan considers for one job (../spec/PLAN.md "Candidates"): every tp, cp, pp, dp with tp·cp·pp·dp =
 * GPUs; ep dividing both cp·dp (Megatron-Core's expert grid) and the expert count, for a mixture of experts; cp above
 * 1 only for a long sequence; every virtual pipeline size that divides a stage's layers (at most {@link #MAX_VPP});
 * micro batches 1, 2, 4, 8 that divide the global batch's share of a replica (and the job's own vpp and micro batch); the optimizer's sharding (Megatron's
 * distributed optimizer on or off, or ZeRO 0–3 for a job that states a ZeRO stage); the three recompute choices;
 * sequence parallelism on or off where tp is above 1. The model, the global batch and the sequence stay as written.
 * Nothing here checks a layout: gpulint's rules do ({@link CandidateSearch}).
 *
 * @param gpus        GPUs of the job
 * @param layers      the layers Megatron splits over the pipeline (0 when unknown: vpp stays 1)
 * @param experts     the expert count (0 or 1: a dense model, ep stays 1)
 * @param seqLength   the sequence length (0 when unknown)
 * @param globalBatch the global batch in sequences
 * @param zeroStages  the job states a ZeRO stage (DeepSpeed, FSDP): ZeRO 0–3 instead of the distributed optimizer
 * @param statedVpp   the virtual pipeline size the job writes (0: none), tried beside 1..{@link #MAX_VPP} wherever it
 *                    divides a stage's layers, so that the candidates do not depend on the job's other sizes: a job
 *                    whose tp is wrong gets the same candidates as the same job with a right one
 * @param statedMicro the micro batch the job writes (0: none), tried beside {@link #MICRO_BATCHES} for the same reason
 * @param deepSpeedSplit the pipeline splits as DeepSpeed's PipelineModule does (gpt-neox: any block count), not as
 *                    Megatron-Core does (a pp that does not divide the layers is PAR004's to reject): such a pp is priced
 *                    with DeepSpeed's split ({@link dev.gpulint.spec.DeepSpeedSplit}), and no pp above the layers is tried
 *                    (its stages would hold no block: PAR004)
 * @param kept        the dimensions kept at {@code written}'s values ({@link #narrowed}; empty: every value searched)
 * @param written     the job's layout as written (null when nothing is kept)
 */
public record SearchSpace(long gpus, long layers, long experts, long seqLength, long globalBatch, boolean zeroStages,
                          long statedVpp, long statedMicro, boolean deepSpeedSplit, Set<Kept> kept, Layout written) {

    /**
     * A dimension the search keeps at the job's written value when the whole space holds more than {@link #MAX_LAYOUTS}
     * layouts ({@link #narrowed}), in the order they are kept: by what keeping it cost the best layout where the whole
     * space can be searched (bench's three 1,024-GPU jobs, docs/plan.md "Past 250,000 layouts"): the micro batch as
     * written 0 %, cp up to 4 %, the optimizer's sharding up to 10 %, vpp and ep up to 13 and 14 % (a job that writes
     * neither interleaving nor expert parallelism). tp and pp, the question a plan answers, and recompute and sequence
     * parallelism, on which whether a layout fits depends (and which share a check), are never kept.
     */
    public enum Kept {
        MICRO_BATCH("micro batch"), CP("cp"), OPTIMIZER("optimizer sharding"), VIRTUAL_PP("virtual pipeline size"), EP("ep");

        private final String words;

        Kept(String words) { this.words = words; }

        /** How the assumption names it. */
        public String words() { return words; }
    }

    /** The whole space of a job: nothing kept at the written layout's values (the search's space before {@link #narrowed}). */
    public static SearchSpace whole(long gpus, long layers, long experts, long seqLength, long globalBatch, boolean zeroStages,
                                    long statedVpp, long statedMicro, boolean deepSpeedSplit) {
        return new SearchSpace(gpus, layers, experts, seqLength, globalBatch, zeroStages, statedVpp, statedMicro, deepSpeedSplit, Set.of(), null);
    }

    /** The same space on another GPU count (the same dimensions kept). */
    public SearchSpace on(long gpus) {
        return new SearchSpace(gpus, layers, experts, seqLength, globalBatch, zeroStages, statedVpp, statedMicro, deepSpeedSplit, kept, written);
    }

    /** The whole space with ZeRO stages 0–3 instead of the distributed optimizer (nothing kept: {@link #narrowed} it again). */
    public SearchSpace withZeroStages() {
        return whole(gpus, layers, experts, seqLength, globalBatch, true, statedVpp, statedMicro, deepSpeedSplit);
    }

    /**
     * This space (whole: the dimensions it keeps are searched again first), or past {@link #MAX_LAYOUTS} layouts the same
     * space with dimensions kept at {@code written}'s values ({@link #keep}),
     * one more at a time in {@link Kept}'s order (a dimension that would not shrink the space is passed over, unless the
     * space is past {@link #MAX_COUNTED}, where a count cannot tell), until it
     * holds at most {@link #MAX_LAYOUTS}. With every dimension kept a space holds at most 6 layouts per (tp, pp) pair
     * (recompute × sp): 161,784 at 14,414,400 GPUs, whose 27,216 pairs are the most of any count up to {@link #MAX_GPUS}
     * (a divisor sieve counted them): every space fits
     * once narrowed, and {@link #layouts()}'s refusal stays as the bound's guard.
     */
    public SearchSpace narrowed(Layout written) {
        return narrowed(written, MAX_LAYOUTS);
    }

    /** As above, with another limit (tests). */
    SearchSpace narrowed(Layout written, long limit) {
        SearchSpace s = this;
        long size = s.size();
        java.util.EnumSet<Kept> k = java.util.EnumSet.noneOf(Kept.class);
        for (Kept d : Kept.values()) {
            if (size <= limit) break;
            java.util.EnumSet<Kept> more = java.util.EnumSet.copyOf(k);
            more.add(d);
            SearchSpace t = new SearchSpace(gpus, layers, experts, seqLength, globalBatch, zeroStages, statedVpp, statedMicro, deepSpeedSplit,
                    Set.copyOf(more), written);
            long n = t.size();
            // keeping a dimension never grows the space; past MAX_COUNTED both counts stop there, so it is kept unseen
            if (n < size || size > MAX_COUNTED) { s = t; size = n; k = more; }
        }
        return s;
    }

    /** The dimensions kept, in {@link Kept}'s order. */
    public List<Kept> keptInOrder() {
        List<Kept> out = new ArrayList<>();
        for (Kept d : Kept.values()) if (kept.contains(d)) out.add(d);
        return out;
    }

    /** A sequence at least this long adds context parallelism (cp 2, 4, 8, ...) to the search. */
    public static final long LONG_SEQUENCE = 8192;
    /** The largest virtual pipeline size tried. */
    public static final int MAX_VPP = 8;
    /** Micro batch sizes tried. */
    public static final List<Integer> MICRO_BATCHES = List.of(1, 2, 4, 8);
    /** The most GPUs a search takes: beyond it the divisors are still few, but nobody plans one job on more. */
    public static final long MAX_GPUS = 1L << 24;
    /**
     * The most layouts one search enumerates (a 1,024-GPU job has about 9,300; a GPU count with very many divisors
     * could reach millions): past it, {@link #layouts()} refuses with a message that says so.
     */
    public static final int MAX_LAYOUTS = 250_000;

    public SearchSpace {
        if (gpus < 1 || gpus > MAX_GPUS) throw new IllegalArgumentException("a plan is for 1 to " + MAX_GPUS + " GPUs, not " + gpus);
        if (globalBatch < 1) throw new IllegalArgumentException("the global batch is at least 1");
        kept = Set.copyOf(kept);
        if (!kept.isEmpty() && written == null) throw new IllegalArgumentException("a kept dimension needs the job's written layout");
    }

    /**
     * Every layout of the space, in a fixed order (tp, cp, pp, ep, vpp, micro batch, optimizer, recompute, sp).
     *
     * @throws IllegalStateException past {@link #MAX_LAYOUTS} layouts, with a message for the user
     */
    public List<Layout> layouts() {
        List<Layout> out = new ArrayList<>();
        List<int[]> optimizers = optimizers();     // the space's, the same for every size (made once, not per size)
        walk((tp, pp, dp, cp, ep, vpp, micro) -> {
            add(out, optimizers, tp, pp, dp, cp, ep, vpp, micro);
            return true;
        });
        return out;
    }

    /** The most layouts {@link #size()} counts: past it the count stops (it took the walk of {@link #layouts()} without its bound). */
    public static final long MAX_COUNTED = 16L * MAX_LAYOUTS;

    /**
     * How many layouts {@link #layouts()} gives, counted without building them; past {@link #MAX_COUNTED} the count
     * stops and a number above it is returned.
     */
    public long size() {
        long[] n = {0};
        long each = (long) optimizers().size() * Layout.Recompute.SEARCHED.size();
        walk((tp, pp, dp, cp, ep, vpp, micro) -> (n[0] += each * (tp > 1 ? 2 : 1)) <= MAX_COUNTED);
        return n[0];
    }

    /** One tp, pp, dp, cp, ep, vpp and micro batch of the space; false stops the walk. */
    private interface Sizes { boolean at(int tp, int pp, int dp, int cp, int ep, int vpp, int micro); }

    /** Every tp, cp, pp (and dp), ep, vpp and micro batch of the space, in the order of {@link #layouts()}. */
    private void walk(Sizes v) {
        for (long tp : divisors(gpus)) {
            for (long cp : contextSizes(gpus / tp)) {
                if (cp > 1 && seqLength < LONG_SEQUENCE) continue;
                for (long pp : divisors(gpus / tp / cp)) {
                    if (deepSpeedSplit && layers > 0 && pp > layers) continue;
                    long dp = gpus / tp / cp / pp;
                    for (long ep : expertSizes(cp * dp)) {
                        for (long vpp : keptVirtualSizes(pp)) {
                            for (long micro : keptMicroBatches(dp)) {
                                if (!v.at((int) tp, (int) pp, (int) dp, (int) cp, (int) ep, (int) vpp, (int) micro)) return;
                            }
                        }
                    }
                }
            }
        }
    }

    /** The cp sizes of {@code rest} GPUs (gpus ÷ tp): every divisor, or the kept one. */
    private List<Long> contextSizes(long rest) {
        List<Long> all = divisors(rest);
        if (!kept.contains(Kept.CP)) return all;
        return keep(seqLength < LONG_SEQUENCE ? List.of(1L) : all, written.cp());
    }

    /** The ep sizes over cp × dp GPUs: each divisor that divides the experts too, or the kept one. */
    private List<Long> expertSizes(long cpDp) {
        if (experts <= 1) return List.of(1L);
        List<Long> out = new ArrayList<>();
        for (long ep : divisors(cpDp)) if (experts % ep == 0) out.add(ep);
        return kept.contains(Kept.EP) ? keep(out, written.ep()) : out;
    }

    private List<Long> keptVirtualSizes(long pp) {
        List<Long> all = virtualSizes(pp);
        return kept.contains(Kept.VIRTUAL_PP) ? keep(all, written.virtualPp()) : all;
    }

    private List<Long> keptMicroBatches(long dp) {
        List<Long> all = microBatches(dp);
        return kept.contains(Kept.MICRO_BATCH) ? keep(all, written.microBatchSize()) : all;
    }

    /**
     * A kept dimension's one value among those a candidate's sizes allow: the written one, or the largest allowed below
     * it, or (none below) the least allowed.
     */
    static List<Long> keep(List<Long> allowed, long written) {
        long best = -1, least = Long.MAX_VALUE;
        for (long v : allowed) {
            if (v <= written && v > best) best = v;
            least = Math.min(least, v);
        }
        return List.of(best > 0 ? best : least);
    }

    /**
     * The (ZeRO stage, distributed optimizer) pairs: ZeRO 0–3 for a job that states a stage, else Megatron's distributed
     * optimizer off and on; or only the written one.
     */
    private List<int[]> optimizers() {
        List<int[]> out = new ArrayList<>();
        for (int z = 0; z < (zeroStages ? 4 : 2); z++) {
            int[] o = {zeroStages ? z : 0, !zeroStages && z == 1 ? 1 : 0};
            if (kept.contains(Kept.OPTIMIZER)
                    && (zeroStages ? o[0] != Math.max(0, Math.min(3, written.zeroStage())) : (o[1] == 1) != written.distributedOptimizer())) continue;
            out.add(o);
        }
        return out;
    }

    private void add(List<Layout> out, List<int[]> optimizers, int tp, int pp, int dp, int cp, int ep, int vpp, int micro) {
        if (out.size() >= MAX_LAYOUTS) {
            throw new IllegalStateException(gpus + " GPUs give more than " + MAX_LAYOUTS + " layouts to check (every tp, cp, pp, ep, "
                    + "virtual pp, micro batch, sharding, recompute and sequence parallelism): plan for a GPU count with fewer divisors");
        }
        java.util.List<Long> stages = deepSpeedSplit ? dev.gpulint.spec.DeepSpeedSplit.stages(layers, pp) : null;
        dev.gpulint.derive.estimate.PipelineSplit split = stages == null ? dev.gpulint.derive.estimate.PipelineSplit.EVEN
                : dev.gpulint.derive.estimate.PipelineSplit.laidOut(stages);
        for (int[] o : optimizers) {
            for (Layout.Recompute r : Layout.Recompute.SEARCHED) {
                for (boolean sp : tp > 1 ? SP_BOTH : SP_OFF) {
                    out.add(new Layout(tp, pp, dp, cp, ep, vpp, micro, globalBatch, o[0], o[1] == 1, r, sp, split));
                }
            }
        }
    }

    /** Sequence parallelism tried where tp is above 1 (on, then off), and where it is 1. */
    private static final boolean[] SP_BOTH = {true, false}, SP_OFF = {false};

    /** 1, and with pp above 1 every v up to {@link #MAX_VPP} (and the job's own) with layers ÷ pp a multiple of v. */
    List<Long> virtualSizes(long pp) {
        List<Long> out = new ArrayList<>(List.of(1L));
        if (pp < 2 || layers <= 0 || layers % pp != 0) return out;
        for (long v = 2; v <= MAX_VPP; v++) if ((layers / pp) % v == 0) out.add(v);
        if (statedVpp > MAX_VPP && (layers / pp) % statedVpp == 0) out.add(statedVpp);
        return out;
    }

    /** The micro batches (and the job's own) that divide the global batch's share of one replica; 1 when none does (PAR007 says why). */
    List<Long> microBatches(long dp) {
        List<Long> out = new ArrayList<>();
        for (int m : MICRO_BATCHES) if (globalBatch % (m * dp) == 0) out.add((long) m);
        if (statedMicro > 0 && statedMicro <= Integer.MAX_VALUE && !MICRO_BATCHES.contains((int) statedMicro)
                && globalBatch % (statedMicro * dp) == 0) out.add(statedMicro);
        if (out.isEmpty()) out.add(1L);
        return out;
    }

    /** The divisors of n, ascending (n ≤ 2^24: a trial division up to √n). */
    static List<Long> divisors(long n) {
        List<Long> low = new ArrayList<>(), high = new ArrayList<>();
        for (long d = 1; d * d <= n; d++) {
            if (n % d != 0) continue;
            low.add(d);
            if (d != n / d) high.add(0, n / d);
        }
        low.addAll(high);
        return low;
    }
}
