package dev.gpulint.facts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class HwUnitsTest {

    @Test
    void withinIsRelativeToTheFigure() {
        assertTrue(HwUnits.within(32e9, 31.5e9, 0.10));
        assertTrue(HwUnits.within(34.65e9 - 1, 31.5e9, 0.10));
        assertFalse(HwUnits.within(36e9, 31.5e9, 0.10));
        assertFalse(HwUnits.within(28e9, 31.5e9, 0.10));
    }

    @Test
    void noFigureMatchesNothing() {
        assertFalse(HwUnits.within(0, 0, 0.10));
        assertFalse(HwUnits.within(50e9, 0, 0.10));
    }

    @Test
    void phrasing() {
        assertEquals("450 GB/s", HwUnits.gbs(450e9));
        assertEquals("400 Gb/s", HwUnits.gbits(50e9));
        assertEquals("400 Gb/s = 50 GB/s", HwUnits.bothBases(50e9));
        assertEquals("25 Gb/s or 3.125 GB/s", HwUnits.eitherBase(3.125e9));
        assertEquals("80 GiB (85.9 GB)", HwUnits.gib(80.0 * (1L << 30)));
    }
}
