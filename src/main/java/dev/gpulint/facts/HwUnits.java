package dev.gpulint.facts;

import dev.gpulint.spec.Quantities;

/**
 * Comparisons and number formatting for hardware quantities (bandwidths in bytes per second,
 * memory in bytes), for rules to call: {@code import dev.gpulint.facts.HwUnits;} then
 * {@code HwUnits.within(bytesPerSecond, nearestFigure, tolerance)} in a condition, or
 * {@code HwUnits.gbs(limit)} in a message.
 */
public final class HwUnits {
    private HwUnits() {}

    /**
     * The value lies within {@code tolerance} (0.10 = 10%) of the figure, relative to the figure;
     * false when the figure is 0 or less (no figure known).
     */
    public static boolean within(double value, double figure, double tolerance) {
        return figure > 0 && Math.abs(value / figure - 1) <= tolerance;
    }

    /** 450e9 → "450 GB/s". */
    public static String gbs(double bytesPerSecond) { return Quantities.format(bytesPerSecond / 1e9) + " GB/s"; }

    /** 50e9 → "400 Gb/s". */
    public static String gbits(double bytesPerSecond) { return Quantities.format(bytesPerSecond * 8 / 1e9) + " Gb/s"; }

    /** 50e9 → "400 Gb/s = 50 GB/s". */
    public static String bothBases(double bytesPerSecond) { return gbits(bytesPerSecond) + " = " + gbs(bytesPerSecond); }

    /** 50e9 → "400 Gb/s or 50 GB/s". */
    public static String eitherBase(double bytesPerSecond) { return gbits(bytesPerSecond) + " or " + gbs(bytesPerSecond); }

    /** Catalog memory, which is binary-sized: 80 × 2^30 → "80 GiB (85.9 GB)". */
    public static String gib(double bytes) {
        return Quantities.format(bytes / (1L << 30)) + " GiB (" + Quantities.format2(bytes / 1e9) + " GB)";
    }
}
