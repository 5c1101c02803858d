package dev.gpulint.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import dev.gpulint.testing.CpuBudget;

/** Did-you-mean stays cheap on hostile names and still finds typos. */
class DidYouMeanTest {

    @Test
    void findsTypos() {
        assertEquals("NCCL_IB_HCA", DidYouMean.closest("NCCL_IB_HAC", List.of("NCCL_DEBUG", "NCCL_IB_HCA", "NCCL_IB_GID_INDEX")));
        assertNull(DidYouMean.closest("XYZ_TOTALLY_DIFFERENT", List.of("NCCL_DEBUG", "NCCL_IB_HCA")));
    }

    @Test
    void clearlyNearestNeedsOneNameNearerThanTheRest() {
        List<String> gpus = List.of("A100-SXM4-40GB", "A100-SXM4-80GB", "H100-SXM5-80GB", "L40S");
        assertEquals("H100-SXM5-80GB", DidYouMean.clearlyNearest("H100-SXM-80G", gpus));
        assertEquals("A100-SXM4-80GB", DidYouMean.clearlyNearest("a100 sxm4 80g", gpus));
        // 60 GB is one edit from both 40 GB and 80 GB: no name is clearly the one
        assertNull(DidYouMean.clearlyNearest("A100-SXM4-60GB", gpus));
        // nearest, but no typo of it
        assertNull(DidYouMean.clearlyNearest("RTX 4090", gpus));
        assertNull(DidYouMean.clearlyNearest("H".repeat(DidYouMean.MAX_LENGTH + 1), gpus));
    }

    @Test
    void aMegabyteNameGetsNoSuggestionQuickly() {
        String huge = "NCCL_" + "X".repeat(1 << 20);
        List<String> candidates = new ArrayList<>();
        for (int i = 0; i < 200; i++) candidates.add("NCCL_VARIABLE_" + i);
        assertNull(CpuBudget.ofSeconds(15).run(() -> DidYouMean.closest(huge, candidates)));
        CpuBudget.ofSeconds(15).run(() -> DidYouMean.closestN(huge, candidates, 3));
        assertNull(CpuBudget.ofSeconds(15).run(() -> DidYouMean.clearlyNearest(huge, candidates)));
        CpuBudget.ofSeconds(15).run(() -> DidYouMean.distance(huge, huge));
    }
}
