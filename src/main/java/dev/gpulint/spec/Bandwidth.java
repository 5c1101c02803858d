package dev.gpulint.spec;

/**
 * A bandwidth as written: the number and unit the user typed, and its value in
 * bytes per second. {@code bits} records whether the unit was bit-based
 * (Gb/s, Gbps) or byte-based (GB/s, GiB/s): UNIT001 and UNIT002 depend on it.
 */
public record Bandwidth(double number, String unit, boolean bits, double bytesPerSecond) {

    public double gigabytesPerSecond() { return bytesPerSecond / 1e9; }

    public double gigabitsPerSecond() { return bytesPerSecond * 8 / 1e9; }

    /** The value as written, e.g. "400 Gb/s". */
    public String written() { return Quantities.format(number) + " " + unit; }

    /** The value in the other base: "50 GB/s" for 400 Gb/s, "3200 Gb/s" for 400 GB/s. */
    public String otherReading() {
        return bits ? Quantities.format(gigabytesPerSecond()) + " GB/s"
                    : Quantities.format(gigabitsPerSecond()) + " Gb/s";
    }

    private static final java.util.regex.Pattern UNIT = java.util.regex.Pattern.compile("^([kKmMgGtT]?)(b|B)(it)?(/s|ps)$");

    /**
     * The unit with bits and bytes swapped, the prefix and the way "per second" is written kept: "Gb/s" for
     * "GB/s", "GB/s" for "Gbit/s", "Gbps" for "GBps"; null for a binary prefix (GiB/s has no bit twin in use).
     */
    public String flippedUnit() {
        java.util.regex.Matcher m = UNIT.matcher(unit);
        if (!m.matches()) return null;
        return m.group(1) + (bits ? "B" : "b") + m.group(4);
    }

    @Override public String toString() { return written(); }
}
