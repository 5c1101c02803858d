package dev.gpulint.plan.draw;

import dev.gpulint.spec.ParallelDim;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.derive.estimate.Layout;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a picture shows: nodes, coordinates, tp groups and their tier, links, and the bounds on large jobs. */
class SceneTest {
    static Layout layout(int tp, int pp, int dp, int cp, int ep) {
        return new Layout(tp, pp, dp, cp, ep, 1, 1, 1024, 0, false, Layout.Recompute.SELECTIVE, tp > 1);
    }

    static final Scene.Nodes DGX = new Scene.Nodes("dgx", 8, 8, "H100-SXM5-80GB");

    @Test
    void tp8TimesPp2OnTwoServersKeepsTpInsideAndSendsPpOverTheNetwork() {
        Scene s = Scene.of(layout(8, 2, 1, 1, 1), RankGrid(), DGX, 0);
        assertEquals(2, s.nodes().size());
        assertEquals("dgx-1", s.nodes().get(1).name());
        Scene.Cell c = s.nodes().get(1).cells().get(4);
        assertEquals("r12 tp4 pp1 dp0", c.label(layout(8, 2, 1, 1, 1)));
        assertEquals(Scene.Tier.NODE, c.tpTier());
        assertEquals(2, s.tpGroups());
        assertEquals(List.of(new Scene.Link(ParallelDim.PP, "pp 0→1", 0, 1, 8, Scene.Tier.NETWORK)), s.links());
        assertTrue(s.notDrawn().isEmpty());
    }

    private static List<ParallelDim> RankGrid() { return ParallelDim.DEFAULT_ORDER; }

    @Test
    void tp16AcrossTwoServersIsOneGroupOverTheNetwork() {
        Scene s = Scene.of(layout(16, 1, 1, 1, 1), RankGrid(), DGX, 0);
        assertEquals(1, s.tpGroups());
        for (Scene.Node n : s.nodes()) for (Scene.Cell c : n.cells()) assertEquals(Scene.Tier.NETWORK, c.tpTier());
        assertEquals(List.of(new Scene.Link(ParallelDim.TP, "tp group A", 0, 1, 1, Scene.Tier.NETWORK)), s.links());
    }

    @Test
    void anNvlinkRackJoinsNodesWithoutTheNetwork() {
        Scene s = Scene.of(layout(8, 1, 2, 1, 1), RankGrid(), new Scene.Nodes("nvl72", 4, 72, "GB200"), 0);
        assertEquals(Scene.Tier.NVLINK, s.nodes().get(0).cells().get(0).tpTier());
        assertTrue(s.links().stream().allMatch(l -> l.tier() == Scene.Tier.NVLINK), s.links().toString());
    }

    @Test
    void a1024GpuJobDrawsItsFirstStageAndSummarisesTheRest() {
        Scene s = Scene.of(layout(8, 16, 8, 1, 1), RankGrid(), DGX, 0);
        assertEquals(8, s.nodes().size());
        assertEquals(64, s.nodes().stream().mapToInt(n -> n.cells().size()).sum());
        assertEquals(List.of("pp stages 2–16 of 16: 15 × 8 nodes, same pattern (ranks 64–1023)"), s.notDrawn());
        assertTrue(s.links().stream().anyMatch(l -> l.kind() == ParallelDim.PP && l.to() == -1));
        assertTrue(s.links().stream().anyMatch(l -> l.kind() == ParallelDim.DP && l.from() == 0 && l.to() == 1));
    }

    @Test
    void aHugeJobStaysBounded() {
        // 1,048,576 GPUs with pp 1: the first MAX_NODES nodes drawn, the rest in words, links capped
        Scene s = Scene.of(layout(8, 1, 131_072, 1, 1), RankGrid(), DGX, 0);
        assertEquals(Scene.MAX_NODES, s.nodes().size());
        assertEquals(List.of("nodes dgx-16–dgx-131071 (131056 nodes, ranks 128–1048575): the same rank order, not drawn"), s.notDrawn());
        assertTrue(s.links().size() <= Scene.MAX_LINKS);
        // a stage bigger than the cap: the rest of stage 1 and the other stages in words
        Scene t = Scene.of(layout(8, 4, 64, 1, 1), RankGrid(), DGX, 0);
        assertEquals(Scene.MAX_NODES, t.nodes().size());
        assertEquals(List.of("nodes dgx-16–dgx-63 (48 nodes, ranks 128–511): the rest of pp stage 1 of 4, same pattern",
                "pp stages 2–4 of 4: 3 × 64 nodes, same pattern (ranks 512–2047)"), t.notDrawn());
    }

    @Test
    void cpAndEpAppearInLabelsOnlyWhenAboveOne() {
        Layout moe = layout(2, 1, 4, 2, 4);
        Scene s = Scene.of(moe, RankGrid(), DGX, 0);
        assertEquals("r7 tp1 pp0 dp1 cp1 ep3", s.nodes().get(0).cells().get(7).label(moe));
    }

    @Test
    void epLinksFollowTheExpertGrid() {
        // 32 GPUs on four 8-GPU nodes, tp 2, cp 2, dp 8, ep 8: with etp 1 each ep group is one node's 8 ranks, so no ep link
        // leaves a node; with etp = tp the groups are ranks 2 apart (0, 2, ..., 14), two nodes each: ranks 6 and 7 link to node 1, 22 and 23 to node 3
        Layout moe = layout(2, 1, 8, 2, 8);
        Scene folded = Scene.of(moe, RankGrid(), DGX, 1);
        assertTrue(folded.links().stream().noneMatch(l -> l.kind() == ParallelDim.EP), folded.links().toString());
        assertEquals("r9 tp1 pp0 dp2 cp0 ep1", folded.nodes().get(1).cells().get(1).label(moe));
        Scene plain = Scene.of(moe, RankGrid(), DGX, 0);
        assertEquals(List.of(new Scene.Link(ParallelDim.EP, "ep", 0, 1, 2, Scene.Tier.NETWORK),
                new Scene.Link(ParallelDim.EP, "ep", 2, 3, 2, Scene.Tier.NETWORK)),
                plain.links().stream().filter(l -> l.kind() == ParallelDim.EP).toList());
    }

    @Test
    void tagsCountLikeSpreadsheetColumns() {
        assertEquals(List.of("A", "Z", "AA", "AZ", "BA"), List.of(Scene.tag(0), Scene.tag(25), Scene.tag(26), Scene.tag(51), Scene.tag(52)));
    }
}
