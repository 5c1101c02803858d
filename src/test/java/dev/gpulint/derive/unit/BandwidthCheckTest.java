package dev.gpulint.derive.unit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.derive.unit.BandwidthCheck.Figure;
import java.util.List;
import org.junit.jupiter.api.Test;

class BandwidthCheckTest {
    private static final Figure NDR = new Figure(50e9, "NDR");
    private static final Figure HDR = new Figure(25e9, "HDR");

    @Test
    void bytesWrittenForBitsIsEightfoldAbove() {
        var e = BandwidthCheck.eightfold(400e9, List.of(HDR, NDR)).orElseThrow();   // "400 GB/s"
        assertEquals(NDR, e.figure());
        assertTrue(e.above());
    }

    @Test
    void bitsWrittenForBytesIsEightfoldBelow() {
        var e = BandwidthCheck.eightfold(900e9 / 8, List.of(new Figure(900e9, "bidir"), new Figure(450e9, "dir"))).orElseThrow();
        assertFalse(e.above());
        assertEquals(900e9, e.figure().bytesPerSecond());
    }

    @Test
    void aMatchAsWrittenWins() {
        // 200 GB/s = 1600 Gb/s: 8x HDR (25 GB/s) but no match as written → flagged; 50 GB/s matches NDR → silent
        assertTrue(BandwidthCheck.eightfold(50e9, List.of(HDR, NDR)).isEmpty());
        // 25 GB/s matches HDR although it is also NDR / 2
        assertTrue(BandwidthCheck.eightfold(25e9, List.of(HDR, NDR)).isEmpty());
    }

    @Test
    void toleranceIsTenPercent() {
        Figure gen4 = new Figure(31.5e9, "Gen4 per direction");
        assertTrue(BandwidthCheck.matches(32e9, gen4));
        assertFalse(BandwidthCheck.matches(36e9, gen4));
        assertTrue(BandwidthCheck.eightfold(32e9 * 8, List.of(gen4)).isPresent());
        assertTrue(BandwidthCheck.eightfold(3 * 31.5e9, List.of(gen4)).isEmpty(), "3x is no bit/byte mix-up");
    }

    @Test
    void nearestIsByRelativeDistance() {
        // 35 GB/s is 10 GB/s from HDR and 15 from NDR, but 40% above HDR and 30% below NDR
        assertEquals(50e9, BandwidthCheck.nearest(35e9, List.of(HDR, NDR)));
        assertEquals(25e9, BandwidthCheck.nearest(26e9, List.of(HDR, NDR)));
        assertEquals(0, BandwidthCheck.nearest(26e9, List.of()));
    }

    @Test
    void aFigureOfTheTechnologyAsWrittenIsNoMixUp() {
        Figure xdr = new Figure(100e9, "XDR");
        // 800 GB/s is 8x XDR... but 100 GB/s written is XDR itself: beyond a ConnectX-7, not a mix-up
        assertTrue(BandwidthCheck.eightfold(100e9, List.of(HDR, NDR), List.of(HDR, NDR, xdr)).isEmpty());
        assertEquals(NDR, BandwidthCheck.eightfold(400e9, List.of(HDR, NDR), List.of(HDR, NDR, xdr)).orElseThrow().figure());
    }
}
