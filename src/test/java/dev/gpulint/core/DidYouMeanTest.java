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
    /** The textbook matrix the three-row distance replaced (optimal string alignment), to compare it with. */
    private static int matrix(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) d[i][0] = i;
        for (int j = 0; j <= b.length(); j++) d[0][j] = j;
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1));
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
            }
        }
        return d[a.length()][b.length()];
    }

    @Test
    void boundedDistanceIsExactUpToItsBoundAndAboveItBeyond() {
        assertEquals(1, DidYouMean.distance("NCCL_IB_HAC", "NCCL_IB_HCA"));     // one transposition
        assertEquals(3, DidYouMean.distance("kitten", "sitting"));
        assertEquals(4, DidYouMean.distance("", "abcd"));
        java.util.Random random = new java.util.Random(35);
        String letters = "ABCN_L";
        for (int t = 0; t < 5000; t++) {
            StringBuilder a = new StringBuilder(), b = new StringBuilder();
            for (int i = random.nextInt(12); i > 0; i--) a.append(letters.charAt(random.nextInt(letters.length())));
            for (int i = random.nextInt(12); i > 0; i--) b.append(letters.charAt(random.nextInt(letters.length())));
            int exact = matrix(a.toString(), b.toString()), bound = random.nextInt(6);
            assertEquals(exact, DidYouMean.distance(a.toString(), b.toString()), a + " / " + b);
            int bounded = DidYouMean.distance(a.toString(), b.toString(), bound);
            if (exact <= bound) assertEquals(exact, bounded, a + " / " + b + " within " + bound);
            else org.junit.jupiter.api.Assertions.assertTrue(bounded > bound, a + " / " + b + " beyond " + bound + ": " + bounded);
        }
    }
}
