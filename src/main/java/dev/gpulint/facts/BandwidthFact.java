package dev.gpulint.facts;

import dev.gpulint.tree.Span;

/**
 * A bandwidth written in a manifest, with what the catalog says it should be.
 * The comparison with the catalog (is it about 8× off?) is done in the derive
 * stage; the rules only read the result.
 */
public final class BandwidthFact {
    public static final String NETWORK = "network";
    public static final String DEVICE = "device";

    private final String file;
    private final Span span;
    private final int ordinal;
    private final String identity;
    private final String subject;
    private final String bandwidthClass;
    private final boolean bits;
    private final String written;
    private final String otherReading;
    private final boolean eightfold;
    private final String eightfoldDirection;
    private final String expected;
    private final Span relatedSpan;
    private final String relatedText;

    public BandwidthFact(String file, Span span, int ordinal, String identity, String subject, String bandwidthClass,
                         boolean bits, String written, String otherReading, boolean eightfold,
                         String eightfoldDirection, String expected, Span relatedSpan, String relatedText) {
        this.file = file; this.span = span; this.ordinal = ordinal; this.identity = identity; this.subject = subject;
        this.bandwidthClass = bandwidthClass; this.bits = bits; this.written = written; this.otherReading = otherReading;
        this.eightfold = eightfold; this.eightfoldDirection = eightfoldDirection; this.expected = expected;
        this.relatedSpan = relatedSpan; this.relatedText = relatedText;
    }

    public String getFile() { return file; }
    public Span getSpan() { return span; }
    /** Source order within the run, for "the first one" in messages. */
    public int getOrdinal() { return ordinal; }
    public String getIdentity() { return identity; }
    /** What the value describes: "NIC ConnectX-7 (infiniband) speed". */
    public String getSubject() { return subject; }
    /** network (NIC, fabric, job network assumptions) or device (NVLink, PCIe, HBM). */
    public String getBandwidthClass() { return bandwidthClass; }
    public boolean isBits() { return bits; }
    public String getBase() { return bits ? "bits" : "bytes"; }
    /** As written: "400 GB/s". */
    public String getWritten() { return written; }
    /** The same value in the other base: "3200 Gb/s". */
    public String getOtherReading() { return otherReading; }
    /** About 8× above or below every catalog figure for what it describes, while 1× matches none. */
    public boolean isEightfold() { return eightfold; }
    /** "above" or "below". */
    public String getEightfoldDirection() { return eightfoldDirection; }
    /** The catalog figure, phrased: "NDR ports run at 400 Gb/s = 50 GB/s per direction". */
    public String getExpected() { return expected; }
    public Span getRelatedSpan() { return relatedSpan; }
    public String getRelatedText() { return relatedText; }

    @Override public String toString() {
        return "BandwidthFact[" + identity + " " + written + " " + bandwidthClass + ", eightfold=" + eightfold + "]";
    }
}
