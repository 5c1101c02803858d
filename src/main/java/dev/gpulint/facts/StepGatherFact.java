package dev.gpulint.facts;

import dev.gpulint.core.Span;
import java.util.ArrayList;
import java.util.List;

/**
 * A job that dispatches model chunk 0's parameter all-gather in the optimizer step (Megatron's
 * {@code --overlap-param-gather-with-optimizer-step}, the native {@code optimizer.overlap_param_gather_with_step}) beside the
 * preconditions Megatron-LM's validate_args asserts for it (megatron/training/arguments.py, PAR017): the distributed
 * optimizer ("--overlap-param-gather-with-optimizer-step only supported with distributed optimizer"),
 * {@code --overlap-param-gather} ("Must use --overlap-param-gather-with-optimizer-step with --overlap-param-gather") and an
 * interleaved pipeline, pp &gt; 1 with virtual stages ("--overlap-param-gather-with-optimizer-step only supported with
 * interleaved pipeline parallelism"). One fact per Megatron-LM or native job with the switch on; NeMo 2's and
 * Megatron-Bridge's callbacks set it themselves from the layout and are not judged.
 */
public final class StepGatherFact {
    private final String jobName, file, key, distributedKey;
    private final boolean distributed, overlapParamGatherOff;
    private final long pp, virtualPp;
    private final Span span, ppSpan;

    /**
     * @param key                   the switch as the job's file writes it
     * @param distributed           Megatron's distributed optimizer (or ZeRO 1–2, which gpulint reads it as) is on
     * @param distributedKey        how the file turns it on ("--use-distributed-optimizer", "optimizer.distributed: true")
     * @param overlapParamGatherOff {@code --overlap-param-gather} is written off or not written (Megatron-LM; false when the
     *                              format does not state it)
     */
    public StepGatherFact(String jobName, String file, String key, Span span, boolean distributed, String distributedKey,
                          boolean overlapParamGatherOff, long pp, long virtualPp, Span ppSpan) {
        this.jobName = jobName; this.file = file; this.key = key; this.span = span; this.distributed = distributed;
        this.distributedKey = distributedKey; this.overlapParamGatherOff = overlapParamGatherOff; this.pp = pp;
        this.virtualPp = virtualPp; this.ppSpan = ppSpan;
    }

    /** The job's name. */
    public String getJobName() { return jobName; }
    /** The file the job is declared in. */
    public String getFile() { return file; }
    /** The switch as the job's file writes it: "--overlap-param-gather-with-optimizer-step", "optimizer.overlap_param_gather_with_step". */
    public String getKey() { return key; }
    /** Where the switch is written. */
    public Span getSpan() { return span; }
    /** The distributed optimizer is on. */
    public boolean isDistributed() { return distributed; }
    /** How the job's format turns the distributed optimizer on. */
    public String getDistributedKey() { return distributedKey; }
    /** --overlap-param-gather is off (written off, or not written in a Megatron-LM job). */
    public boolean isOverlapParamGatherOff() { return overlapParamGatherOff; }
    /** The pipeline-parallel size. */
    public long getPp() { return pp; }
    /** The virtual pipeline stages per GPU (1: not interleaved). */
    public long getVirtualPp() { return virtualPp; }
    /** Where pp is written; null when it is not. */
    public Span getPpSpan() { return ppSpan; }
    /** The pipeline is interleaved: pp &gt; 1 with more than one virtual stage per GPU. */
    public boolean isInterleaved() { return pp > 1 && virtualPp > 1; }
    /** Some precondition Megatron-LM asserts is missing. */
    public boolean isRefused() { return !distributed || overlapParamGatherOff || !isInterleaved(); }

    /** What is missing, in validate_args's order: "the distributed optimizer (--use-distributed-optimizer)", ... */
    public List<String> getMissing() {
        List<String> out = new ArrayList<>();
        if (!distributed) out.add("the distributed optimizer (" + distributedKey + ")");
        if (overlapParamGatherOff) out.add("--overlap-param-gather");
        if (!isInterleaved()) out.add("an interleaved pipeline (pp " + pp + ", virtual_pp " + virtualPp + ")");
        return out;
    }

    /** {@link #getMissing()} in words: "a", "a and b", "a, b and c". */
    public String getMissingWords() {
        List<String> m = getMissing();
        if (m.size() <= 1) return String.join("", m);
        return String.join(", ", m.subList(0, m.size() - 1)) + " and " + m.get(m.size() - 1);
    }

    /** How many preconditions are missing. */
    public int getMissingCount() { return getMissing().size(); }

    /** The first assert of validate_args that fails, as it reads. */
    public String getFirstAssert() {
        if (!distributed) return "--overlap-param-gather-with-optimizer-step only supported with distributed optimizer";
        if (overlapParamGatherOff) return "Must use --overlap-param-gather-with-optimizer-step with --overlap-param-gather";
        return "--overlap-param-gather-with-optimizer-step only supported with interleaved pipeline parallelism";
    }

    /** The fingerprint identity of the job's switch. */
    public String identity() { return "training_job:" + jobName + "/optimizer/overlap_param_gather_with_step"; }

    @Override public String toString() {
        return "StepGatherFact[" + jobName + " distributed=" + distributed + " opgOff=" + overlapParamGatherOff + " pp=" + pp
                + " vpp=" + virtualPp + "]";
    }
}
