package dev.gpulint.plan.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
        List<Layout> all = new SearchSpace(16, 80, 0, 4096, 512, false).layouts();
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
        List<Layout> all = new SearchSpace(8, 32, 0, 32768, 64, true).layouts();
        assertEquals(Set.of(0, 1, 2, 3), all.stream().map(Layout::zeroStage).collect(Collectors.toSet()));
        assertTrue(all.stream().noneMatch(Layout::distributedOptimizer));
        assertEquals(Set.of(1, 2, 4, 8), all.stream().map(Layout::cp).collect(Collectors.toSet()));
    }

    @Test
    void theJobsOwnVirtualPipelineSizeAndMicroBatchAreTriedWhateverItsOtherSizes() {
        // Llama 2 70B as NeMo runs it: vpp 20 (one layer per chunk at pp 4), beyond the standard 1..8
        List<Layout> standard = new SearchSpace(64, 80, 0, 4096, 128, false).layouts();
        List<Layout> stated = new SearchSpace(64, 80, 0, 4096, 128, false, 20, 1).layouts();
        assertTrue(standard.stream().noneMatch(l -> l.virtualPp() == 20));
        assertTrue(stated.stream().anyMatch(l -> l.tp() == 4 && l.pp() == 4 && l.virtualPp() == 20 && l.dp() == 4), "tp 4, pp 4, vpp 20, dp 4");
        for (Layout l : stated) assertEquals(0, 80 / l.pp() % l.virtualPp(), l.toString());
        // the space is the job's vpp and micro batch and the GPUs, never its tp: what tp it writes cannot change it
        assertEquals(stated, new SearchSpace(64, 80, 0, 4096, 128, false, 20, 1).on(64).layouts());
        // a stated micro batch of 3 is tried where it divides the batch's share of a replica
        List<Layout> three = new SearchSpace(8, 32, 0, 4096, 96, false, 0, 3).layouts();
        assertTrue(three.stream().anyMatch(l -> l.microBatchSize() == 3 && l.dp() == 8));
        assertTrue(three.stream().allMatch(l -> 96 % ((long) l.microBatchSize() * l.dp()) == 0));
    }

    @Test
    void divisorsAndBounds() {
        assertEquals(List.of(1L, 2L, 3L, 4L, 6L, 12L), SearchSpace.divisors(12));
        assertEquals(11, SearchSpace.divisors(1024).size());
        assertThrows(IllegalArgumentException.class, () -> new SearchSpace(0, 1, 0, 0, 1, false));
        assertThrows(IllegalArgumentException.class, () -> new SearchSpace(SearchSpace.MAX_GPUS + 1, 1, 0, 0, 1, false));
        // 720,720 GPUs (240 divisors), a long sequence, many experts, a batch every micro batch divides: too many layouts
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> new SearchSpace(720_720, 720, 720_720, 65_536, 720_720L * 8, false).layouts());
        assertTrue(e.getMessage().startsWith("720720 GPUs give more than 250000 layouts"), e.getMessage());
    }

    @Test
    void deepSpeedsSplitPricesUnevenPipelinesAndTriesNoPpAboveTheLayers() {
        // 6 layers on 16 GPUs: Megatron's space tries every pp dividing the GPUs (PAR004 rejects 4, 8, 16), evenly split
        SearchSpace megatron = new SearchSpace(16, 6, 0, 2048, 64, false);
        assertEquals(Set.of(1, 2, 4, 8, 16), megatron.layouts().stream().map(Layout::pp).collect(Collectors.toSet()));
        assertTrue(megatron.layouts().stream().allMatch(l -> l.split().stages().isEmpty()));
        // gpt-neox's: no pp above the 6 blocks (a stage would hold none), and pp 4 split as DeepSpeed splits it, 2 2 1 1
        SearchSpace neox = new SearchSpace(16, 6, 0, 2048, 64, false, 0, 0, true);
        assertEquals(Set.of(1, 2, 4), neox.layouts().stream().map(Layout::pp).collect(Collectors.toSet()));
        for (Layout l : neox.layouts()) {
            assertEquals(l.pp() == 4 ? List.of(2L, 2L, 1L, 1L) : List.of(), l.split().stages(), l.toString());
        }
        assertEquals(megatron.layouts().stream().filter(l -> l.pp() <= 4).count(), neox.layouts().size(), "the same layouts otherwise");
    }
}
