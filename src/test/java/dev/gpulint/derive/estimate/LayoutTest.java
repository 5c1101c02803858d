package dev.gpulint.derive.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class LayoutTest {
    private static Layout layout(int tp, int pp, int dp, int micro, long global) {
        return new Layout(tp, pp, dp, 1, 1, 1, micro, global, 0, false, Layout.Recompute.SELECTIVE, true);
    }

    @Test
    void gpusAreTheProductOfTpCpPpDp() {
        assertEquals(64, layout(8, 2, 4, 1, 128).gpus());
        assertEquals(128, layout(8, 2, 4, 1, 128).withSizes(8, 2, 4, 2, 1, 1).gpus());
    }

    @Test
    void microBatchesPerReplicaOrZeroWhenTheBatchDoesNotDivide() {
        assertEquals(32, layout(8, 2, 4, 1, 128).microBatches());
        assertEquals(16, layout(8, 2, 4, 2, 128).microBatches());
        assertEquals(0, layout(8, 2, 3, 1, 128).microBatches());
    }

    @Test
    void sizesNameOnlyWhatIsSet() {
        assertEquals("tp 8, pp 2, dp 4", layout(8, 2, 4, 1, 128).sizes());
        assertEquals("tp 4, pp 8, vpp 6, dp 4, cp 2, ep 2", layout(8, 2, 4, 1, 128).withSizes(4, 8, 4, 2, 2, 6).sizes());
        assertEquals("full", Layout.Recompute.FULL.id());
    }

    @Test
    void refusesSizesBelowOneAndStagesAboveThree() {
        assertThrows(IllegalArgumentException.class, () -> layout(0, 1, 1, 1, 1));
        assertThrows(IllegalArgumentException.class,
                () -> new Layout(1, 1, 1, 1, 1, 1, 1, 1, 4, false, Layout.Recompute.NONE, false));
    }
}
