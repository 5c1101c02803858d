package dev.gpulint.facts;

import dev.gpulint.core.Span;

/**
 * A bandwidth written in a manifest, in bytes per second, with the catalog figures it is compared
 * with: the nearest figure for what it describes, the figure an 8× reading (bits for bytes) would
 * match, and the most the technology carries. Rules compare them, within {@link #getTolerance()}.
 */
public final class BandwidthFact {
    public static final String NETWORK = "network";
    public static final String DEVICE = "device";

    /** "About" a catalog figure: within 10% (PCIe Gen4 x16 is 31.5 GB/s per direction, often written 32). */
    public static final double TOLERANCE = 0.10;

    private final String file, identity, subject, bandwidthClass, written, otherReading, direction;
    private final BandwidthKind kind;
    private final String eightfoldLabel, limitLabel, technology, nicModel, relatedGroup;
    private final Span span, keySpan, relatedSpan;
    private final int ordinal;
    private final boolean bits;
    private final double bytesPerSecond, nearestFigure, eightfoldFigure, limit, perDirectionFigure, bidirectionalFigure, nicSpeed;
    private final long nicsPerNode;
    private final String unit, fixedUnit, fixedNumber;
    private final Span flaggedReference;

    private BandwidthFact(Builder b) {
        unit = b.unit; fixedUnit = b.fixedUnit; fixedNumber = b.fixedNumber; flaggedReference = b.flaggedReference;
        file = b.file; identity = b.identity; subject = b.subject; bandwidthClass = b.bandwidthClass; kind = b.kind;
        written = b.written; otherReading = b.otherReading; direction = b.direction; eightfoldLabel = b.eightfoldLabel;
        limitLabel = b.limitLabel; technology = b.technology; nicModel = b.nicModel; relatedGroup = b.relatedGroup;
        span = b.span; keySpan = b.keySpan; relatedSpan = b.relatedSpan; ordinal = b.ordinal; bits = b.bits;
        bytesPerSecond = b.bytesPerSecond; nearestFigure = b.nearestFigure; eightfoldFigure = b.eightfoldFigure;
        limit = b.limit; perDirectionFigure = b.perDirectionFigure; bidirectionalFigure = b.bidirectionalFigure;
        nicSpeed = b.nicSpeed; nicsPerNode = b.nicsPerNode;
    }

    public static Builder builder() { return new Builder(); }

    /** Collects a fact's values; {@link #build()} returns the finished, immutable fact. */
    public static final class Builder {
        private String file, identity, subject, bandwidthClass, written, otherReading, direction;
        private BandwidthKind kind;
        private String eightfoldLabel, limitLabel, technology, nicModel, relatedGroup;
        private Span span, keySpan, relatedSpan;
        private int ordinal;
        private boolean bits;
        private double bytesPerSecond, nearestFigure, eightfoldFigure, limit, perDirectionFigure, bidirectionalFigure, nicSpeed;
        private long nicsPerNode;
        private String unit, fixedUnit, fixedNumber;
        private Span flaggedReference;

        private Builder() {}

        /** The unit as written, and the unit that makes the number as written the eightfold figure exactly (or null). */
        public Builder unit(String unit, String fixedUnit) { this.unit = unit; this.fixedUnit = fixedUnit; return this; }
        /** The fix keeps the unit and writes this number (the figure in the file's own base), instead of swapping the unit. */
        public Builder sameBase(String number) { fixedNumber = number; return this; }
        /** The value this one would be compared with is itself flagged 8× off: it is not compared (no figures, no limit). */
        public Builder flaggedReference(Span s) { flaggedReference = s; return this; }

        public BandwidthFact build() { return new BandwidthFact(this); }

        /** With its texts passed through {@code share} (one String per distinct text of a run; the identity stays). */
        public BandwidthFact build(java.util.function.UnaryOperator<String> share) {
            subject = share.apply(subject); bandwidthClass = share.apply(bandwidthClass);
            written = share.apply(written); otherReading = share.apply(otherReading); direction = share.apply(direction);
            eightfoldLabel = share.apply(eightfoldLabel); limitLabel = share.apply(limitLabel);
            technology = share.apply(technology); nicModel = share.apply(nicModel); relatedGroup = share.apply(relatedGroup);
            return new BandwidthFact(this);
        }

