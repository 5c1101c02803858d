package dev.gpulint.derive;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The estimates against examples worked out by hand (model states: StateBytesTest). */
class EstimatesTest {

    @Test
    void ringAllReduceOf16GBOnEightGpusSends28GB() {
        double bytes = 16e9;
        long n = 8;
        assertEquals(28e9, 2.0 * (n - 1) / n * bytes, 1);
        // over 25GbE (3.125 GB/s): 8.96 s (NET003's help page example)
        assertEquals(8.96, Estimates.ringAllReduceSeconds(bytes, n, 3.125e9), 1e-9);
        assertEquals(0, Estimates.ringAllReduceSeconds(bytes, 1, 3.125e9));
    }

    @Test
    void pipelineBubble() {
        assertEquals(7.0 / 11, Estimates.bubble(8, 1, 4), 1e-12);    // m < p: over half
        assertEquals(3.0 / 35, Estimates.bubble(4, 1, 32), 1e-12);   // m = 8p: under 10%
        assertEquals(3.0 / 35, Estimates.bubble(4, 4, 8), 1e-12);    // v = 4 does what m × 4 does
        assertEquals(0, Estimates.bubble(1, 1, 1));
    }
}
