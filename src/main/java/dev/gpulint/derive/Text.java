package dev.gpulint.derive;

import dev.gpulint.spec.Quantities;

/** How quantities are written in facts' descriptive fields: one place for units and rounding. */
public final class Text {
    private Text() {}

    /** "450 GB/s". */
    public static String gbs(double bytesPerSecond) { return Quantities.format(bytesPerSecond / 1e9) + " GB/s"; }

    /** Catalog memory, which is binary-sized: "80 GiB (85.9 GB)". */
    public static String gib(double bytes) {
        return Quantities.format(bytes / (1L << 30)) + " GiB (" + Quantities.format2(bytes / 1e9) + " GB)";
    }

    /** "42.5 GB". */
    public static String gbDecimal(double bytes) { return Quantities.format2(bytes / 1e9) + " GB"; }

    /** 8e9 → "8B", 70e9 → "70B", 1.5e12 → "1.5T". */
    public static String count(double v) {
        if (v >= 1e12) return Quantities.format(v / 1e12) + "T";
        if (v >= 1e9) return Quantities.format(v / 1e9) + "B";
        if (v >= 1e6) return Quantities.format(v / 1e6) + "M";
        return Quantities.format(v);
    }

    /** A saturated product reads as what it is. */
    public static String big(long v) { return v == Long.MAX_VALUE ? "more than 9.2e18" : String.valueOf(v); }
}
