package dev.gpulint.derive.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpulint.spec.ParallelDim;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** {@link RankGroup#within}: the HSDP shard group (every cp rank, dp's first shard ranks), its members worked out by hand. */
class RankGroupTest {

    /** The ranks of the group that holds rank 0: every sum of one member of each part. */
    static List<Long> members(RankGroup g) {
        TreeSet<Long> out = new TreeSet<>(List.of(0L));
        for (RankGroup.Part p : g.parts()) {
            TreeSet<Long> next = new TreeSet<>();
            for (long r : out) for (long i = 0; i < p.size(); i++) next.add(r + i * p.stride());
            out = next;
        }
        return List.copyOf(out);
    }

    @Test
    void dpFasterThanCpKeepsEveryCpRankWithDpsFirstShardRanks() {
        // order dp-tp-cp-ep-pp, tp 2, dp 4, cp 3: dp's ranks 1 apart (0..3), cp's tp·dp = 8 apart: parts dp 4 × 1 then cp 3 × 8.
        // HSDP shard 2: dp ranks 0, 1 with each cp rank 0, 8, 16 → 0, 1, 8, 9, 16, 17 (six members, shard · cp). The group's
        // first six members in its own order are 0, 1, 2, 3, 8, 9: no grid, and a prefix of 3 × ... undercounted it as 4.
        List<ParallelDim> order = List.of(ParallelDim.DP, ParallelDim.TP, ParallelDim.CP, ParallelDim.EP, ParallelDim.PP);
        RankGroup dpCp = RankGroup.dpCp(2, 3, 4, 1, order);
        assertEquals(List.of(new RankGroup.Part(4, 1), new RankGroup.Part(3, 8)), dpCp.parts());
        RankGroup shard = HybridSync.shardGroup(dpCp, 4, RankGroup.strides(2, 3, 4, 1, order).get(dev.gpulint.spec.ParallelDim.DP), 2);
        assertEquals(List.of(0L, 1L, 8L, 9L, 16L, 17L), members(shard));
        assertEquals(6, shard.n());
    }

    @Test
    void cpFasterThanDpIsTheGroupsFirstShardTimesCpMembers() {
        // the default tp-cp-ep-dp-pp, tp 2, cp 3, dp 4: cp·dp neighbours, one part 12 × 2; shard 2 → cp's 3 ranks (0, 2, 4)
        // with dp's first 2 (0, 6): 0, 2, 4, 6, 8, 10, the group's first six members, one part 6 × 2
        RankGroup dpCp = RankGroup.dpCp(2, 3, 4, 1, null);
        assertEquals(List.of(new RankGroup.Part(12, 2)), dpCp.parts());
        RankGroup shard = HybridSync.shardGroup(dpCp, 4, RankGroup.strides(2, 3, 4, 1, null).get(dev.gpulint.spec.ParallelDim.DP), 2);
        assertEquals(List.of(new RankGroup.Part(6, 2)), shard.parts());
        assertEquals(List.of(0L, 2L, 4L, 6L, 8L, 10L), members(shard));
        // Megatron's tp-cp-ep-pp-dp with pp 2: cp 3 × 2 then dp 4 × 12; shard 2 → 0, 2, 4, 12, 14, 16
        List<ParallelDim> tpPpDp = List.of(ParallelDim.TP, ParallelDim.CP, ParallelDim.EP, ParallelDim.PP, ParallelDim.DP);
        RankGroup split = RankGroup.dpCp(2, 3, 4, 2, tpPpDp);
        assertEquals(List.of(new RankGroup.Part(3, 2), new RankGroup.Part(4, 12)), split.parts());
        assertEquals(List.of(0L, 2L, 4L, 12L, 14L, 16L), members(HybridSync.shardGroup(split, 4, RankGroup.strides(2, 3, 4, 2, tpPpDp).get(dev.gpulint.spec.ParallelDim.DP), 2)));
    }

    @Test
    void withoutCpOrWithTheWholeDpTheGroupIsDpsFirstShardOrUnchanged() {
        RankGroup dp = RankGroup.dpCp(8, 1, 8, 1, null);                  // dp 8 ranks 8 apart
        assertEquals(List.of(0L, 8L, 16L, 24L), members(HybridSync.shardGroup(dp, 8, 8, 4)));
        assertEquals(dp, HybridSync.shardGroup(dp, 8, 8, 8));
    }
}
