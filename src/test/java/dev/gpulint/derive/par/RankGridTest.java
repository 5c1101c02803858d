package dev.gpulint.derive.par;

import dev.gpulint.spec.ParallelDim;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Rank coordinates, checked against Megatron-LM's layouts worked out by hand. */
class RankGridTest {

    @Test
    void megatronsDefaultOrderPutsTpFastestAndPpSlowest() {
        // 16 GPUs, tp 4, dp 2, pp 2: ranks 0-3 one tp group, 4-7 the next replica, 8-15 stage 1
        RankGrid g = new RankGrid(ParallelDim.DEFAULT_ORDER, 4, 1, 1, 2, 2, 0);
        assertEquals(16, g.world());
        assertEquals(List.of(1L, 0L, 0L, 0L), List.of(g.coordinate(1, ParallelDim.TP), g.coordinate(1, ParallelDim.DP), g.coordinate(1, ParallelDim.PP), g.coordinate(1, ParallelDim.CP)));
        assertEquals(List.of(2L, 1L, 1L), List.of(g.coordinate(14, ParallelDim.TP), g.coordinate(14, ParallelDim.DP), g.coordinate(14, ParallelDim.PP)));
        assertEquals(1, g.stride(ParallelDim.TP));
        assertEquals(4, g.stride(ParallelDim.DP));
        assertEquals(8, g.stride(ParallelDim.PP));
        assertEquals(8, g.next(0, ParallelDim.PP));
        assertEquals(-1, g.next(8, ParallelDim.PP));
        assertEquals(12, g.first(14, ParallelDim.TP));
    }

    @Test
    void anotherOrderMovesTheStrides() {
        // order tp-pp-dp: pp neighbours are tp apart, dp replicas tp·pp apart
        RankGrid g = new RankGrid(List.of(ParallelDim.TP, ParallelDim.PP, ParallelDim.DP), 2, 1, 1, 2, 2, 0);
        assertEquals(List.of(ParallelDim.TP, ParallelDim.PP, ParallelDim.DP, ParallelDim.CP, ParallelDim.EP), g.order());
        assertEquals(2, g.stride(ParallelDim.PP));
        assertEquals(4, g.stride(ParallelDim.DP));
        assertEquals(1, g.coordinate(2, ParallelDim.PP));
        assertEquals(0, g.coordinate(2, ParallelDim.DP));
    }

    @Test
    void cpSitsBetweenTpAndDpAndEpFollowsMegatronCoresExpertGrid() {
        // tp 2, cp 2, ep 4, dp 4, pp 1 on 16 GPUs: cp stride 2, dp stride 4; expert grid tp-ep-edp with edp = 2·4/4 = 2
        RankGrid g = new RankGrid(ParallelDim.DEFAULT_ORDER, 2, 2, 4, 4, 1, 0);
        assertEquals(2, g.stride(ParallelDim.CP));
        assertEquals(4, g.stride(ParallelDim.DP));
        assertEquals(2, g.stride(ParallelDim.EP));
        assertEquals(1, g.coordinate(2, ParallelDim.EP));
        assertEquals(3, g.coordinate(7, ParallelDim.EP));
        assertEquals(0, g.coordinate(8, ParallelDim.EP));
        assertEquals(1, g.coordinate(7, ParallelDim.DP));
        assertEquals(1, g.coordinate(7, ParallelDim.CP));
    }

    @Test
    void epGroupsFollowTheExpertGridsEtpNotAttentionsTp() {
        // tp 2, cp 2, dp 8 on 32 ranks, etp 1, ep 8: expert grid etp-ep-edp-pp = 1 × 8 × 4 × 1, so an ep group is 8
        // consecutive ranks (0–7, 8–15, ...): rank 5 is ep 5 of the group led by 0, rank 9 ep 1 of the group led by 8
        RankGrid folded = new RankGrid(ParallelDim.DEFAULT_ORDER, 2, 2, 8, 8, 1, 1);
        assertEquals(1, folded.stride(ParallelDim.EP));
        assertEquals(List.of(5L, 1L), List.of(folded.coordinate(5, ParallelDim.EP), folded.coordinate(9, ParallelDim.EP)));
        assertEquals(8, folded.first(9, ParallelDim.EP));
        assertEquals(-1, folded.next(7, ParallelDim.EP));
        // the same job with etp = tp (0): ep's ranks tp = 2 apart, the group led by 0 is 0, 2, ..., 14
        RankGrid plain = new RankGrid(ParallelDim.DEFAULT_ORDER, 2, 2, 8, 8, 1, 0);
        assertEquals(2, plain.stride(ParallelDim.EP));
        assertEquals(14, plain.first(0, ParallelDim.EP) + 7 * plain.stride(ParallelDim.EP));
        // the attention grid is unchanged by etp: cp 2 apart, dp 4
        assertEquals(List.of(2L, 4L), List.of(folded.stride(ParallelDim.CP), folded.stride(ParallelDim.DP)));
    }

    @Test
    void sizesBelowOneAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new RankGrid(ParallelDim.DEFAULT_ORDER, 0, 1, 1, 1, 1, 0));
    }
}
