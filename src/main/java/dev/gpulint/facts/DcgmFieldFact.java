package dev.gpulint.facts;

import dev.gpulint.core.Span;

/**
 * A DCGM field named by a dcgm-exporter counter list or a Prometheus expression, looked up in
 * DCGM's field list: {@code known}, the closest known name when it is not, and its class: RATE
 * (DCGM returns bytes per second: a gauge, never rate()), CUMULATIVE (a running total of bytes:
 * rate() gives the throughput) or OTHER.
 */
public final class DcgmFieldFact {
    private final String name, file, declaredType, use, function, owner, closest, fieldClass;
    private final Span span, typeSpan;
    private final boolean known;

    public DcgmFieldFact(String name, Span span, String file, String use, String declaredType, Span typeSpan,
                         String function, String owner, boolean known, String closest, String fieldClass) {
        this.name = name;
        this.span = span;
        this.file = file;
        this.use = use;
        this.declaredType = declaredType;
        this.typeSpan = typeSpan;
        this.function = function;
        this.owner = owner;
        this.known = known;
        this.closest = closest;
        this.fieldClass = fieldClass;
    }

    public String getName() { return name; }
    public Span getSpan() { return span; }
    public String getFile() { return file; }
    /** COUNTER_LIST (a row of a dcgm-exporter CSV) or QUERY (a metric in a PromQL expression). */
    public String getUse() { return use; }
    /** The Prometheus type a counter list declares: gauge, counter, label, histogram; null in a query. */
    public String getDeclaredType() { return declaredType; }
    public Span getTypeSpan() { return typeSpan; }
    /** The function applied in a query (rate, irate, increase, ...; "" for none). */
    public String getFunction() { return function; }
    public boolean isRangeFunction() { return dev.gpulint.derive.ops.DcgmFields.RANGE_FUNCTIONS.contains(function); }
    public String getOwner() { return owner; }
    public boolean isKnown() { return known; }
    public String getClosest() { return closest; }
    public String getFieldClass() { return fieldClass; }
    public String identity() { return "dcgm:" + use + "/" + name + "/" + owner; }
}
