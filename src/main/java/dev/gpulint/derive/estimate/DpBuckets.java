package dev.gpulint.derive.estimate;

/**
 * How many collectives the data-parallel reduction issues, each paying NCCL's latency once ({@link NcclLatency}); the
 * bytes are the same whatever the count.
 *
 * <ul>
 * <li>Unsharded parameters (DDP, ZeRO-1/2, Megatron's distributed optimizer): Megatron-Core's gradient buckets, one
 *     all-reduce (or reduce-scatter, and the parameters' all-gather) per bucket of max(40,000,000, 1,000,000 × dp·cp)
 *     parameters (megatron/core/distributed/distributed_data_parallel.py: "make buckets larger to ensure that chunks used
 *     in NCCL ring-reduce implementations are large enough to remain bandwidth-bound rather than latency-bound"). The
 *     estimate takes the bucketed, overlapped reduction (dp_overlap); without {@code --overlap-grad-reduce} Megatron
 *     reduces everything in one bucket, which this count does not distinguish. Interleaved (vpp &gt; 1), each model chunk
 *     is its own DistributedDataParallel and only the first is bucketed: megatron/training/training.py wraps chunk k with
 *     {@code disable_bucketing=(model_chunk_idx > 0)} ("Turn off bucketing for model_chunk 2 onwards, since communication
 *     for these model chunks is overlapped with compute anyway"), so chunk 0's 1/vpp of the stage's parameters is
 *     bucketed and every other chunk is one bucket.</li>
 * <li>Sharded parameters (ZeRO-3, FSDP, Megatron-FSDP): one unit per transformer layer (FSDP's and torchtitan's per-block
 *     wrapping), its parameters all-gathered forward and backward and its gradients reduce-scattered; at least one.
 *     DeepSpeed's ZeRO-3 of 2021 gathered and reduce-scattered per parameter tensor: {@link ShardedGathers}, where the job
 *     states it ({@code optimizer.zero3_gather: tensor}).</li>
 * </ul>
 */
final class DpBuckets {
    private DpBuckets() {}

    /** Megatron-Core's default bucket: 40M parameters. */
    static final double MIN_BUCKET = 40_000_000;
    /** ... or 1M parameters per data-parallel rank (dp·cp), whichever is larger. */
    static final double PER_RANK = 1_000_000;

    /** Buckets for {@code params} parameters over {@code ranks} data-parallel ranks: ⌈params ÷ max(40M, 1M × ranks)⌉, at least 1. */
    static double count(double params, long ranks) {
        double bucket = Math.max(MIN_BUCKET, PER_RANK * ranks);
        return Math.max(1, Math.ceil(params / bucket));
    }

    /**
     * Buckets of a stage of {@code chunks} model chunks (virtual pipeline stages, equal in parameters): chunk 0's
     * {@link #count} of its 1/chunks of the parameters, and one for each other chunk (bucketing disabled for them).
     */
    static double count(double params, long ranks, int chunks) {
        if (chunks <= 1) return count(params, ranks);
        return count(params / chunks, ranks) + (chunks - 1);
    }

    /** Gather units of a sharded stage: its layers (a fraction rounds up), at least 1. */
    static double shardedUnits(double layers) {
        return Math.max(1, Math.ceil(layers - 1e-9));
    }
}
