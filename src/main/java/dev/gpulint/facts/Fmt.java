package dev.gpulint.facts;

import dev.gpulint.spec.Quantities;

/**
 * How rules write numbers in messages, so that every rule rounds and names units the same way.
 * Called from DRL: {@code Fmt.gb($m.getPerGpuBytes())}. Bandwidths and GPU memory: {@code HwUnits}.
 */
public final class Fmt {
    private Fmt() {}

    /** A number with at most one decimal: 87.5, 8, 0.3. */
    public static String num(double v) { return Quantities.format(v); }

    /** A number with at most two decimals: 8.96. */
    public static String num2(double v) { return Quantities.format2(v); }

    /** Decimal gigabytes, two decimals at most: "87.5 GB". */
    public static String gb(double bytes) { return Quantities.format2(bytes / 1e9) + " GB"; }

    /** A count of parameters: 8e9 → "8B", 1.5e12 → "1.5T", 350e6 → "350M". */
    public static String count(double v) {
        if (v >= 1e12) return Quantities.format(v / 1e12) + "T";
        if (v >= 1e9) return Quantities.format(v / 1e9) + "B";
        if (v >= 1e6) return Quantities.format(v / 1e6) + "M";
        return Quantities.format(v);
    }

    /** A fraction as a whole percentage: 0.5 → "50". */
    public static String percent(double fraction) { return String.valueOf(Math.round(fraction * 100)); }

    /** A fraction as a percentage with one decimal: 0.4286 → "42.9". */
    public static String percent1(double fraction) { return Quantities.format(Math.round(fraction * 1000) / 10.0); }

    /** A product that saturated at Long.MAX_VALUE reads as what it is. */
    public static String big(long v) { return v == Long.MAX_VALUE ? "more than 9.2e18" : String.valueOf(v); }

    /** "16 GPUs (2 nodes × 8 GPUs per node)". */
    public static String gpus(long total, long nodes, long perNode) {
        return total + " GPUs (" + nodes + (nodes == 1 ? " node" : " nodes") + " × " + perNode + " GPUs per node)";
    }
}
