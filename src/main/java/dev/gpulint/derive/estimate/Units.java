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
}
