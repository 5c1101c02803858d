package dev.gpulint.facts;

import dev.gpulint.core.Span;

/**
 * DeepSpeed's batch triple (train_batch_size = micro batch per GPU × gradient accumulation × dp)
 * with what derive could work out: {@code product} is micro × accumulation (the samples one rank
 * takes per step), {@code dp} the data-parallel size when the job's GPU count is known (else 0).
 */
public final class DeepSpeedBatchFact {
    private final String job;
    private final long trainBatch, micro, accumulation, dp;
    private final Span trainBatchSpan, microSpan, accumulationSpan;

    public DeepSpeedBatchFact(String job, long trainBatch, Span trainBatchSpan, long micro, Span microSpan,
                              long accumulation, Span accumulationSpan, long dp) {
        this.job = job;
        this.trainBatch = trainBatch;
        this.trainBatchSpan = trainBatchSpan;
        this.micro = micro;
        this.microSpan = microSpan;
        this.accumulation = accumulation;
        this.accumulationSpan = accumulationSpan;
        this.dp = dp;
    }

    public String getJob() { return job; }
    public long getTrainBatch() { return trainBatch; }
    public Span getTrainBatchSpan() { return trainBatchSpan; }
    public long getMicro() { return micro; }
    public Span getMicroSpan() { return microSpan; }
    /** 0 when not stated (DeepSpeed then derives it). */
    public long getAccumulation() { return accumulation; }
    public Span getAccumulationSpan() { return accumulationSpan; }
    public long getDp() { return dp; }
    /** micro × accumulation (× dp when known): what train_batch_size must be a multiple of, or equal. */
    public long getPerStep() { return micro * Math.max(1, accumulation) * Math.max(1, dp); }
    /** Every factor is known (dp from the job that launches this configuration) and they do not multiply out. */
    public boolean isProductMismatch() { return accumulation > 0 && dp > 0 && trainBatch != getPerStep(); }
    /** A factor is unknown, and train_batch_size is not a multiple of the known ones (the unknown one cannot be whole). */
    public boolean isIndivisible() { return !(accumulation > 0 && dp > 0) && trainBatch % getPerStep() != 0; }
    public String getFormula() {
        StringBuilder sb = new StringBuilder("train_micro_batch_size_per_gpu " + micro);
        if (accumulation > 0) sb.append(" × gradient_accumulation_steps ").append(accumulation);
        if (dp > 0) sb.append(" × dp ").append(dp);
        if (accumulation > 0 || dp > 0) sb.append(" = ").append(getPerStep());
        return sb.toString();
    }
    public String identity() { return "job:" + job + "/deepspeed/train_batch_size"; }
}
