package dev.gpulint.facts;

import dev.gpulint.core.Span;
import java.util.Set;

/**
 * A DCGM field named by a dcgm-exporter counter list or a Prometheus expression, looked up in
 * DCGM's field list (catalog/dcgm-fields.txt): whether it is known, the closest known name when
 * it is not, and its class.
 */
public final class DcgmFieldFact {
    /** PromQL functions that read a series as a running total: rate, irate, increase, delta, idelta, deriv. */
    public static final Set<String> RANGE_FUNCTIONS = Set.of("rate", "irate", "increase", "delta", "idelta", "deriv");

    private final String name, file, declaredType, use, function, owner, closest, fieldClass, unitName;
    private final double unitBytes;
    private final Span span, typeSpan;
    private final boolean known, rangeFunction;
    private final String fixedName;

    public DcgmFieldFact(String name, Span span, String file, String use, String declaredType, Span typeSpan,
                         String function, String owner, boolean known, String closest, String fieldClass,
                         double unitBytes, String unitName) {
        this(name, span, file, use, declaredType, typeSpan, function, owner, known, closest, fieldClass, unitBytes, unitName, null);
    }

    /** As above, with the name a safe fix renames it to ({@link #getFixedName}); null for none. */
    public DcgmFieldFact(String name, Span span, String file, String use, String declaredType, Span typeSpan,
                         String function, String owner, boolean known, String closest, String fieldClass,
                         double unitBytes, String unitName, String fixedName) {
        this.fixedName = fixedName;
        this.unitBytes = unitBytes;
        this.unitName = unitName;
        this.name = name;
        this.span = span;
        this.file = file;
        this.use = use;
        this.declaredType = declaredType;
        this.typeSpan = typeSpan;
        this.function = function;
        this.rangeFunction = RANGE_FUNCTIONS.contains(function);
        this.owner = owner;
        this.known = known;
        this.closest = closest;
        this.fieldClass = fieldClass;
    }

    /** The metric name as written (DCGM_FI_PROF_PCIE_TX_BYTES; dcgm-exporter 1.x wrote it in lower case). */
    public String getName() { return name; }
    /** Where the name is written. */
    public Span getSpan() { return span; }
    /** The file that names the field. */
    public String getFile() { return file; }
    /** COUNTER_LIST (a row of a dcgm-exporter CSV) or QUERY (a metric in a PromQL expression). */
    public String getUse() { return use; }
    /** The field is named in a PromQL expression (use QUERY). */
    public boolean isInQuery() { return use.equals("QUERY"); }
    /** The field is a row of a dcgm-exporter counter list (use COUNTER_LIST). */
    public boolean isInCounterList() { return use.equals("COUNTER_LIST"); }
    /** The Prometheus type a counter list declares, lower case: gauge, counter, label, histogram; null in a query or when none. */
    public String getDeclaredType() { return declaredType; }
    /** The counter list declares the field a Prometheus counter. */
    public boolean isDeclaredCounter() { return "counter".equals(declaredType); }
    /** The counter list declares the field a Prometheus gauge. */
    public boolean isDeclaredGauge() { return "gauge".equals(declaredType); }
    /** Where that type is written; null without one. */
    public Span getTypeSpan() { return typeSpan; }
    /** The innermost PromQL function applied to the metric in a query (rate, irate, increase, ...); "" for none or in a counter list. */
    public String getFunction() { return function; }
    /** The function is one of {@link #RANGE_FUNCTIONS}; false for "". */
    public boolean isRangeFunction() { return rangeFunction; }
    /** What names the field, as a noun phrase: "the counter list", or the rule ("alert 'NvlinkBusy'", "record gpu:pcie_tx"). */
    public String getOwner() { return owner; }
    /** DCGM's field list holds the name (compared in upper case). */
    public boolean isKnown() { return known; }
    /** For an unknown name: the known name one or two edits away; null when known or none is that close. */
    public String getClosest() { return closest; }
    /** RATE (DCGM returns bytes per second: a gauge), CUMULATIVE (a running total of bytes) or OTHER; OTHER for unknown names. */
    public String getFieldClass() { return fieldClass; }
    /** DCGM returns the field as a rate (field class RATE): bytes per second, a gauge. */
    public boolean isRate() { return "RATE".equals(fieldClass); }
    /** The field is a running total of bytes (field class CUMULATIVE). */
    public boolean isCumulative() { return "CUMULATIVE".equals(fieldClass); }

    /** Bytes in one unit of a rate field's value: 1 (bytes per second), 1000 (KB/s), 1.024e6 (units of 1000 KiB/s). */
    public double getUnitBytes() { return unitBytes; }
    /** The unit of a rate field's value: "bytes per second", "KB per second", "units of 1000 KiB per second, TX and RX summed". */
    public String getUnitName() { return unitName; }

    /**
     * For a misspelt name written in upper case: the only known name one edit away; null when two known names are
     * that close, the nearest is further, or the name is not in upper case (dcgm-exporter 1.x's lower case).
     */
    public String getFixedName() { return fixedName; }
    /**
     * Where the name is written, at most: from the start of the line before it to its end. The safe fix renames it
     * there only when it is written there exactly once (a comment or a second use nearby makes which one a person's call).
     */
    public Span getNameRegion() {
        if (span == null) return null;
        int endLine = span.endLine(), endColumn = span.endColumn();
        if (endLine == span.startLine() && endColumn <= span.startColumn()) endColumn = span.startColumn() + name.length();
        return new Span(span.file(), Math.max(1, span.startLine() - 1), 1, endLine, endColumn);
    }

    /** The stable name of what a finding on this fact is about, for fingerprints. */
    public String identity() { return "dcgm:" + use + "/" + name + "/" + owner; }
}
