package dev.gpulint.plan.search;

import dev.gpulint.derive.estimate.Layout;
import java.util.ArrayList;
import java.util.List;

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
 */
public record SearchSpace(long gpus, long layers, long experts, long seqLength, long globalBatch, boolean zeroStages,
                          long statedVpp, long statedMicro, boolean deepSpeedSplit) {

    /**
     * A space whose pipeline splits as Megatron-Core does (a pp that does not divide the layers is PAR004's to reject).
     * With {@code deepSpeedSplit} (gpt-neox: DeepSpeed's PipelineModule takes any block count) a pp that does not divide
     * the layers is priced with DeepSpeed's split ({@link dev.gpulint.spec.DeepSpeedSplit}), and no pp above the layers is
     * tried (its stages would hold no block: PAR004).
     */
    public SearchSpace(long gpus, long layers, long experts, long seqLength, long globalBatch, boolean zeroStages,
                       long statedVpp, long statedMicro) {
        this(gpus, layers, experts, seqLength, globalBatch, zeroStages, statedVpp, statedMicro, false);
    }

    /** A space with only the standard virtual pipeline sizes and micro batches. */
    public SearchSpace(long gpus, long layers, long experts, long seqLength, long globalBatch, boolean zeroStages) {
        this(gpus, layers, experts, seqLength, globalBatch, zeroStages, 0, 0);
    }

    /** The same space on another GPU count. */
    public SearchSpace on(long gpus) {
        return new SearchSpace(gpus, layers, experts, seqLength, globalBatch, zeroStages, statedVpp, statedMicro, deepSpeedSplit);
    }

    /** The same space with ZeRO stages 0–3 instead of the distributed optimizer. */
    public SearchSpace withZeroStages() {
        return new SearchSpace(gpus, layers, experts, seqLength, globalBatch, true, statedVpp, statedMicro, deepSpeedSplit);
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
    }

    /**
     * Every layout of the space, in a fixed order (tp, cp, pp, ep, vpp, micro batch, optimizer, recompute, sp).
     *
     * @throws IllegalStateException past {@link #MAX_LAYOUTS} layouts, with a message for the user
     */
    public List<Layout> layouts() {
        List<Layout> out = new ArrayList<>();
        for (long tp : divisors(gpus)) {
            for (long cp : divisors(gpus / tp)) {
                if (cp > 1 && seqLength < LONG_SEQUENCE) continue;
                for (long pp : divisors(gpus / tp / cp)) {
                    if (deepSpeedSplit && layers > 0 && pp > layers) continue;
                    long dp = gpus / tp / cp / pp;
                    for (long ep : experts > 1 ? divisors(cp * dp) : List.of(1L)) {
                        if (experts > 1 && experts % ep != 0) continue;
                        for (long vpp : virtualSizes(pp)) {
                            for (long micro : microBatches(dp)) add(out, (int) tp, (int) pp, (int) dp, (int) cp, (int) ep, (int) vpp, (int) micro);
                        }
                    }
                }
            }
        }
        return out;
    }

    private void add(List<Layout> out, int tp, int pp, int dp, int cp, int ep, int vpp, int micro) {
        if (out.size() >= MAX_LAYOUTS) {
            throw new IllegalStateException(gpus + " GPUs give more than " + MAX_LAYOUTS + " layouts to check (every tp, cp, pp, ep, "
                    + "virtual pp, micro batch, sharding, recompute and sequence parallelism): plan for a GPU count with fewer divisors");
        }
        java.util.List<Long> stages = deepSpeedSplit ? dev.gpulint.spec.DeepSpeedSplit.stages(layers, pp) : null;
        dev.gpulint.derive.estimate.PipelineSplit split = stages == null ? dev.gpulint.derive.estimate.PipelineSplit.EVEN
                : dev.gpulint.derive.estimate.PipelineSplit.laidOut(stages);
        for (int z = 0; z < (zeroStages ? 4 : 2); z++) {
            for (Layout.Recompute r : Layout.Recompute.SEARCHED) {
                for (boolean sp : tp > 1 ? new boolean[] {true, false} : new boolean[] {false}) {
                    out.add(new Layout(tp, pp, dp, cp, ep, vpp, micro, globalBatch, zeroStages ? z : 0, !zeroStages && z == 1, r, sp, split));
                }
            }
        }
    }

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
