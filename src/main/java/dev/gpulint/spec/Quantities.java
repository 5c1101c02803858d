package dev.gpulint.spec;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one place where quantities are parsed (docs/format.md, "Quantities").
 * Lower-case {@code b} is bits, upper-case {@code B} bytes; the prefix letter's
 * case does not matter; decimal prefixes are powers of 1000, binary ones of
 * 1024. Anything else is reported, never guessed.
 */
public final class Quantities {
    private Quantities() {}

    /** A parse outcome: a value, or a problem phrased for the user. */
    public record Parsed<T>(T value, String problem, boolean unitProblem) {
        static <T> Parsed<T> ok(T v) { return new Parsed<>(v, null, false); }
        static <T> Parsed<T> typeError(String p) { return new Parsed<>(null, p, false); }
        static <T> Parsed<T> unitError(String p) { return new Parsed<>(null, p, true); }
        public boolean ok() { return problem == null; }
    }

    private static final String NUM = "[+-]?(?:[0-9][0-9_]*(?:\\.[0-9]+)?|\\.[0-9]+)(?:[eE][+-]?[0-9]+)?";
    private static final Pattern QUANTITY = Pattern.compile("^\\s*(" + NUM + ")\\s*(.*?)\\s*$");
    private static final Pattern BANDWIDTH_UNIT = Pattern.compile("^([kKmMgGtT]?)(i?)(b|B)(it)?(/s|ps)$");
    private static final Pattern SIZE_UNIT = Pattern.compile("^([kKmMgGtT]?)(i?)B$");
    /** A unit that says bits or bytes, but not per second in a way gpulint reads ("Gbit", "Gb/sec", "GB/second"). */
    private static final Pattern NOT_PER_SECOND = Pattern.compile("^([kKmMgGtT]?i?)(b|bits?|B|bytes?)(/sec|/secs|/second|/seconds|/S)?$");
    /** The longest quantity read, blanks around it aside; "400 Gb/s" needs a dozen characters. */
    static final int MAX_LENGTH = 256;

    /**
     * The number and unit of a quantity: blanks stripped and the length capped before any regular
     * expression sees it, so no input makes the match super-linear; null when it is no quantity.
     */
    private static Matcher quantity(String text) {
        String t = text.strip();
        if (t.length() > MAX_LENGTH) return null;
        Matcher m = QUANTITY.matcher(t);
        return m.matches() ? m : null;
    }

    /** A number too large for a double (1e400) is no quantity: a problem, never Infinity. */
    private static String infinite(String text, double n) {
        if (Double.isFinite(n)) return null;
        return "'" + shortText(text) + "' is too large a number";
    }

    /**
     * The problem of a literal longer than {@link #MAX_LENGTH} (a 1 MB integer), found before any
     * regular expression or number parser sees it; null when it is short enough to read.
     */
    public static String tooLong(String text) {
        if (text.length() <= MAX_LENGTH) return null;
        String t = text.strip();
        if (t.length() <= MAX_LENGTH) return null;
        return "number too long: '" + shortText(t) + "' has " + t.length() + " characters; gpulint reads numbers and quantities of at most "
                + MAX_LENGTH + " characters";
    }

    /** The text for messages: stripped, and cut to a readable length. */
    public static String shortText(String text) {
        if (text.length() <= 64) return text;
        String t = text.strip();
        return t.length() <= 64 ? t : t.substring(0, 60) + "…";
    }

    public static Parsed<Bandwidth> bandwidth(String text) {
        if (tooLong(text) != null) return Parsed.typeError(tooLong(text));
        Matcher m = quantity(text);
        if (m == null) return Parsed.typeError("'" + shortText(text) + "' is not a bandwidth (a number and a unit such as 400 Gb/s or 50 GB/s)");
        double n = number(m.group(1));
        String tooLarge = infinite(text, n);
        if (tooLarge != null) return Parsed.typeError(tooLarge);
        String unit = m.group(2);
        if (unit.isEmpty()) {
            return Parsed.unitError("bandwidth '" + text.trim() + "' has no unit: write bits (e.g. " + format(n) + " Gb/s) or bytes (e.g. "
                    + format(n) + " GB/s) per second; they differ 8×");
        }
        Matcher u = BANDWIDTH_UNIT.matcher(unit);
        if (!u.matches()) {
            if (SIZE_UNIT.matcher(unit).matches()) {
                return Parsed.unitError("'" + text.trim() + "' is a size, not a bandwidth: write " + format(n) + " " + unit + "/s for bytes per second, or "
                        + format(n) + " " + unit.replace('B', 'b') + "/s for bits per second");
            }
            Matcher said = NOT_PER_SECOND.matcher(unit);
            if (said.matches()) {
                boolean saysBits = said.group(2).startsWith("b");
                String fixed = format(n) + " " + said.group(1) + (saysBits ? "b" : "B") + "/s";
                return Parsed.unitError("bandwidth unit '" + unit + "' in '" + text.trim() + "' says " + (saysBits ? "bits" : "bytes")
                        + (said.group(3) == null ? " but not per second: a bandwidth is " + (saysBits ? "bits" : "bytes") + " per second"
                                : " per second, written in a way gpulint does not read: per second is /s (or ps)")
                        + "; write " + fixed);
            }
            return Parsed.unitError("bandwidth unit '" + unit + "' in '" + text.trim() + "' is ambiguous: it does not say bits or bytes per second; write "
                    + format(n) + " Gb/s (bits) or " + format(n) + " GB/s (bytes)");
        }
        boolean binary = !u.group(2).isEmpty();
        boolean bits = u.group(3).equals("b") || u.group(4) != null;
        double scale = prefix(u.group(1), binary);
        double bytes = n * scale / (bits ? 8 : 1);
        if (!Double.isFinite(bytes)) return Parsed.typeError(infinite(text, bytes));
        return Parsed.ok(new Bandwidth(n, unit, bits, bytes));
    }

