package dev.gpulint.facts;

import dev.gpulint.core.Span;

/**
 * A bandwidth written in a manifest, with what the catalog says it should be.
 * The comparison with the catalog (matches, about 8× off, beyond what the
 * technology carries, or some other figure) is done in the derive stage; the
 * rules only read the outcome.
 */
public final class BandwidthFact {
    public static final String NETWORK = "network";
    public static final String DEVICE = "device";

    String file, identity, subject, bandwidthClass, kind, written, otherReading, eightfoldDirection, expected;
    String convention, directionFix, limitText, relatedText;
    Span span, relatedSpan, keySpan;
    int ordinal;
    boolean bits, eightfold, beyond, mismatch, directional, directionStated;

    BandwidthFact() {}

    public static Builder builder() { return new Builder(); }

    public static final class Builder {
        private final BandwidthFact f = new BandwidthFact();
        public BandwidthFact fact() { return f; }
        public Builder at(String file, Span span, Span keySpan, int ordinal, String identity) {
            f.file = file; f.span = span; f.keySpan = keySpan; f.ordinal = ordinal; f.identity = identity; return this;
        }
        public Builder what(String subject, String cls, String kind) { f.subject = subject; f.bandwidthClass = cls; f.kind = kind; return this; }
        public Builder value(boolean bits, String written, String other) { f.bits = bits; f.written = written; f.otherReading = other; return this; }
        public Builder eightfold(String direction, String expected) { f.eightfold = true; f.eightfoldDirection = direction; f.expected = expected; return this; }
        public Builder beyond(String limitText) { f.beyond = true; f.limitText = limitText; return this; }
        public Builder mismatch(String expected) { f.mismatch = true; f.expected = expected; return this; }
        public Builder direction(boolean directional, boolean stated, String convention, String fix) {
            f.directional = directional; f.directionStated = stated; f.convention = convention; f.directionFix = fix; return this;
        }
        public Builder related(Span s, String text) { f.relatedSpan = s; f.relatedText = text; return this; }
    }

    public String getFile() { return file; }
    public Span getSpan() { return span; }
    /** The key of the block that holds the value (nvlink, pcie), for findings about the block. */
    public Span getKeySpan() { return keySpan; }
    /** Source order within the run, for "the first one" in messages. */
    public int getOrdinal() { return ordinal; }
    public String getIdentity() { return identity; }
    /** What the value describes: "the ConnectX-7 InfiniBand port speed". */
    public String getSubject() { return subject; }
    /** network (NIC, fabric, job network assumptions) or device (NVLink, PCIe). */
    public String getBandwidthClass() { return bandwidthClass; }
    /** nic, fabric, nvlink, pcie, job-inter-node, job-intra-node. */
    public String getKind() { return kind; }
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
    /** The catalog figure, phrased: "InfiniBand NDR ports run at 400 Gb/s = 50 GB/s per direction; write ...". */
    public String getExpected() { return expected; }
    /** Above what the technology carries (by more than 10%), and not an 8× case. */
    public boolean isBeyond() { return beyond; }
    /** The limit, phrased: "ConnectX-7 ports run at most 400 Gb/s = 50 GB/s per direction". */
    public String getLimitText() { return limitText; }
    /** Matches no catalog figure, is not 8× off and not beyond the technology (HW005 for NVLink). */
    public boolean isMismatch() { return mismatch; }
    /** NVLink and PCIe bandwidths: per direction or bidirectional aggregate matters. */
    public boolean isDirectional() { return directional; }
    public boolean isDirectionStated() { return directionStated; }
    /** Which convention the value matches: "the bidirectional aggregate (450 GB/s per direction)". */
    public String getConvention() { return convention; }
    /** "direction: bidirectional" when the value matches that convention. */
    public String getDirectionFix() { return directionFix; }
    public Span getRelatedSpan() { return relatedSpan; }
    public String getRelatedText() { return relatedText; }

    @Override public String toString() {
        return "BandwidthFact[" + identity + " " + written + " " + bandwidthClass + "/" + kind + ", eightfold=" + eightfold
                + ", beyond=" + beyond + ", mismatch=" + mismatch + ", direction=" + directionStated + "]";
    }
}
