package dev.gpulint.facts;

import dev.gpulint.core.Span;

/**
 * The outcome of one of the derive stage's estimates for a job: the pipeline
 * bubble, model-state memory per GPU, or the gradient all-reduce time. The
 * arithmetic is in dev.gpulint.derive.Estimates (unit-tested); the fact
 * carries the ratio to its limit and the sentence that explains the numbers.
 */
public final class EstimateFact {
    public static final String BUBBLE = "bubble", MEMORY = "memory", ALLREDUCE = "allreduce";

    private final String jobName, file, kind, explanation, relatedText;
    private final double value, limit;
    private final Span span, relatedSpan;

    public EstimateFact(String jobName, String file, String kind, double value, double limit, String explanation,
                        Span span, Span relatedSpan, String relatedText) {
        this.jobName = jobName; this.file = file; this.kind = kind; this.value = value; this.limit = limit;
        this.explanation = explanation; this.span = span; this.relatedSpan = relatedSpan; this.relatedText = relatedText;
    }

    public String getJobName() { return jobName; }
    public String getFile() { return file; }
    /** bubble, memory or allreduce. */
    public String getKind() { return kind; }
    /** The estimate: bubble fraction, bytes per GPU, or seconds. */
    public double getValue() { return value; }
    /** What it is compared with: GPU memory in bytes, the step time in seconds; 1 for the bubble. */
    public double getLimit() { return limit; }
    /** value ÷ limit. */
    public double getRatio() { return limit > 0 ? value / limit : 0; }
    /** The numbers behind the estimate, for the message. */
    public String getExplanation() { return explanation; }
    public Span getSpan() { return span; }
    public Span getRelatedSpan() { return relatedSpan; }
    public String getRelatedText() { return relatedText; }

    private double warnAt, noteAt;

    /** The thresholds of this estimate's rules (from .gpulint.yaml thresholds, or the defaults). */
    public EstimateFact withThresholds(double warnAt, double noteAt) { this.warnAt = warnAt; this.noteAt = noteAt; return this; }
    /** PAR006: warning at or above this bubble fraction; MEM002: warning above this share of memory. */
    public double getWarnAt() { return warnAt; }
    /** PAR006: note above this bubble fraction. */
    public double getNoteAt() { return noteAt; }

    public String identity() { return "training_job:" + jobName + "/" + kind; }

    @Override public String toString() { return "EstimateFact[" + jobName + " " + kind + " " + value + "/" + limit + "]"; }
}
