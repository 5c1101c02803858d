package dev.gpulint.derive;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The estimates against examples worked out by hand (and the ZeRO paper's own). */
class EstimatesTest {

    @Test
    void llama3_8bFullFineTuneNeeds128GB() {
        Estimates.StateBytes b = Estimates.StateBytes.of(16);
        assertEquals(2, b.weights());
        assertEquals(2, b.gradients());
        assertEquals(12, b.optimizer());
        assertEquals(128e9, Estimates.modelStatesPerGpu(8e9, b, 1, 1, 1, 0), 1);
    }

    @Test
    void zeroPaperExample() {
        // Rajbhandari et al. 2020, Fig. 1: 7.5B parameters, N_d = 64: 120 GB, 31.4 GB, 16.6 GB, 1.9 GB
        Estimates.StateBytes b = Estimates.StateBytes.of(16);
        assertEquals(120.0, Estimates.modelStatesPerGpu(7.5e9, b, 1, 1, 64, 0) / 1e9, 0.05);
        assertEquals(31.4, Estimates.modelStatesPerGpu(7.5e9, b, 1, 1, 64, 1) / 1e9, 0.05);
        assertEquals(16.6, Estimates.modelStatesPerGpu(7.5e9, b, 1, 1, 64, 2) / 1e9, 0.05);
        assertEquals(1.9, Estimates.modelStatesPerGpu(7.5e9, b, 1, 1, 64, 3) / 1e9, 0.05);
    }

    @Test
    void megatronEighteenBytesAndModelParallelism() {
        Estimates.StateBytes b = Estimates.StateBytes.of(18);
        assertEquals(4, b.gradients());
        // 70B over tp 8 × pp 2: 4.375B parameters per GPU × 18 bytes
        assertEquals(78.75e9, Estimates.modelStatesPerGpu(70e9, b, 8, 2, 1, 0), 1);
        // distributed optimizer (ZeRO-1 like) over dp 4: 6 + 12/4 = 9 bytes per parameter
        assertEquals(4.375e9 * 9, Estimates.modelStatesPerGpu(70e9, b, 8, 2, 4, 1), 1);
        assertEquals(1, Estimates.StateBytes.of(8).weights());   // under 14 bytes: the ZeRO proportions
    }

    @Test
    void pipelineBubble() {
        assertEquals(7.0 / 11, Estimates.bubble(8, 1, 4), 1e-12);    // m < p: over half
        assertEquals(3.0 / 35, Estimates.bubble(4, 1, 32), 1e-12);   // m = 8p: under 10%
        assertEquals(3.0 / 35, Estimates.bubble(4, 4, 8), 1e-12);    // v = 4 does what m × 4 does
        assertEquals(0, Estimates.bubble(1, 1, 1));
    }
}
