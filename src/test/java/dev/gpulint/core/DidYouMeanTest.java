package dev.gpulint.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Did-you-mean stays cheap on hostile names and still finds typos. */
class DidYouMeanTest {

    @Test
    void findsTypos() {
        assertEquals("NCCL_IB_HCA", DidYouMean.closest("NCCL_IB_HAC", List.of("NCCL_DEBUG", "NCCL_IB_HCA", "NCCL_IB_GID_INDEX")));
        assertNull(DidYouMean.closest("XYZ_TOTALLY_DIFFERENT", List.of("NCCL_DEBUG", "NCCL_IB_HCA")));
    }

    @Test
    void aMegabyteNameGetsNoSuggestionQuickly() {
        String huge = "NCCL_" + "X".repeat(1 << 20);
        List<String> candidates = new ArrayList<>();
        for (int i = 0; i < 200; i++) candidates.add("NCCL_VARIABLE_" + i);
        assertNull(assertTimeoutPreemptively(Duration.ofSeconds(3), () -> DidYouMean.closest(huge, candidates)));
        assertTimeoutPreemptively(Duration.ofSeconds(3), () -> DidYouMean.closestN(huge, candidates, 3));
        assertTimeoutPreemptively(Duration.ofSeconds(3), () -> DidYouMean.distance(huge, huge));
    }
}
