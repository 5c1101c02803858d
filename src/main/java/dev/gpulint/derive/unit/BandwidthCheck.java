package dev.gpulint.derive.unit;

import dev.gpulint.spec.Quantities;
import java.util.List;
import java.util.Optional;

/**
 * Compares a declared bandwidth with the catalog figures for what it
 * describes. "About" means within 10%: PCIe Gen4 x16 is 31.5 GB/s per direction
 * but often written 32.
 */
public final class BandwidthCheck {
    private BandwidthCheck() {}

    static final double TOLERANCE = 0.10;

    /** A catalog figure in bytes per second, with how to say it. */
    public record Figure(double bytesPerSecond, String label) {}

    /** The figure an 8× reading matches, and whether the value is above (bytes for bits) or below it. */
    public record Eightfold(Figure figure, boolean above) {}

    public static boolean matches(double value, Figure f) {
        return Math.abs(value / f.bytesPerSecond() - 1) <= TOLERANCE;
    }

    /** Empty when the value matches a figure as written, or when no 8× reading matches either. */
    public static Optional<Eightfold> eightfold(double value, List<Figure> figures) {
        if (value <= 0 || figures.isEmpty()) return Optional.empty();
        for (Figure f : figures) if (matches(value, f)) return Optional.empty();
        for (Figure f : figures) if (Math.abs(value / 8 / f.bytesPerSecond() - 1) <= TOLERANCE) return Optional.of(new Eightfold(f, true));
        for (Figure f : figures) if (Math.abs(value * 8 / f.bytesPerSecond() - 1) <= TOLERANCE) return Optional.of(new Eightfold(f, false));
        return Optional.empty();
    }

    /** "400 Gb/s = 50 GB/s". */
    public static String bothBases(double bytesPerSecond) {
        return Quantities.format(bytesPerSecond * 8 / 1e9) + " Gb/s = " + Quantities.format(bytesPerSecond / 1e9) + " GB/s";
    }

    /** "400 Gb/s or 50 GB/s". */
    public static String suggestion(double bytesPerSecond) {
        return Quantities.format(bytesPerSecond * 8 / 1e9) + " Gb/s or " + Quantities.format(bytesPerSecond / 1e9) + " GB/s";
    }
}