    /** An ambiguous unit whose prefix says giga ("400G", "400 gig"): read as Gb/s or GB/s, as its message says. */
    private static final Pattern GIGA = Pattern.compile("(?i)g(ig|iga|igs)?");

    /**
     * The bandwidths a value {@link #bandwidth} rejects for its unit could have been meant as, each written out
     * with the number as written: {@code 900} and {@code 400G} as {@code 900 Gb/s, 900 GB/s}; a size unit
     * {@code 900 GB} as {@code 900 GB/s, 900 Gb/s}; {@code 400 Gbit} (bits, not per second) as {@code 400 Gb/s}
     * only. Empty for any other value: one that parses, one with no number, an ambiguous unit of another prefix
     * ({@code 400T}: which prefix was meant is a guess too). UNIT003's fix picks the one reading the catalog figure
     * matches (derive.unit.UnitlessReadings).
     */
    public static java.util.List<String> unitReadings(String text) {
        if (tooLong(text) != null || bandwidth(text).ok()) return java.util.List.of();
        Matcher m = quantity(text);
        if (m == null || !Double.isFinite(number(m.group(1)))) return java.util.List.of();
        String n = m.group(1), unit = m.group(2);
        if (unit.isEmpty() || GIGA.matcher(unit).matches()) return java.util.List.of(n + " Gb/s", n + " GB/s");
        if (SIZE_UNIT.matcher(unit).matches()) return java.util.List.of(n + " " + unit + "/s", n + " " + unit.replace('B', 'b') + "/s");
        Matcher said = NOT_PER_SECOND.matcher(unit);
        if (said.matches()) return java.util.List.of(n + " " + said.group(1) + (said.group(2).startsWith("b") ? "b" : "B") + "/s");
        return java.util.List.of();
    }

    public static Parsed<DataSize> size(String text) {
        if (tooLong(text) != null) return Parsed.typeError(tooLong(text));
        Matcher m = quantity(text);
        if (m == null) return Parsed.typeError("'" + shortText(text) + "' is not a size (a number and a unit such as 80 GB or 141 GiB)");
        double n = number(m.group(1));
        String tooLarge = infinite(text, n);
        if (tooLarge != null) return Parsed.typeError(tooLarge);
        String unit = m.group(2);
        if (unit.isEmpty()) return Parsed.unitError("size '" + text.trim() + "' has no unit: write e.g. " + format(n) + " GB or " + format(n) + " GiB");
        Matcher u = SIZE_UNIT.matcher(unit);
        if (!u.matches()) {
            return Parsed.unitError("size unit '" + unit + "' in '" + text.trim() + "' is not one of B, KB, MB, GB, TB, KiB, MiB, GiB, TiB");
        }
        double bytes = n * prefix(u.group(1), !u.group(2).isEmpty());
        if (!Double.isFinite(bytes)) return Parsed.typeError(infinite(text, bytes));
        return Parsed.ok(new DataSize(n, unit, bytes));
    }

    /** Seconds from "2.5 s", "800ms", "1 min". */
    public static Parsed<Double> duration(String text) {
        if (tooLong(text) != null) return Parsed.typeError(tooLong(text));
        Matcher m = quantity(text);
        if (m == null) return Parsed.typeError("'" + shortText(text) + "' is not a duration (a number and ms, s or min)");
        double n = number(m.group(1));
        String tooLarge = infinite(text, n);
        if (tooLarge != null) return Parsed.typeError(tooLarge);
        String unit = m.group(2);
        return switch (unit) {
            case "ms" -> Parsed.ok(n / 1000);
            case "s" -> Parsed.ok(n);
            case "min" -> Double.isFinite(n * 60) ? Parsed.ok(n * 60) : Parsed.typeError(infinite(text, n * 60));
            case "" -> Parsed.unitError("duration '" + text.trim() + "' has no unit: write e.g. " + format(n) + " s or " + format(n) + " ms");
            default -> Parsed.unitError("duration unit '" + unit + "' is not one of ms, s, min");
        };
    }

