package dev.gpulint.derive.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link Units#whole} writes what {@code String.format(Locale.ROOT, "%.0f", v)} writes, for every kind of double. */
class UnitsTest {

    private static String formatter(double v) { return String.format(Locale.ROOT, "%.0f", v); }

    @Test
    void wholeWritesWhatTheFormatterWrites() {
        List<Double> vs = new ArrayList<>(List.of(0.0, -0.0, 0.5, 1.5, 2.5, 0.49999999999999994, 4.499999999999999, 13376.0, 7184.5,
                1e15 - 0.5, 1e15, 1e15 + 2, 0x1p52 + 1, 1e300, Double.MIN_VALUE, Double.MAX_VALUE, -2.5, -0.4, Double.NaN,
                Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY));
        // each half, its neighbours one ulp either side, across the magnitudes a term's text holds
        for (double h = 0.5; h < 1e16; h = h * 3 + 0.5) {
            vs.add(h);
            vs.add(Math.nextDown(h));
            vs.add(Math.nextUp(h));
        }
        Random r = new Random(35);
        for (int i = 0; i < 50_000; i++) {
            vs.add(r.nextDouble() * Math.pow(10, r.nextInt(17)));
            vs.add(r.nextInt(1 << 20) + 0.5 * r.nextInt(2) + (r.nextBoolean() ? 0 : Math.ulp(1.0) * (r.nextInt(9) - 4)));
        }
        for (double v : vs) assertEquals(formatter(v), Units.whole(v), () -> "v = " + v + " (" + Double.doubleToRawLongBits(v) + ")");
    }

    @Test
    void aTermsCountIsWrittenWhole() {
        assertEquals("13376", Units.whole(13376.0));
        assertEquals("7185", Units.whole(7184.5));
        assertEquals("-0", Units.whole(-0.0));
    }
}
