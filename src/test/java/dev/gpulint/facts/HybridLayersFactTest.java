package dev.gpulint.facts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import dev.gpulint.testing.CpuLimit;

/** PAR015's two MambaMixer asserts (heads, then groups, each divisible by tp) and the tp it proposes instead. */
class HybridLayersFactTest {

    private static HybridLayersFact fact(long mamba, long heads, long groups, long tp) {
        return new HybridLayersFact("j", "f", "--hybrid-layer-pattern", null, 4, 4, null, mamba, heads, heads > 0, "--mamba-num-heads",
                groups, true, "--mamba-num-groups", tp, null, 0, 0, null, 0, null);
    }

    private static HybridLayersFact gdn(long keyHeads, long valueHeads, long tp) {
        return new HybridLayersFact("j", "f", "--hybrid-layer-pattern", null, 4, 4, null, 0, 0, false, "--mamba-num-heads", 8, false,
                "--mamba-num-groups", tp, null, 2, keyHeads, null, valueHeads, null);
    }

    @Test
    void gatedDeltaNetKeyHeadsAreCheckedBeforeItsValueHeadsAndOnlyWithGLayers() {
        assertTrue(gdn(6, 32, 4).isGdnKeyHeadsSplitRefused());
        assertFalse(gdn(6, 30, 4).isGdnValueHeadsSplitRefused(), "one finding: the key heads' first");
        assertFalse(gdn(16, 30, 4).isGdnKeyHeadsSplitRefused());
        assertTrue(gdn(16, 30, 4).isGdnValueHeadsSplitRefused());
        assertFalse(gdn(16, 32, 16).isGdnKeyHeadsSplitRefused(), "the defaults divide by 16");
        assertFalse(gdn(16, 32, 16).isGdnValueHeadsSplitRefused());
        assertTrue(gdn(16, 32, 32).isGdnKeyHeadsSplitRefused(), "the default 16 key heads refuse tp 32");
        assertFalse(fact(0, 0, 8, 32).isGdnKeyHeadsSplitRefused(), "no G layer, no GatedDeltaNet");
        assertEquals(2, gdn(6, 32, 4).getGdnTpAtMost(), "gcd 2");
        assertEquals(16, gdn(16, 32, 32).getGdnTpAtMost(), "the largest below 32 dividing 16 and 32");
        assertThrows(IllegalArgumentException.class, () -> gdn(0, 32, 4));
    }

    @Test
    void theTpSuggestedDividesTheAttentionHeadsTooWhenTheyAreKnown() {
        // 6 key and 12 value heads at tp 12 take tp 6, but TransformerConfig refuses 16 attention heads at tp 6
        assertEquals(6, gdn(6, 12, 12).getGdnTpAtMost(), "attention heads unknown: the mixer's heads alone");
        assertEquals(2, gdn(6, 12, 12).attentionHeads(16).getGdnTpAtMost());
        // MambaMixer's 96 heads and 8 groups take tp 8; 12 attention heads take 4 at most
        assertEquals(8, fact(2, 96, 8, 16).getTpAtMost());
        assertEquals(4, fact(2, 96, 8, 16).attentionHeads(12).getTpAtMost());
        assertEquals(8, fact(2, 96, 8, 16).attentionHeads(32).getTpAtMost(), "32 attention heads take 8");
        assertFalse(fact(2, 96, 8, 16).isAttentionHeadsKnown());
        assertTrue(fact(2, 96, 8, 16).attentionHeads(12).isAttentionHeadsKnown());
    }

    @Test
    void theHeadsAssertComesBeforeTheGroupsOne() {
        HybridLayersFact both = fact(2, 120, 6, 16);
        assertTrue(both.isHeadsSplitRefused());
        assertFalse(both.isGroupsSplitRefused(), "MambaMixer stops at its first assert: one finding");
        HybridLayersFact groups = fact(2, 128, 8, 16);
        assertFalse(groups.isHeadsSplitRefused());
        assertTrue(groups.isGroupsSplitRefused());
        assertFalse(fact(2, 128, 8, 8).isGroupsSplitRefused());
        assertFalse(fact(0, 120, 6, 16).isHeadsSplitRefused(), "no Mamba-2 layer, no mixer");
        assertFalse(fact(0, 120, 6, 16).isGroupsSplitRefused());
        assertFalse(fact(2, 0, 8, 8).isHeadsSplitRefused(), "heads not known: not judged");
        assertTrue(fact(2, 0, 8, 16).isGroupsSplitRefused(), "the groups are Megatron's default when not stated: known");
    }

    @Test
    void theProposedTpIsTheLargestDivisorOfTheJobsTpThatDividesHeadsAndGroups() {
        assertEquals(8, fact(2, 120, 8, 16).getTpAtMost());
        assertEquals(8, fact(2, 0, 8, 16).getTpAtMost(), "heads unknown: the groups alone");
        assertEquals(2, fact(2, 96, 6, 4).getTpAtMost(), "gcd 6 takes 3, but 3 does not divide tp 4: 2");
        assertEquals(1, fact(2, 7, 7, 4).getTpAtMost());
        assertFalse(fact(2, 7, 7, 4).isTpSuggested());
        assertTrue(fact(2, 96, 6, 4).isTpSuggested());
        assertThrows(IllegalArgumentException.class, () -> fact(2, 128, 0, 4));
    }

