package dev.gpulint.facts;

import dev.gpulint.core.Span;

/**
 * One end of the layers an fp8 job keeps in bf16 (Megatron's {@code --first-last-layers-bf16} with
 * {@code --num-layers-at-start-in-bf16} or {@code --num-layers-at-end-in-bf16}, the same keys of NeMo 2 and
 * Megatron-Bridge, a Megatron-Bridge recipe's, the native {@code fp8_layers_bf16}), beside the bound Megatron-Core's
 * TransformerConfig holds it to (PAR013): under fp8 (MXFP8 included) each count must lie between 0 and
 * {@code num_layers // pipeline_model_parallel_size} (megatron/core/transformer/transformer_config.py,
 * {@code __post_init__}), whatever the virtual pipeline size or an uneven first and last stage. One fact per end whose
 * count is above 0, for a job whose layers and pp are known and whose precision is fp8 or MXFP8 (NVFP4 runs through
 * Megatron-Core's fp4 context, which TransformerConfig does not bound).
 */
public final class Bf16LayersFact {
    private final String jobName, file, countKey;
    private final boolean atEnd;
    private final long count, layers, pp;
    private final Span countSpan, ppSpan;

    /**
     * @param atEnd     the last layers (false: the first)
     * @param count     the layers kept in bf16 at that end
     * @param countKey  where the count is written, as the job's file names it ({@code --num-layers-at-end-in-bf16})
     * @param layers    the model's transformer layers (Megatron's {@code num_layers})
     * @param pp        the pipeline-parallel size
     */
    public Bf16LayersFact(String jobName, String file, boolean atEnd, long count, String countKey, Span countSpan, long layers,
                          long pp, Span ppSpan) {
        if (count < 1 || layers < 1 || pp < 1) throw new IllegalArgumentException("count, layers and pp are at least 1");
        this.jobName = jobName; this.file = file; this.atEnd = atEnd; this.count = count; this.countKey = countKey;
        this.countSpan = countSpan; this.layers = layers; this.pp = pp; this.ppSpan = ppSpan;
    }

    /** The job's name. */
    public String getJobName() { return jobName; }
    /** The file the job is declared in. */
    public String getFile() { return file; }
    /** The count is of the last layers (false: of the first). */
    public boolean isAtEnd() { return atEnd; }
    /** The layers kept in bf16 at this end (at least 1). */
    public long getCount() { return count; }
    /** Where the count is written, as the job's file names it: "--num-layers-at-start-in-bf16", "mixed_precision.num_layers_at_end_in_bf16", a Megatron-Bridge recipe, or the switch whose default it is. */
    public String getCountKey() { return countKey; }
    /** Where the count is written (the switch's place when the count is its default). */
    public Span getCountSpan() { return countSpan; }
    /** The model's transformer layers (Megatron-Core's num_layers). */
    public long getLayers() { return layers; }
    /** The pipeline-parallel size (1 when not written). */
    public long getPp() { return pp; }
    /** Where pp is written; null when it is not. */
    public Span getPpSpan() { return ppSpan; }
    /** The most layers TransformerConfig lets either end keep in bf16: num_layers // pp. */
    public long getPerStage() { return layers / pp; }
    /**
     * The pp to lower to: the largest divisor of the job's pp below it whose stages hold this count (num_layers // pp at least
     * the count), 1 at least; 0 when the count exceeds the layers, which no pp accepts. A divisor, so the fix trades PAR013 for
     * nothing else: tp·pp·cp still divides the GPUs (PAR001) and pp the layers when the job's pp did (PAR004). The largest pp
     * TransformerConfig accepts, layers // count, need not be one: 88 layers keeping 14 in bf16 at pp 8 take pp 6, which does
     * not divide 88 (nor 8·tp·cp GPUs by 6·tp·cp), so they are told pp 4. Divisors found by trial up to {@link #MAX_TRIAL} (and
     * their co-divisors): every divisor of a pp up to 2^32.
     */
    public long getPpAtMost() {
        if (count > layers) return 0;
        long most = layers / count, best = 1;
        for (long i = 1; i <= MAX_TRIAL && i * i <= pp; i++) {
            if (pp % i != 0) continue;
            for (long d : new long[] {i, pp / i}) if (d < pp && d <= most && d > best) best = d;
        }
        return best;
    }

    /** The trial divisors {@link #getPpAtMost} tries at most: pp has no bound in some formats, and 2^16 trials cover every pp up to 2^32. */
    static final long MAX_TRIAL = 1L << 16;
    /** Some pp accepts this count (it is at most the model's layers). */
    public boolean isSomePpFits() { return count <= layers; }

    /** The fingerprint identity of this end's count. */
    public String identity() { return "training_job:" + jobName + "/bf16-layers/" + (atEnd ? "end" : "start"); }

    @Override public String toString() {
        return "Bf16LayersFact[" + jobName + (atEnd ? " end=" : " start=") + count + " layers=" + layers + " pp=" + pp + "]";
    }
}
