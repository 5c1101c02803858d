package dev.gpulint.facts;

/**
 * The bases one file states its bandwidths of one class in: the first reading written in bits per
 * second and the first written in bytes per second (either null when the file has none). Lets a
 * rule about mixed bases compare two readings per file and class instead of joining every
 * bandwidth with every other.
 */
public final class BandwidthBasesFact {
    private final String file, bandwidthClass;
    private final BandwidthFact firstBits, firstBytes;

    public BandwidthBasesFact(String file, String bandwidthClass, BandwidthFact firstBits, BandwidthFact firstBytes) {
        this.file = file;
        this.bandwidthClass = bandwidthClass;
        this.firstBits = firstBits;
        this.firstBytes = firstBytes;
    }

    /** The file the readings are written in. */
    public String getFile() { return file; }
    /** {@link BandwidthFact#NETWORK} or {@link BandwidthFact#DEVICE}. */
    public String getBandwidthClass() { return bandwidthClass; }
    /** The file's first reading of the class in bits per second, or null. */
    public BandwidthFact getFirstBits() { return firstBits; }
    /** The file's first reading of the class in bytes per second, or null. */
    public BandwidthFact getFirstBytes() { return firstBytes; }

    /** The file's first reading of the class, in either base. */
    public BandwidthFact getFirst() {
        if (firstBits == null) return firstBytes;
        if (firstBytes == null) return firstBits;
        return firstBits.getOrdinal() < firstBytes.getOrdinal() ? firstBits : firstBytes;
    }

    /** The first reading in the other base than {@link #getFirst()}, or null when the file uses one base. */
    public BandwidthFact getFirstInOtherBase() {
        if (firstBits == null || firstBytes == null) return null;
        return getFirst() == firstBits ? firstBytes : firstBits;
    }

    @Override public String toString() {
        return "BandwidthBasesFact[" + bandwidthClass + ", bits=" + (firstBits == null ? null : firstBits.getIdentity())
                + ", bytes=" + (firstBytes == null ? null : firstBytes.getIdentity()) + "]";
    }
}
