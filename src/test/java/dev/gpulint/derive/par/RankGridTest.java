package dev.gpulint.derive.par;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Rank coordinates, checked against Megatron-LM's layouts worked out by hand. */
class RankGridTest {

    @Test
    void megatronsDefaultOrderPutsTpFastestAndPpSlowest() {
        // 16 GPUs, tp 4, dp 2, pp 2: ranks 0-3 one tp group, 4-7 the next replica, 8-15 stage 1
        RankGrid g = new RankGrid(RankGrid.DIMENSIONS, 4, 1, 1, 2, 2);
        assertEquals(16, g.world());
        assertEquals(List.of(1L, 0L, 0L, 0L), List.of(g.coordinate(1, "tp"), g.coordinate(1, "dp"), g.coordinate(1, "pp"), g.coordinate(1, "cp")));
        assertEquals(List.of(2L, 1L, 1L), List.of(g.coordinate(14, "tp"), g.coordinate(14, "dp"), g.coordinate(14, "pp")));
        assertEquals(1, g.stride("tp"));
        assertEquals(4, g.stride("dp"));
        assertEquals(8, g.stride("pp"));
        assertEquals(8, g.next(0, "pp"));
        assertEquals(-1, g.next(8, "pp"));
        assertEquals(12, g.first(14, "tp"));
    }

    @Test
    void anotherOrderMovesTheStrides() {
        // order tp-pp-dp: pp neighbours are tp apart, dp replicas tp·pp apart
        RankGrid g = new RankGrid(List.of("tp", "pp", "dp"), 2, 1, 1, 2, 2);
        assertEquals(List.of("tp", "pp", "dp", "cp", "ep"), g.order());
        assertEquals(2, g.stride("pp"));
        assertEquals(4, g.stride("dp"));
        assertEquals(1, g.coordinate(2, "pp"));
        assertEquals(0, g.coordinate(2, "dp"));
    }

    @Test
    void cpSitsBetweenTpAndDpAndEpFollowsMegatronCoresExpertGrid() {
        // tp 2, cp 2, ep 4, dp 4, pp 1 on 16 GPUs: cp stride 2, dp stride 4; expert grid tp-ep-edp with edp = 2·4/4 = 2
        RankGrid g = new RankGrid(RankGrid.DIMENSIONS, 2, 2, 4, 4, 1);
        assertEquals(2, g.stride("cp"));
        assertEquals(4, g.stride("dp"));
        assertEquals(2, g.stride("ep"));
        assertEquals(1, g.coordinate(2, "ep"));
        assertEquals(3, g.coordinate(7, "ep"));
        assertEquals(0, g.coordinate(8, "ep"));
        assertEquals(1, g.coordinate(7, "dp"));
        assertEquals(1, g.coordinate(7, "cp"));
    }

    @Test
    void sizesBelowOneAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new RankGrid(RankGrid.DIMENSIONS, 0, 1, 1, 1, 1));
    }
}