    /**
     * 12 groups at tp 16 take tp 12 and 6, but neither divides 16: 16·pp·cp GPUs need not split by 12·pp·cp (PAR001), and
     * 12 does not divide an 8-GPU node (PAR002). The largest divisor of 16 they take is 4.
     */
    @Test
    void theTpSuggestedDividesTheJobsTpTheNodeAndFitsTheQueryGroups() {
        assertEquals(4, fact(2, 96, 12, 16).getTpAtMost());
        assertEquals(4, fact(2, 96, 12, 16).domain(8, false).getTpAtMost());
        // 16 groups at tp 32 on 8-GPU nodes: 16 divides both, but crosses the node; 8 does not
        assertEquals(16, fact(2, 128, 16, 32).getTpAtMost());
        assertEquals(8, fact(2, 128, 16, 32).domain(8, false).getTpAtMost());
        assertTrue(fact(2, 128, 16, 32).domain(8, false).isDomainBinds());
        assertFalse(fact(2, 96, 12, 8).domain(8, false).isDomainBinds(), "tp 8 fits the node: each of its divisors does");
        // 24 groups at tp 12 take 6; 4 query groups are neither a multiple nor a divisor of 6 (PAR005): 4 is
        assertEquals(6, fact(2, 96, 24, 12).getTpAtMost());
        assertEquals(4, fact(2, 96, 24, 12).kvHeads(4).getTpAtMost());
        assertEquals(6, fact(2, 96, 24, 12).kvHeads(12).getTpAtMost(), "12 query groups are a multiple of 6");
    }

    /** With no tp above 1 the message names a group count: the fewest above the groups that tp divides and that divide the heads. */
    @Test
    void withNoTpAboveOneTheGroupCountToWriteIsNamed() {
        HybridLayersFact one = fact(2, 96, 3, 2);
        assertTrue(one.isGroupsSplitRefused());
        assertFalse(one.isTpSuggested());
        assertEquals(4, one.getGroupsFitting(), "4 groups: tp 2 divides them, and they divide the 96 heads; 6 would too, but more");
        assertEquals(2, fact(2, 128, 1, 2).getGroupsFitting());
        assertEquals(0, fact(2, 0, 1, 2).getGroupsFitting(), "heads unknown: no count named");
        assertEquals(6, fact(2, 6, 3, 2).getGroupsFitting(), "the heads themselves at most: one head a group");
        assertEquals(6, fact(2, 96, 3, 2).cp(3, null).getGroupsFitting(),
                "cp 3: 4 groups, 2 a tp rank, do not repeat over 3 ranks (MambaContextParallel); 6, 3 a tp rank, split over them");
    }

    /**
     * The cp PAR015 suggests is a divisor of the job's: then tp·pp·cp still divides the GPUs (dp grows by the same factor)
     * and seq_length stays a multiple of 2 × cp (PAR010). 6 heads a tp rank holds refuse cp 4; cp 3 takes them, but a
     * 4096-token sequence is no multiple of 6 and the GPUs laid out for cp 4 need not split by 3: cp 2.
     */
    @Test
    void theCpSuggestedDividesTheJobsCp() {
        HybridLayersFact f = fact(2, 12, 2, 2).cp(4, null);
        assertTrue(f.isHeadsCpSplitRefused());
        assertEquals(2, f.getCpAtMost());
        assertEquals(1, fact(2, 48, 4, 2).cp(3, null).getCpAtMost(), "cp 3's only divisor below it");
        assertEquals(4, fact(2, 24, 8, 2).cp(8, null).getCpAtMost(), "12 heads and 4 groups a tp rank: cp 4 of 8");
    }

    /**
     * An absurd cp (the schema bounds none) is refused and its suggestion found in bounded steps: walking every cp below it
     * one by one never ended (a check of cp 100,000,000,000 ran past a minute).
     */
    @Test
    @CpuLimit(seconds = 10)   // well under a second of CPU; the walk from cp − 1 down never ended
    void theCpSuggestedIsFoundInBoundedStepsWhateverTheCp() {
        HybridLayersFact f = fact(2, 12, 2, 2).cp(100_000_000_000L, null);
        assertTrue(f.isHeadsCpSplitRefused());
        assertEquals(2, f.getCpAtMost());
        HybridLayersFact most = gdn(16, 32, 2).cp(Long.MAX_VALUE, null);
        assertTrue(most.isGdnKeyHeadsCpSplitRefused());
        assertEquals(1, most.getCpAtMost(),
                "Long.MAX_VALUE = 7² · 73 · 127 · 337 · 92737 · 649657: 7 splits no count of 8 key and 16 value heads");
    }
}
