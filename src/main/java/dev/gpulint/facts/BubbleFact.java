package dev.gpulint.facts;

import dev.gpulint.core.Span;

/**
 * The pipeline bubble of a job's step (PAR006): with pp stages, v virtual stages per rank and m
 * micro-batches per step, the GPUs idle (pp−1)/(v·m+pp−1) of the step (Megatron-LM's interleaved
 * schedule; Estimates.bubble in the derive stage, unit-tested).
 */
public final class BubbleFact {
    private final String jobName, file;
    private final long pp, virtualPp, microBatches, globalBatchSize, microBatchSize, dp;
    private final double bubble;
    private final Span ppSpan;
    private final String microBatchKey, globalBatchKey, localBatchKey;
    private final long localBatchSize;
    private final String microBatchesKey;
    private final long schedules, scheduleDp;

    public BubbleFact(String jobName, String file, long pp, long virtualPp, long microBatches, long globalBatchSize,
                      long microBatchSize, long dp, double bubble, Span ppSpan) {
        this(jobName, file, pp, virtualPp, microBatches, globalBatchSize, microBatchSize, dp, bubble, ppSpan,
                "micro_batch_size", "global_batch_size");
    }

    /** With the keys the job's file writes the micro and the global batch under (JobFact's). */
    public BubbleFact(String jobName, String file, long pp, long virtualPp, long microBatches, long globalBatchSize,
                      long microBatchSize, long dp, double bubble, Span ppSpan, String microBatchKey, String globalBatchKey) {
        this(jobName, file, pp, virtualPp, microBatches, globalBatchSize, microBatchSize, dp, bubble, ppSpan, microBatchKey,
                globalBatchKey, 0, null, "micro_batches");
    }

    /**
     * With the local batch a format's pipeline schedule splits into m micro-batches of {@code microBatchSize} (torchtitan's
     * build_pipeline_schedule: {@code local_batch_size // pipeline_parallel_microbatch_size}), and the key it is written
     * under; {@code localBatchSize} 0 for every other count. {@code microBatchesKey}: where a stated m is written.
     */
    public BubbleFact(String jobName, String file, long pp, long virtualPp, long microBatches, long globalBatchSize,
                      long microBatchSize, long dp, double bubble, Span ppSpan, String microBatchKey, String globalBatchKey,
                      long localBatchSize, String localBatchKey, String microBatchesKey) {
        this(jobName, file, pp, virtualPp, microBatches, globalBatchSize, microBatchSize, dp, bubble, ppSpan, microBatchKey,
                globalBatchKey, localBatchSize, localBatchKey, microBatchesKey, 1, 0);
    }

    /**
     * With the pipeline schedules a step runs: {@code schedules} above 1 when the format runs one per gradient-accumulation step
     * (torchtitan: global ÷ (local × dp), Layout.schedule), m and the bubble then one schedule's; {@code scheduleDp} the
     * data-parallel size that count was derived with (0 for one schedule).
     */
    public BubbleFact(String jobName, String file, long pp, long virtualPp, long microBatches, long globalBatchSize,
                      long microBatchSize, long dp, double bubble, Span ppSpan, String microBatchKey, String globalBatchKey,
                      long localBatchSize, String localBatchKey, String microBatchesKey, long schedules, long scheduleDp) {
        this.schedules = Math.max(1, schedules); this.scheduleDp = scheduleDp;
        this.localBatchSize = localBatchSize; this.localBatchKey = localBatchKey; this.microBatchesKey = microBatchesKey;
        this.jobName = jobName; this.file = file; this.pp = pp; this.virtualPp = virtualPp; this.microBatches = microBatches;
        this.globalBatchSize = globalBatchSize; this.microBatchSize = microBatchSize; this.dp = dp; this.bubble = bubble;
        this.ppSpan = ppSpan; this.microBatchKey = microBatchKey; this.globalBatchKey = globalBatchKey;
    }


