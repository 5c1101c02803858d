package dev.gpulint.derive;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * The estimates against examples worked out by hand (model states: StateBytesTest; collectives on each
 * tier: CollectiveCostTest).
 */
class EstimatesTest {

    @Test
    void pipelineBubble() {
        assertEquals(7.0 / 11, Estimates.bubble(8, 1, 4), 1e-12);    // m < p: over half
        assertEquals(3.0 / 35, Estimates.bubble(4, 1, 32), 1e-12);   // m = 8p: under 10%
        assertEquals(3.0 / 35, Estimates.bubble(4, 4, 8), 1e-12);    // v = 4 does what m × 4 does
        assertEquals(0, Estimates.bubble(1, 1, 1));
    }
}
