package dev.gpulint.facts;

import dev.gpulint.core.Span;

/**
 * Two places of one job that state the same number differently (derived from the job's
 * statements): {@code kind} is WORLD (ranks, GPUs, nodes: CONSIST001), APP_GPUS (the program
 * asks for more GPUs than a pod gets: CONSIST002), SETTING (a parallel size or a variable set
 * twice: CONSIST005) or NAME (the file's folder name encodes another size: CONSIST006).
 * {@code found} is the place reported; {@code reference} the place it is compared with.
 */
public final class ConsistencyFact {
    private final String kind, job, format, quantity, label;
    private final String foundValue, foundWhere, referenceValue, referenceWhere;
    private final Span foundSpan, referenceSpan;

    public ConsistencyFact(String kind, String job, String format, String quantity, String label, String foundValue,
                           String foundWhere, Span foundSpan, String referenceValue, String referenceWhere, Span referenceSpan) {
        this.kind = kind;
        this.job = job;
        this.format = format;
        this.quantity = quantity;
        this.label = label;
        this.foundValue = foundValue;
        this.foundWhere = foundWhere;
        this.foundSpan = foundSpan;
        this.referenceValue = referenceValue;
        this.referenceWhere = referenceWhere;
        this.referenceSpan = referenceSpan;
    }

    public String getKind() { return kind; }
    public String getJob() { return job; }
    public String getFormat() { return format; }
    /** world, per_node, nodes, tp, ..., env:NAME */
    public String getQuantity() { return quantity; }
    /** The quantity in words: "the number of ranks", "tp (tensor-parallel size)", "NCCL_IB_HCA". */
    public String getLabel() { return label; }
    public String getFoundValue() { return foundValue; }
    public String getFoundWhere() { return foundWhere; }
    public Span getFoundSpan() { return foundSpan; }
    public String getReferenceValue() { return referenceValue; }
    public String getReferenceWhere() { return referenceWhere; }
    public Span getReferenceSpan() { return referenceSpan; }
    /** The found value is the larger (more ranks or GPUs than the reference). */
    public boolean isMore() {
        try { return Long.parseLong(foundValue) > Long.parseLong(referenceValue); } catch (NumberFormatException e) { return false; }
    }
    public String identity() { return "job:" + job + "/" + quantity + "/" + foundWhere; }

    @Override public String toString() {
        return "ConsistencyFact[" + kind + " " + job + " " + quantity + ": " + foundValue + " (" + foundWhere + ") vs "
                + referenceValue + " (" + referenceWhere + ")]";
    }
}
