package dev.gpulint.plan.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.derive.estimate.Layout;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class SearchSpaceTest {

    @Test
    void everyLayoutFillsTheGpusAndSplitsWhatItMustSplit() {
        List<Layout> all = SearchSpace.whole(16, 80, 0, 4096, 512, false, 0, 0, false).layouts();
        for (Layout l : all) {
            assertEquals(16, l.gpus());
            assertEquals(1, l.cp(), "a 4,096-token sequence adds no cp");
            assertEquals(1, l.ep());
            assertEquals(0, 80 / l.pp() % l.virtualPp(), l.toString());
            assertEquals(0, 512 % ((long) l.microBatchSize() * l.dp()), l.toString());
            assertTrue(l.tp() > 1 || !l.sequenceParallel());
            assertEquals(0, l.zeroStage());
        }
        // tp·pp over 16: (1,1)…(16,1): 15 pairs; vpp for pp 2 (40 layers a stage: 1,2,4,5,8), 4 (20: 1,2,4,5), 8 (10: 1,2,5), 16 (5: 1,5)
        Set<List<Integer>> sizes = all.stream().map(l -> List.of(l.tp(), l.pp(), l.virtualPp())).collect(Collectors.toSet());
        assertTrue(sizes.contains(List.of(8, 2, 5)) && sizes.contains(List.of(1, 16, 5)) && !sizes.contains(List.of(1, 16, 2)), sizes.toString());
        // each size: micro batches × 2 (distributed optimizer or not) × 3 recompute × 2 sp (tp > 1)
        long tp8pp2v1 = all.stream().filter(l -> l.tp() == 8 && l.pp() == 2 && l.virtualPp() == 1).count();
        assertEquals(4 * 2 * 3 * 2, tp8pp2v1);
    }

    @Test
    void aZeroStageJobTriesZeroZeroToThreeAndALongSequenceTriesCp() {
        List<Layout> all = SearchSpace.whole(8, 32, 0, 32768, 64, true, 0, 0, false).layouts();
        assertEquals(Set.of(0, 1, 2, 3), all.stream().map(Layout::zeroStage).collect(Collectors.toSet()));
        assertTrue(all.stream().noneMatch(Layout::distributedOptimizer));
        assertEquals(Set.of(1, 2, 4, 8), all.stream().map(Layout::cp).collect(Collectors.toSet()));
    }

    @Test
    void theJobsOwnVirtualPipelineSizeAndMicroBatchAreTriedWhateverItsOtherSizes() {
        // Llama 2 70B as NeMo runs it: vpp 20 (one layer per chunk at pp 4), beyond the standard 1..8
        List<Layout> standard = SearchSpace.whole(64, 80, 0, 4096, 128, false, 0, 0, false).layouts();
        List<Layout> stated = SearchSpace.whole(64, 80, 0, 4096, 128, false, 20, 1, false).layouts();
        assertTrue(standard.stream().noneMatch(l -> l.virtualPp() == 20));
        assertTrue(stated.stream().anyMatch(l -> l.tp() == 4 && l.pp() == 4 && l.virtualPp() == 20 && l.dp() == 4), "tp 4, pp 4, vpp 20, dp 4");
        for (Layout l : stated) assertEquals(0, 80 / l.pp() % l.virtualPp(), l.toString());
        // the space is the job's vpp and micro batch and the GPUs, never its tp: what tp it writes cannot change it
        assertEquals(stated, SearchSpace.whole(64, 80, 0, 4096, 128, false, 20, 1, false).on(64).layouts());
        // a stated micro batch of 3 is tried where it divides the batch's share of a replica
        List<Layout> three = SearchSpace.whole(8, 32, 0, 4096, 96, false, 0, 3, false).layouts();
        assertTrue(three.stream().anyMatch(l -> l.microBatchSize() == 3 && l.dp() == 8));
        assertTrue(three.stream().allMatch(l -> 96 % ((long) l.microBatchSize() * l.dp()) == 0));
    }

    @Test
    void divisorsAndBounds() {
        assertEquals(List.of(1L, 2L, 3L, 4L, 6L, 12L), SearchSpace.divisors(12));
        assertEquals(11, SearchSpace.divisors(1024).size());
        assertThrows(IllegalArgumentException.class, () -> SearchSpace.whole(0, 1, 0, 0, 1, false, 0, 0, false));
        assertThrows(IllegalArgumentException.class, () -> SearchSpace.whole(SearchSpace.MAX_GPUS + 1, 1, 0, 0, 1, false, 0, 0, false));
        // 720,720 GPUs (240 divisors), a long sequence, many experts, a batch every micro batch divides: too many layouts
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> SearchSpace.whole(720_720, 720, 720_720, 65_536, 720_720L * 8, false, 0, 0, false).layouts());
        assertTrue(e.getMessage().startsWith("720720 GPUs give more than 250000 layouts"), e.getMessage());
    }

    @Test
    void deepSpeedsSplitPricesUnevenPipelinesAndTriesNoPpAboveTheLayers() {
        // 6 layers on 16 GPUs: Megatron's space tries every pp dividing the GPUs (PAR004 rejects 4, 8, 16), evenly split
        SearchSpace megatron = SearchSpace.whole(16, 6, 0, 2048, 64, false, 0, 0, false);
        assertEquals(Set.of(1, 2, 4, 8, 16), megatron.layouts().stream().map(Layout::pp).collect(Collectors.toSet()));
        assertTrue(megatron.layouts().stream().allMatch(l -> l.split().stages().isEmpty()));
        // gpt-neox's: no pp above the 6 blocks (a stage would hold none), and pp 4 split as DeepSpeed splits it, 2 2 1 1
        SearchSpace neox = SearchSpace.whole(16, 6, 0, 2048, 64, false, 0, 0, true);
        assertEquals(Set.of(1, 2, 4), neox.layouts().stream().map(Layout::pp).collect(Collectors.toSet()));
        for (Layout l : neox.layouts()) {
            assertEquals(l.pp() == 4 ? List.of(2L, 2L, 1L, 1L) : List.of(), l.split().stages(), l.toString());
        }
        assertEquals(megatron.layouts().stream().filter(l -> l.pp() <= 4).count(), neox.layouts().size(), "the same layouts otherwise");
    }

    /** Grok-1 314B's shape as DGX Cloud's recipe lays it out: 64 layers, 8 experts, sequence 8,192, batch 1,024, ZeRO-1. */
    static SearchSpace grok(long gpus, long experts) {
        return SearchSpace.whole(gpus, 64, experts, 8192, 1024, true, 8, 1, false);
    }

    /** tp 4, pp 8, vpp 8, cp 2, ep 8, micro batch 1, ZeRO-1 with the distributed optimizer, on {@code gpus}. */
    static Layout grokWritten(int gpus) {
        return new Layout(4, 8, gpus / 64, 2, 8, 8, 1, 1024, 1, true, Layout.Recompute.NONE, true,
                dev.gpulint.derive.estimate.PipelineSplit.EVEN);
    }

    @Test
    void theSpaceIsCountedAsItIsEnumeratedWithoutBuildingIt() {
        for (SearchSpace s : List.of(SearchSpace.whole(16, 80, 0, 4096, 512, false, 0, 0, false),
                SearchSpace.whole(8, 32, 0, 32768, 64, true, 0, 0, false), SearchSpace.whole(64, 80, 0, 4096, 128, false, 20, 1, false),
                SearchSpace.whole(16, 6, 0, 2048, 64, false, 0, 0, true), SearchSpace.whole(64, 56, 8, 8192, 256, true, 7, 1, false),
                SearchSpace.whole(48, 96, 64, 16384, 96, false, 0, 3, false))) {
            assertEquals(s.layouts().size(), s.size(), s.toString());
            SearchSpace kept = new SearchSpace(s.gpus(), s.layers(), s.experts(), s.seqLength(), s.globalBatch(), s.zeroStages(),
                    s.statedVpp(), s.statedMicro(), s.deepSpeedSplit(), Set.of(SearchSpace.Kept.values()),
                    new Layout(2, 2, (int) s.gpus() / 4, 1, 1, 1, 1, s.globalBatch(), 0, false, Layout.Recompute.NONE, true,
                            dev.gpulint.derive.estimate.PipelineSplit.EVEN));
            assertEquals(kept.layouts().size(), kept.size(), kept.toString());
        }
    }

    @Test
    void aSpaceWithinTheLimitIsSearchedWhole() {
        // Grok-1 on 1,024 GPUs: 241,536 layouts, just within 250,000
        SearchSpace s = grok(1024, 8);
        assertEquals(241_536, s.size());
        assertSame(s, s.narrowed(grokWritten(1024)));
        assertEquals(List.of(), s.narrowed(grokWritten(1024)).keptInOrder());
    }

    @Test
    void pastTheLimitTheSearchKeepsTheMicroBatchAsWrittenFirstAndStillSearchesTheSplit() {
        SearchSpace whole = grok(2048, 8);
        assertEquals(305_904, whole.size(), "2,048 GPUs, 8 experts, ZeRO 0-3: past 250,000");
        SearchSpace s = whole.narrowed(grokWritten(2048));
        assertEquals(List.of(SearchSpace.Kept.MICRO_BATCH), s.keptInOrder());
        List<Layout> all = s.layouts();
        assertEquals(77_784, all.size());
        assertEquals(all.size(), s.size());
        assertTrue(all.stream().allMatch(l -> l.microBatchSize() == 1));
        // the split is still searched whole: every tp, cp, pp, ep and vpp of the whole space, the written layout among them
        assertEquals(Set.of(1, 2, 4, 8), all.stream().map(Layout::ep).collect(Collectors.toSet()));
        assertEquals(Set.of(1, 2, 4, 8), all.stream().map(Layout::virtualPp).collect(Collectors.toSet()));
        assertEquals(Set.of(0, 1, 2, 3), all.stream().map(Layout::zeroStage).collect(Collectors.toSet()));
        assertEquals(12, all.stream().map(Layout::tp).distinct().count(), "tp 1 to 2,048");
        assertTrue(all.stream().anyMatch(l -> l.tp() == 4 && l.pp() == 8 && l.cp() == 2 && l.ep() == 8 && l.virtualPp() == 8 && l.dp() == 32
                && l.zeroStage() == 1));
    }

    @Test
    void aLargerMoeKeepsCpNextThenTheOptimizerVppAndEp() {
        // 3,072 GPUs, 256 experts: 1,048,020 layouts; the micro batch kept leaves 336,840; cp too, 39,480
        SearchSpace whole = grok(3072, 256);
        assertEquals(1_048_020, whole.size());
        SearchSpace s = whole.narrowed(grokWritten(3072));
        assertEquals(List.of(SearchSpace.Kept.MICRO_BATCH, SearchSpace.Kept.CP), s.keptInOrder());
        assertEquals(39_480, s.size());
        List<Layout> layouts = s.layouts();
        assertEquals(39_480, layouts.size());
        // cp 2 as written wherever gpus ÷ tp is even (tp 1,024 and 3,072 leave 3 and 1: cp 1); every vpp and ep still searched
        for (Layout l : layouts) assertEquals(3072 / l.tp() % 2 == 0 ? 2 : 1, l.cp(), l.toString());
        assertEquals(Set.of(1, 2, 4, 8), layouts.stream().map(Layout::virtualPp).collect(Collectors.toSet()));
        assertTrue(layouts.stream().anyMatch(l -> l.ep() == 256));
        // a lower limit keeps the optimizer next, then vpp (the written 8, or the largest a stage's layers allow below it), then ep
        assertEquals(List.of(SearchSpace.Kept.MICRO_BATCH, SearchSpace.Kept.CP, SearchSpace.Kept.OPTIMIZER),
                whole.narrowed(grokWritten(3072), 39_000).keptInOrder());
        assertEquals(List.of(SearchSpace.Kept.MICRO_BATCH, SearchSpace.Kept.CP, SearchSpace.Kept.OPTIMIZER, SearchSpace.Kept.VIRTUAL_PP),
                whole.narrowed(grokWritten(3072), 9_000).keptInOrder());
        SearchSpace all = whole.narrowed(grokWritten(3072), 1);
        assertEquals(List.of(SearchSpace.Kept.values()), all.keptInOrder());
        for (Layout l : all.layouts()) {
            assertTrue(l.zeroStage() == 1 && !l.distributedOptimizer() && l.microBatchSize() == 1, l.toString());
            long perStage = 64 % l.pp() == 0 ? 64 / l.pp() : 1;
            long vpp = l.pp() == 1 ? 1 : perStage % 8 == 0 ? 8 : perStage % 4 == 0 ? 4 : perStage % 2 == 0 ? 2 : 1;
            assertEquals(vpp, l.virtualPp(), l.toString());
            // ep 8 where cp × dp allows it, else the largest below it that divides both cp × dp and the 256 experts
            long cpDp = (long) l.cp() * l.dp();
            assertEquals(cpDp % 8 == 0 ? 8 : cpDp % 4 == 0 ? 4 : cpDp % 2 == 0 ? 2 : 1, l.ep(), l.toString());
        }
    }

    @Test
    void aDimensionThatWouldNotShrinkTheSpaceIsNotKept() {
        // a dense job with a short sequence: cp and ep have one value already; the micro batch 4 and vpp 4 are kept as written
        SearchSpace whole = SearchSpace.whole(16, 80, 0, 4096, 512, false, 0, 0, false);
        Layout written = new Layout(2, 4, 2, 1, 1, 4, 4, 512, 0, true, Layout.Recompute.NONE, true,
                dev.gpulint.derive.estimate.PipelineSplit.EVEN);
        SearchSpace s = whole.narrowed(written, 1);
        assertEquals(List.of(SearchSpace.Kept.MICRO_BATCH, SearchSpace.Kept.OPTIMIZER, SearchSpace.Kept.VIRTUAL_PP), s.keptInOrder());
        for (Layout l : s.layouts()) {
            assertTrue(l.distributedOptimizer(), l.toString());
            // 512 ÷ dp sequences a replica: micro 4 where it divides; vpp 4, or 2 at pp 8 (10 layers a stage), 1 at pp 16
            assertEquals(Math.min(4, 512 / l.dp()), l.microBatchSize(), l.toString());
            assertEquals(l.pp() == 1 || l.pp() == 16 ? 1 : l.pp() == 8 ? 2 : 4, l.virtualPp(), l.toString());
        }
        assertEquals(List.of(4L), SearchSpace.keep(List.of(1L, 2L, 4L), 8));
        assertEquals(List.of(2L), SearchSpace.keep(List.of(2L, 4L), 1), "none below: the least allowed");
    }

    @Test
    void everySpaceFitsOnceNarrowed() {
        // 14,414,400 GPUs (504 divisors), ZeRO 0-3: 647,136 layouts; the sharding kept leaves one per (tp, pp) pair, recompute
        // and sp: 161,784, the most any GPU count up to MAX_GPUS gives with every dimension kept
        SearchSpace whole = SearchSpace.whole(14_414_400, 1, 0, 2048, 1, true, 0, 0, false);
        assertEquals(647_136, whole.size());
        assertThrows(IllegalStateException.class, whole::layouts);
        Layout written = new Layout(8, 1, 1_801_800, 1, 1, 1, 1, 1, 1, false, Layout.Recompute.NONE, true,
                dev.gpulint.derive.estimate.PipelineSplit.EVEN);
        SearchSpace s = whole.narrowed(written);
        assertEquals(List.of(SearchSpace.Kept.OPTIMIZER), s.keptInOrder(), "the micro batch and vpp have one value already");
        assertEquals(161_784, s.size());
        assertEquals(161_784, s.layouts().size());
    }
}
