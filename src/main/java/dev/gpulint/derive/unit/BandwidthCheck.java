package dev.gpulint.derive.unit;

import dev.gpulint.facts.BandwidthFact;
import dev.gpulint.facts.HwUnits;
import java.util.List;
import java.util.Optional;

/**
 * Compares a declared bandwidth with the catalog figures for what it describes. "About" means
 * within {@link BandwidthFact#TOLERANCE} (10%): PCIe Gen4 x16 is 31.5 GB/s per direction but often
 * written 32.
 */
public final class BandwidthCheck {
    private BandwidthCheck() {}

    static final double TOLERANCE = BandwidthFact.TOLERANCE;

    /** A catalog figure in bytes per second, with its name ("InfiniBand NDR", "per direction"). */
    public record Figure(double bytesPerSecond, String label) {}

    /** The figure an 8× reading matches, and whether the value is above (bytes for bits) or below it. */
    public record Eightfold(Figure figure, boolean above) {}

    public static boolean matches(double value, Figure f) {
        return HwUnits.within(value, f.bytesPerSecond(), TOLERANCE);
    }

    /**
     * The figure nearest to the value by relative distance |value / figure - 1|, the measure that
     * {@link #matches} bounds: the value matches some figure exactly when it matches this one.
     * 0 when there are no figures.
     */
    public static double nearest(double value, List<Figure> figures) {
        double best = 0;
        double distance = Double.POSITIVE_INFINITY;
        for (Figure f : figures) {
            double d = Math.abs(value / f.bytesPerSecond() - 1);
            if (d < distance) { distance = d; best = f.bytesPerSecond(); }
        }
        return best;
    }

    /** Empty when the value matches a figure as written, or when no 8× reading matches either. */
    public static Optional<Eightfold> eightfold(double value, List<Figure> figures) {
        if (value <= 0 || figures.isEmpty()) return Optional.empty();
        for (Figure f : figures) if (matches(value, f)) return Optional.empty();
        for (Figure f : figures) if (Math.abs(value / 8 / f.bytesPerSecond() - 1) <= TOLERANCE) return Optional.of(new Eightfold(f, true));
        for (Figure f : figures) if (Math.abs(value * 8 / f.bytesPerSecond() - 1) <= TOLERANCE) return Optional.of(new Eightfold(f, false));
        return Optional.empty();
    }

    /**
     * As {@link #eightfold(double, List)}, and also empty when the value matches, as written, a figure
     * of the same technology that the described part cannot reach (XDR 800 Gb/s on a ConnectX-7): that
     * is no bit/byte mix-up, only beyond the part.
     */
    public static Optional<Eightfold> eightfold(double value, List<Figure> figures, List<Figure> technology) {
        for (Figure f : technology) if (matches(value, f)) return Optional.empty();
        return eightfold(value, figures);
    }
}