        public Builder at(String file, Span span, Span keySpan, int ordinal, String identity) {
            this.file = file; this.span = span; this.keySpan = keySpan; this.ordinal = ordinal; this.identity = identity; return this;
        }
        public Builder what(String subject, String cls, String kind) { this.subject = subject; bandwidthClass = cls; this.kind = BandwidthKind.of(kind); return this; }
        public Builder value(double bytesPerSecond, boolean bits, String written, String otherReading) {
            this.bytesPerSecond = bytesPerSecond; this.bits = bits; this.written = written; this.otherReading = otherReading; return this;
        }
        public Builder direction(String direction) { this.direction = direction; return this; }
        public Builder technology(String technology) { this.technology = technology; return this; }
        public Builder nearest(double figure) { nearestFigure = figure; return this; }
        public Builder eightfold(double figure, String label) { eightfoldFigure = figure; eightfoldLabel = label; return this; }
        public Builder limit(double limit, String label) { this.limit = limit; limitLabel = label; return this; }
        public Builder conventions(double perDirection, double bidirectional) {
            perDirectionFigure = perDirection; bidirectionalFigure = bidirectional; return this;
        }
        public Builder nics(String model, double speed, long perNode) { nicModel = model; nicSpeed = speed; nicsPerNode = perNode; return this; }
        public Builder related(Span s, String group) { relatedSpan = s; relatedGroup = group; return this; }
    }

    /** The file the value is written in. */
    public String getFile() { return file; }
    /** Where the value is written. */
    public Span getSpan() { return span; }
    /**
     * Where a direction can be added after the value: the value and the two characters after it (" }"). The fix
     * inserts only when the value is the last entry of a one-line block ({@link #getDirectionMatch}). The region
     * stays inside the value's node group, so a folded group's copies (Unfolder) get their own edit.
     */
    public Span getDirectionRegion() {
        if (span == null || span.endLine() != span.startLine()) return null;
        int end = Math.max(span.endColumn(), span.startColumn() + written.length());
        return new Span(span.file(), span.startLine(), span.startColumn(), span.startLine(), end + 2);
    }
    /** The text the direction goes into: the value as written, one space, and the block's closing brace. */
    public String getDirectionMatch() { return written + " }"; }
    /**
     * That text with {@code direction} added as the block's last entry, in the file's syntax: {@code , direction: X }
     * in a YAML flow mapping, {@code   direction = X } in the DSL; null for any other format (no fix).
     */
    public String withDirection(String direction) {
        if (file == null) return null;
        if (file.endsWith(".yaml") || file.endsWith(".yml")) return written + ", direction: " + direction + " }";
        if (file.endsWith(".topo")) return written + "  direction = " + direction + " }";
        return null;
    }
    /** The key of the block that holds the value (nvlink, pcie), for findings about the block; null for others. */
    public Span getKeySpan() { return keySpan; }
    /** Source order within the run, for "the first one" in messages. */
    public int getOrdinal() { return ordinal; }
    /** Stable name of the value, e.g. "cluster:c/node_groups[g]/nvlink/bandwidth". */
    public String getIdentity() { return identity; }
    /** What the value describes, a noun phrase: "the ConnectX-7 InfiniBand port speed". */
    public String getSubject() { return subject; }
    /** network (NIC, fabric, job network assumptions) or device (NVLink, PCIe). */
    public String getBandwidthClass() { return bandwidthClass; }
    /** What the value describes: NIC, FABRIC, NVLINK, PCIE, JOB_INTER_NODE or JOB_INTRA_NODE. */
    public BandwidthKind getKind() { return kind; }
    /** The value was written in bits per second (Gb/s, Gbps); false for bytes (GB/s, GiB/s). */
    public boolean isBits() { return bits; }
    /** "bits" or "bytes", the base the value was written in. */
    public String getBase() { return bits ? "bits" : "bytes"; }
    /** The value as written: "400 GB/s". */
    public String getWritten() { return written; }
    /** The unit as written: "GB/s" of 400 GB/s. */
    public String getUnit() { return unit; }
    /**
     * The unit that makes the number as written exactly the catalog figure read 8× off: "Gb/s" for 400 GB/s on an NDR
     * port (400 Gb/s is NDR's figure); null when there is none (no 8× figure, or the number in the other base is
     * only about the figure, or a binary prefix). UNIT001's safe fix writes it instead of {@link #getUnit()}.
     */
    public String getFixedUnit() { return fixedUnit; }
    /**
     * What UNIT001's safe fix writes: the number as written with {@link #getFixedUnit()} ("400 Gb/s"), or, when that
     * would be the only value of its class in the file in that base (UNIT002 after the fix), the catalog figure in
     * the unit as written ("50 GB/s"); null when there is no fixed unit.
     */
    public String getFixedWritten() {
        if (fixedUnit == null) return null;
        return fixedNumber != null ? fixedNumber + " " + unit : number() + " " + fixedUnit;
    }
    /** The text the fix replaces inside the value: the unit ("GB/s"), or the number when the unit stays ("400"). */
    public String getFixMatch() { return fixedUnit == null ? null : fixedNumber != null ? number() : unit; }
    /** What the fix writes in place of {@link #getFixMatch()}: the fixed unit, or the number in the unit as written. */
    public String getFixReplacement() { return fixedUnit == null ? null : fixedNumber != null ? fixedNumber : fixedUnit; }
    /**
     * The fix keeps the file's base: the file writes its other values of this class in the base this one is written
     * in, so swapping the unit would mix bits and bytes in it (UNIT002); the number changes instead.
     */
    public boolean isFixKeepsBase() { return fixedNumber != null; }
    /**
     * Where the value this one would be compared with is written, when that value is itself 8× off its catalog
     * figure (UNIT001 on it): a job's assumed inter-node bandwidth against a NIC speed written in bytes for bits.
     * Nothing is then compared (no eightfold figure, no limit): a finding, and a fix, derived from a value the same
     * run calls wrong would be wrong too, so the job is judged again once the NIC speed is fixed. Null otherwise.
     */
    public Span getFlaggedReference() { return flaggedReference; }

