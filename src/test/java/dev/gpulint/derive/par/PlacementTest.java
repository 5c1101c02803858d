package dev.gpulint.derive.par;

import dev.gpulint.spec.ParallelDim;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import dev.gpulint.testing.CpuBudget;

/** Rank placement, checked against layouts worked out by hand. */
class PlacementTest {

    private static final List<ParallelDim> MEGATRON = List.of(ParallelDim.TP, ParallelDim.CP, ParallelDim.EP, ParallelDim.DP, ParallelDim.PP);

    @Test
    void tp8OnEightGpuNodesStaysInside() {
        assertTrue(Placement.firstCrossingTpGroup(16, 8, 8, 8, 1).isEmpty());
        assertTrue(Placement.firstCrossingTpGroup(1024, 8, 8, 4, 1).isEmpty());
        assertTrue(Placement.firstCrossingTpGroup(1024, 8, 8, 2, 1).isEmpty());
    }

    @Test
    void tp16OnEightGpuNodesCrossesAtRankZero() {
        Placement.Crossing c = Placement.firstCrossingTpGroup(32, 8, 8, 16, 1).orElseThrow();
        assertEquals(0, c.ranks()[0]);
        assertEquals(15, c.ranks()[15]);
        assertEquals(2, c.domainCount());
        assertEquals("0-15", Placement.ranks(c.ranks()));
    }

    @Test
    void tp3OnEightGpuNodesPutsRanks6To8OnTwoNodes() {
        // groups: 0-2, 3-5 on node 0; 6-8 straddles nodes 0 and 1
        Placement.Crossing c = Placement.firstCrossingTpGroup(16, 8, 8, 3, 1).orElseThrow();
        assertArrayEquals(new long[] {6, 7, 8}, c.ranks());
        assertArrayEquals(new long[] {0, 0, 1}, c.domains());
    }

    @Test
    void tp3WhoseGroupsAllFitStaysSilent() {
        // 6 GPUs on one 8-GPU node: groups 0-2 and 3-5, none crosses
        assertTrue(Placement.firstCrossingTpGroup(6, 8, 8, 3, 1).isEmpty());
    }

    @Test
    void rackDomainsOfSeventyTwoHoldTwoTrays() {
        // GB200 NVL72: 4 GPUs per tray, 72 per NVLink domain; tp=8 spans two trays of one rack
        assertTrue(Placement.firstCrossingTpGroup(72, 4, 72, 8, 1).isEmpty());
        assertTrue(Placement.firstCrossingTpGroup(144, 4, 72, 72, 1).isEmpty());
        // tp=16 over 144 GPUs: 72/16 is not whole, so the group of ranks 64-79 straddles racks 0 and 1
        Placement.Crossing c = Placement.firstCrossingTpGroup(144, 4, 72, 16, 1).orElseThrow();
        assertEquals(64, c.ranks()[0]);
        assertEquals(2, c.domainCount());
    }

    @Test
    void strideFromTheRankOrder() {
        assertEquals(1, Placement.tpStride(MEGATRON, 2, 4, 8));
        assertEquals(4, Placement.tpStride(List.of(ParallelDim.DP, ParallelDim.TP, ParallelDim.CP, ParallelDim.EP, ParallelDim.PP), 1, 4, 2));
        assertEquals(8, Placement.tpStride(List.of(ParallelDim.CP, ParallelDim.DP, ParallelDim.TP, ParallelDim.EP, ParallelDim.PP), 2, 4, 2));
        // ep does not shape the dense grid
        assertEquals(1, Placement.tpStride(List.of(ParallelDim.EP, ParallelDim.TP, ParallelDim.CP, ParallelDim.DP, ParallelDim.PP), 1, 4, 2));
    }

    @Test
    void stridedTpGroupsCrossNodes() {
        // order dp-tp-..: dp=2 is fastest, so TP group 0 is ranks 0,2,..,14 over two 8-GPU nodes
        Placement.Crossing c = Placement.firstCrossingTpGroup(16, 8, 8, 8, 2).orElseThrow();
        assertArrayEquals(new long[] {0, 2, 4, 6, 8, 10, 12, 14}, c.ranks());
        assertEquals("0,2,4,6,8,10,12,14", Placement.ranks(c.ranks()));
    }

    @Test
    void bridgedPairsAreDomainsInsideANode() {
        assertEquals(0, Placement.domainOf(1, 8, 2));
        assertEquals(1, Placement.domainOf(2, 8, 2));
        assertEquals(4, Placement.domainOf(8, 8, 2));
        assertTrue(Placement.firstCrossingTpGroup(32, 8, 2, 2, 1).isEmpty());
        assertTrue(Placement.firstCrossingTpGroup(32, 8, 2, 4, 1).isPresent());
    }

    @Test
    void aHundredThousandGpusIsCheap() {
        // the layout repeats: only one period is examined, not every group (a CPU budget, never wall time)
        CpuBudget.ofSeconds(15).run(() -> {
            assertTrue(Placement.firstCrossingTpGroup(100_000, 8, 8, 8, 1).isEmpty());
            assertTrue(Placement.firstCrossingTpGroup(100_000, 4, 72, 8, 1).isEmpty());
        });
    }

    @Test
    void saturatingArithmetic() {
        assertEquals(Long.MAX_VALUE, Placement.mulSat(1L << 40, 1L << 40));
        assertEquals(1L << 40, Placement.mulSat(1L << 20, 1L << 20));
        assertEquals(-6, Placement.mulSat(-2, 3));
        assertTrue(Placement.firstCrossingTpGroup(8, 8, 8, 1L << 40, 1).isEmpty(), "tp larger than the world is not placed");
    }

    @Test
    void longStridedRankListsAreShortened() {
        long[] r = new long[16];
        for (int i = 0; i < 16; i++) r[i] = i * 4L;
        assertEquals("0,4,8,...,60", Placement.ranks(r));
        assertEquals("7", Placement.ranks(new long[] {7}));
    }
}
