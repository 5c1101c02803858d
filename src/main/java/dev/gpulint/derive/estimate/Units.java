package dev.gpulint.derive.estimate;

import java.util.Locale;

/** How the estimate writes its numbers: decimal GB/MB, seconds or milliseconds, counts with B/M suffixes. */
public final class Units {
    private Units() {}

    public static String bytes(double b) {
        if (b >= 1e9) return String.format(Locale.ROOT, "%.2f GB", b / 1e9);
        if (b >= 1e6) return String.format(Locale.ROOT, "%.1f MB", b / 1e6);
        if (b >= 1e3) return String.format(Locale.ROOT, "%.1f kB", b / 1e3);
        return String.format(Locale.ROOT, "%.0f B", b);
    }

    public static String seconds(double s) {
        if (s >= 1) return String.format(Locale.ROOT, "%.2f s", s);
        if (s >= 1e-3) return String.format(Locale.ROOT, "%.1f ms", s * 1e3);
        return String.format(Locale.ROOT, "%.1f µs", s * 1e6);
    }

    public static String count(double n) {
        if (n >= 1e9) return String.format(Locale.ROOT, "%.2fB", n / 1e9);
        if (n >= 1e6) return String.format(Locale.ROOT, "%.1fM", n / 1e6);
        return String.format(Locale.ROOT, "%.0f", n);
    }

    /**
     * {@code v} as {@code String.format(Locale.ROOT, "%.0f", v)} writes it, without a Formatter: for a term's text made
     * for every layout the plan prices (a Formatter per layout was ~5 % of a plan-hybrid profile, 2026-12-07). The
     * Formatter rounds the shortest decimal form of the double half up, {@link Math#round} the double itself: the same
     * digits from 0 to 10^15 (a double whose shortest form ends in .5 is that half exactly, and no half lies between a
     * double and its shortest form); −0, negatives, NaN, infinities and larger values go to the Formatter (UnitsTest
     * compares the two).
     */
    public static String whole(double v) {
        return Double.compare(v, 0.0) >= 0 && v < 1e15 ? Long.toString(Math.round(v)) : String.format(Locale.ROOT, "%.0f", v);
    }
}
