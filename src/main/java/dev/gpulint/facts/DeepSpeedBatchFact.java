package dev.gpulint.facts;

import dev.gpulint.core.Span;

/**
 * DeepSpeed's batch triple of a job's configuration, which DeepSpeed requires to satisfy
 * train_batch_size = train_micro_batch_size_per_gpu × gradient_accumulation_steps × dp, with dp
 * when the job that launches the configuration is known.
 */
public final class DeepSpeedBatchFact {
    private final String job;
    private final long trainBatch, micro, accumulation, dp, perStep;
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
        this.perStep = Sizes.product(Sizes.product(micro, Math.max(1, accumulation)), Math.max(1, dp));
    }


    /** The job's name (the configuration's file when no job launches it). */
    public String getJob() { return job; }
    /** train_batch_size, in samples per optimizer step. */
    public long getTrainBatch() { return trainBatch; }
    /** Where train_batch_size is written. */
    public Span getTrainBatchSpan() { return trainBatchSpan; }
    /** train_micro_batch_size_per_gpu, in samples; always above 0. */
    public long getMicro() { return micro; }
    /** Where train_micro_batch_size_per_gpu is written. */
    public Span getMicroSpan() { return microSpan; }
    /** gradient_accumulation_steps; 0 when not stated or "auto" (DeepSpeed then derives it). */
    public long getAccumulation() { return accumulation; }
    /** Where gradient_accumulation_steps is written; null when not stated. */
    public Span getAccumulationSpan() { return accumulationSpan; }
    /** The data-parallel size of the job that launches the configuration; 0 when no linted job does. */
    public long getDp() { return dp; }
    /** The product of the known factors, micro × accumulation × dp (an unknown factor counts as 1), in samples. */
    public long getPerStep() { return perStep; }
    /** gradient_accumulation_steps is known (stated as a number). */
    public boolean isAccumulationKnown() { return accumulation > 0; }
    /** The data-parallel size is known (a linted job launches the configuration). */
    public boolean isDpKnown() { return dp > 0; }
    /** perStep multiplies more than the micro batch: a factor beside it is known. */
    public boolean isMultiplied() { return accumulation > 0 || dp > 0; }

    /** The stable name of what a finding on this fact is about, for fingerprints. */
    public String identity() { return "job:" + job + "/deepspeed/train_batch_size"; }
}