    private String number() { return written.substring(0, written.length() - unit.length()).strip(); }
    /** The same number read in the other base: "3200 Gb/s" for 400 GB/s. */
    public String getOtherReading() { return otherReading; }
    /** The value in bytes per second. */
    public double getBytesPerSecond() { return bytesPerSecond; }
    /** How close "about" a catalog figure is: 0.10 (10%), relative to the figure. */
    public double getTolerance() { return TOLERANCE; }
    /** The declared direction of an NVLink or PCIe value: "unidirectional" or "bidirectional"; null when not stated. */
    public String getDirection() { return direction; }
    /** A direction is stated (NVLink and PCIe only). */
    public boolean isDirectionStated() { return direction != null; }
    /**
     * The catalog figure, in bytes per second, nearest to the value (relative distance) among the figures
     * the described part may run at; 0 when the catalog has none (unknown GPU, NIC without protocol).
     */
    public double getNearestFigure() { return nearestFigure; }
    /**
     * The catalog figure, in bytes per second, that the value matches when read 8× off (bytes written
     * for bits, or bits for bytes), found only when the value matches no figure as written; 0 when none.
     */
    public double getEightfoldFigure() { return eightfoldFigure; }
    /** The name of {@link #getEightfoldFigure()}: "InfiniBand NDR", "400GbE", "per NIC"; null when none. */
    public String getEightfoldLabel() { return eightfoldLabel; }
    /**
     * The most the technology carries, in bytes per second (the fastest port speed of the NIC and protocol,
     * the NVLink or PCIe figure in the declared convention, the node's NICs together); 0 when unknown.
     */
    public double getLimit() { return limit; }
    /** The catalog name of the port speed that is {@link #getLimit()}: "InfiniBand NDR"; null for other kinds. */
    public String getLimitLabel() { return limitLabel; }
    /**
     * What the value is compared with, a noun phrase: "ConnectX-7 InfiniBand", "InfiniBand", "RoCE",
     * "NVLink4 on H100-SXM5-80GB", "PCIe Gen4 x16"; null when not known.
     */
    public String getTechnology() { return technology; }
    /** NVLink, PCIe and intra-node values: the catalog's per-direction figure in bytes per second; 0 when unknown. */
    public double getPerDirectionFigure() { return perDirectionFigure; }
    /** NVLink, PCIe and intra-node values: the catalog's bidirectional aggregate in bytes per second; 0 when unknown. */
    public double getBidirectionalFigure() { return bidirectionalFigure; }
    /** Job inter-node values: the model of the node group's first NIC with a speed; null when not stated. */
    public String getNicModel() { return nicModel; }
    /** Job inter-node values: that NIC's speed in bytes per second; 0 when the node group states no NIC speed. */
    public double getNicSpeed() { return nicSpeed; }
    /** Job inter-node values: how many of that NIC a node has (1 when not stated); 0 when there is no NIC speed. */
    public long getNicsPerNode() { return nicsPerNode; }
    /** A value this one is compared with (the NIC speed a job's assumption is read against); null when none. */
    public Span getRelatedSpan() { return relatedSpan; }
    /** The node group whose NIC speed {@link #getRelatedSpan()} is; null when none. */
    public String getRelatedGroup() { return relatedGroup; }

    @Override public String toString() {
        return "BandwidthFact[" + identity + " " + written + " " + bandwidthClass + "/" + kind.id() + ", nearest=" + nearestFigure
                + ", eightfold=" + eightfoldFigure + ", limit=" + limit + ", direction=" + direction + "]";
    }
}
