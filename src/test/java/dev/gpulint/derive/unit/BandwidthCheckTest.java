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
    void phrasing() {
        assertEquals("400 Gb/s = 50 GB/s", BandwidthCheck.bothBases(50e9));
        assertEquals("25 Gb/s or 3.125 GB/s", BandwidthCheck.suggestion(3.125e9));
    }
}