    /** A count: integer, `_` separators, exponent, or a K/M/B/T suffix (70B = 70 billion). */
    public static Parsed<Double> count(String text) {
        if (plainDigits(text)) return Parsed.ok((double) Long.parseLong(text));
        if (tooLong(text) != null) return Parsed.typeError(tooLong(text));
        Matcher m = quantity(text);
        if (m == null) return Parsed.typeError("'" + shortText(text) + "' is not a count (e.g. 70B, 8e9, 1_024)");
        double n = number(m.group(1));
        String tooLarge = infinite(text, n);
        if (tooLarge != null) return Parsed.typeError(tooLarge);
        double scale = switch (m.group(2)) {
            case "" -> 1;
            case "K", "k" -> 1e3;
            case "M" -> 1e6;
            case "B", "G" -> 1e9;
            case "T" -> 1e12;
            default -> Double.NaN;
        };
        if (Double.isNaN(scale)) return Parsed.typeError("count suffix '" + m.group(2) + "' in '" + text.trim() + "' is not one of K, M, B, T");
        if (!Double.isFinite(n * scale)) return Parsed.typeError(infinite(text, n * scale));
        return Parsed.ok(n * scale);
    }

    /** An integer: digits with optional `_` separators or an integral exponent (1e3). */
    public static Parsed<Long> integer(String text) {
        if (plainDigits(text)) return Parsed.ok(Long.parseLong(text));   // "8", "1": every count of a fleet file
        if (tooLong(text) != null) return Parsed.typeError(tooLong(text));
        Matcher m = quantity(text);
        if (m == null || !m.group(2).isEmpty()) return Parsed.typeError("'" + shortText(text) + "' is not an integer");
        try {
            BigDecimal d = new BigDecimal(m.group(1).replace("_", ""));
            return Parsed.ok(d.longValueExact());
        } catch (ArithmeticException | NumberFormatException e) {
            return Parsed.typeError("'" + text.trim() + "' is not an integer");
        }
    }

    /**
     * Whether {@code text} is a whole number beyond a long (123456789012345678901, -1e30): +1 above
     * {@link Long#MAX_VALUE}, -1 below {@link Long#MIN_VALUE}, 0 for anything else (a long, a fraction, no number).
     * {@link #integer} reports such a number as no integer; a caller with bounds says it is out of them instead.
     */
    public static int beyondLong(String text) {
        if (tooLong(text) != null) return 0;
        Matcher m = quantity(text);
        if (m == null || !m.group(2).isEmpty()) return 0;
        BigDecimal d;
        try {
            d = new BigDecimal(m.group(1).replace("_", ""));
        } catch (NumberFormatException e) {
            return 0;
        }
        if (d.signum() == 0 || d.stripTrailingZeros().scale() > 0) return 0;
        if (d.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) return 1;
        return d.compareTo(BigDecimal.valueOf(Long.MIN_VALUE)) < 0 ? -1 : 0;
    }

    /** 1 to 18 ASCII digits and nothing else: a long as it is, no pattern needed. */
    private static boolean plainDigits(String t) {
        int n = t.length();
        if (n == 0 || n > 18) return false;
        for (int i = 0; i < n; i++) if (t.charAt(i) < '0' || t.charAt(i) > '9') return false;
        return true;
    }

    private static double number(String s) { return Double.parseDouble(s.replace("_", "")); }

    private static double prefix(String p, boolean binary) {
        double base = binary ? 1024 : 1000;
        return switch (p.toLowerCase(Locale.ROOT)) {
            case "k" -> base;
            case "m" -> base * base;
            case "g" -> base * base * base;
            case "t" -> base * base * base * base;
            default -> 1;
        };
    }

    /** Numbers in messages: no trailing zeros, at most 3 decimals ("50", "3.125", "8.96"). */
    public static String format(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) return String.valueOf(v);
        BigDecimal d = BigDecimal.valueOf(v).setScale(3, java.math.RoundingMode.HALF_UP).stripTrailingZeros();
        return d.scale() < 0 ? d.setScale(0).toPlainString() : d.toPlainString();
    }

    /** Like {@link #format} but with 2 decimals, for estimates. */
    public static String format2(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) return String.valueOf(v);
        BigDecimal d = BigDecimal.valueOf(v).setScale(2, java.math.RoundingMode.HALF_UP).stripTrailingZeros();
        return d.scale() < 0 ? d.setScale(0).toPlainString() : d.toPlainString();
    }
}
