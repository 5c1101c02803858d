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

    @Override public String toString() { return written(); }
}
