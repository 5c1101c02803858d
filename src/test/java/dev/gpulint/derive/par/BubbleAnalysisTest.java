package dev.gpulint.derive.par;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpulint.derive.Fixture;
import dev.gpulint.facts.BubbleFact;
import java.util.List;
import org.junit.jupiter.api.Test;

/** PAR006's analysis: micro-batches per step, stated or derived, and the bubble they leave. */
class BubbleAnalysisTest {

    private static List<BubbleFact> facts(String body) {
        return Fixture.of("kind: training_job\nname: j\nnodes: 4\ngpus_per_node: 8\n" + body)
                .jobFacts(BubbleFact.class, BubbleAnalysis::job);
    }

    @Test
    void statedMicroBatchesAreUsedAsTheyAre() {
        List<BubbleFact> f = facts("parallelism: { tp: 2, pp: 4 }\nbatch: { micro_batches: 8, micro_batch_size: 2, global_batch_size: 64 }\n");
        assertEquals(1, f.size());
        BubbleFact b = f.get(0);
        assertEquals("j", b.getJobName());
        assertEquals("t.yaml", b.getFile());
        assertEquals(4, b.getPp());
        assertEquals(1, b.getVirtualPp());
        assertEquals(8, b.getMicroBatches());
        assertEquals(0, b.getGlobalBatchSize(), "not derived: no global batch in the fact");
        assertEquals(0, b.getMicroBatchSize());
        assertEquals(0, b.getDp());
        assertEquals(3.0 / 11, b.getBubble(), 1e-12);
        assertEquals("t.yaml:5:27", b.getPpSpan().toString());
    }

    @Test
    void microBatchesAreDerivedFromTheGlobalBatch() {
        // 32 GPUs / (tp 2 · pp 4) = dp 4; 64 / (2 · 4) = 8 micro-batches; 2 virtual stages
        BubbleFact b = facts("parallelism: { tp: 2, pp: 4, virtual_pp: 2 }\nbatch: { micro_batch_size: 2, global_batch_size: 64 }\n").get(0);
        assertEquals(8, b.getMicroBatches());
        assertEquals(2, b.getVirtualPp());
        assertEquals(64, b.getGlobalBatchSize());
        assertEquals(2, b.getMicroBatchSize());
        assertEquals(4, b.getDp());
        assertEquals(3.0 / 19, b.getBubble(), 1e-12);
    }

    @Test
    void aGlobalBatchThatDoesNotDivideGivesNoFact() {
        assertEquals(List.of(), facts("parallelism: { tp: 2, pp: 4 }\nbatch: { micro_batch_size: 2, global_batch_size: 60 }\n"));
        assertEquals(List.of(), facts("parallelism: { tp: 2, pp: 4 }\nbatch: { micro_batch_size: 2 }\n"), "no global batch");
        assertEquals(List.of(), facts("parallelism: { tp: 2, pp: 4 }\n"), "no batch at all");
        assertEquals(List.of(), facts("parallelism: { tp: 3, pp: 4 }\nbatch: { micro_batch_size: 1, global_batch_size: 64 }\n"),
                "dp unknown: 32 GPUs do not divide by 12");
    }

    @Test
    void withoutPipelineParallelismThereIsNoBubble() {
        assertEquals(List.of(), facts("parallelism: { tp: 8, pp: 1 }\nbatch: { micro_batches: 8 }\n"));
        assertEquals(List.of(), facts("batch: { micro_batches: 8 }\n"));
    }

    @Test
    void hugeSizesDoNotDivideByZero() {
        // micro 4 · dp 2^62 wraps to 0 in plain long arithmetic; saturated it is Long.MAX_VALUE, which 64 does not fill
        assertEquals(List.of(), facts("parallelism: { pp: 2, dp: 4611686018427387904 }\nbatch: { micro_batch_size: 4, global_batch_size: 64 }\n"));
        // the largest pp gpulint reads (2^63 - 1 itself stands for the numbers beyond a long: SYN002, BinderTest)
        BubbleFact b = facts("parallelism: { pp: 9223372036854775806 }\nbatch: { micro_batches: 2147483647 }\n").get(0);
        assertEquals(Long.MAX_VALUE - 1, b.getPp());
        assertEquals((Long.MAX_VALUE - 2.0) / (2147483647.0 + Long.MAX_VALUE - 2), b.getBubble(), 1e-12);
        assertEquals(0.5, facts("parallelism: { pp: 2 }\nbatch: { micro_batches: 1 }\n").get(0).getBubble(), 1e-12);
    }
}