    /** The job's name. */
    public String getJobName() { return jobName; }
    /** The file the job is declared in. */
    public String getFile() { return file; }
    /** Pipeline stages (pp, above 1). */
    public long getPp() { return pp; }
    /** Virtual stages per pipeline rank (1 without the interleaved schedule). */
    public long getVirtualPp() { return virtualPp; }
    /** Micro-batches per step (m). */
    public long getMicroBatches() { return microBatches; }
    /** 0 when m is stated as batch.micro_batches; else the global batch m was derived from. */
    public long getGlobalBatchSize() { return globalBatchSize; }
    /** The micro batch size m was derived with (0 when m is stated, but for a split local batch: the size it is split into). */
    public long getMicroBatchSize() { return microBatchSize; }
    /** The data-parallel size m was derived with (0 when m is stated). */
    public long getDp() { return dp; }
    /** m is stated (batch.micro_batches, or a local batch split by the pipeline), not derived from the global batch. */
    public boolean isMicroBatchesStated() { return globalBatchSize == 0; }
    /** The bubble, as a fraction of the step. */
    public double getBubble() { return bubble; }
    /** Where pp is set. */
    public Span getPpSpan() { return ppSpan; }
    /** The key the job's file writes the micro batch under ("trainer.per_device_parallelism"; JobFact#getMicroBatchKey). */
    public String getMicroBatchKey() { return microBatchKey; }
    /** The key the job's file writes the global batch under ("trainer.train_batch_size"; JobFact#getGlobalBatchKey). */
    public String getGlobalBatchKey() { return globalBatchKey; }

    /**
     * The local batch per data-parallel rank the pipeline schedule splits into the m micro-batches of {@link #getMicroBatchSize}
     * (torchtitan: m = local_batch_size ÷ pipeline_parallel_microbatch_size); 0 when m is counted otherwise.
     */
    public long getLocalBatchSize() { return localBatchSize; }
    /** m is the local batch split into pipeline micro-batches ({@link #getLocalBatchSize} above 0, no count of the format's own). */
    public boolean isLocalBatchSplit() { return localBatchSize > 0 && !formatCount(); }
    /** The key the job's file writes that local batch under ("local_batch_size"); null when m is counted otherwise. */
    public String getLocalBatchKey() { return localBatchKey; }

    /** The key the job's file writes a stated m under ("micro_batches"; torchtitan's "[parallelism] pipeline_parallel_microbatches"). */
    public String getMicroBatchesKey() { return microBatchesKey; }

    /** m is stated under a key of the format's own (torchtitan's pipeline_parallel_microbatches), not batch.micro_batches. */
    public boolean isCountKeyed() { return isMicroBatchesStated() && formatCount(); }

    /**
     * The count of the format's own splits the local batch, so it must divide it (torchtitan's first releases'
     * pipeline_parallel_microbatches); false for a count of micro-batches of a size written apart, which the schedule's batch
     * is the product of (torchtitan's num_pp_microbatches since its PR #4121: {@link #getLocalBatchSize} that product).
     */
    public boolean isCountDividing() { return isCountKeyed() && localBatchSize == 0; }

    private boolean formatCount() { return microBatchesKey != null && !microBatchesKey.equals("micro_batches"); }

    /** Pipeline schedules per step: 1, but for torchtitan's gradient accumulation (one schedule per accumulation step). */
    public long getSchedules() { return schedules; }
    /** The step runs several pipeline schedules, each paying the bubble ({@link #getBubble} is one schedule's). */
    public boolean isAccumulated() { return schedules > 1; }
    /** The data-parallel size the schedules were counted with (0 for one schedule). */
    public long getScheduleDp() { return scheduleDp; }
    /** The global batch the schedules were counted from: schedules × local batch × dp (0 for one schedule). */
    public long getScheduleGlobalBatchSize() { return isAccumulated() ? schedules * localBatchSize * scheduleDp : 0; }

    /** The fingerprint identity of this estimate. */
    public String identity() { return "training_job:" + jobName + "/bubble"; }

    @Override public String toString() { return "BubbleFact[" + jobName + " pp=" + pp + " m=" + microBatches + " " + bubble + "]"; }
}
