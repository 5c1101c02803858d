package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.core.Finding;
import dev.gpulint.core.Span;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A draft's numbers meet the native schema's bounds: out of bounds is SYN002 at the value, and absent. */
class DraftBoundsTest {

    private static Located<Long> at(long v, int line) {
        return new Located<>(v, new Span("f.yaml", line, 5, line, 6));
    }

    private static JobDraft draft() {
        JobDraft j = new JobDraft("NeMo", "f.yaml", Span.at("f.yaml", 1, 1));
        j.name = new Located<>("f.yaml", Span.at("f.yaml", 1, 1));
        return j;
    }

    @Test
    void inBoundsValuesStayAndNothingIsReported() {
        JobDraft j = draft();
        j.tp = at(8, 2);
        j.zeroStage = at(0, 3);
        j.layers = at(Integer.MAX_VALUE, 4);
        assertEquals(List.of(), DraftBounds.check(j));
        assertNotNull(j.tp);
        assertNotNull(j.zeroStage);
        assertNotNull(j.layers);
    }

    @Test
    void outOfBoundsValuesAreReportedWithTheFormatsKeyAndCleared() {
        JobDraft j = draft();
        j.tp = j.key("tensor_model_parallel_size", at(0, 2));
        j.zeroStage = at(7, 3);
        j.layers = at(1L << 31, 4);
        j.nodes = at(-2, 5);
        List<Finding> f = DraftBounds.check(j);
        assertEquals(List.of("5 'nodes' is -2; it must be at least 1.",
                        "4 'layers' is 2147483648; it must be at most 2147483647.",
                        "2 'tensor_model_parallel_size' is 0; it must be at least 1.",
                        "3 'zero_stage' is 7; it must be at most 3."),
                f.stream().map(x -> x.span().startLine() + " " + x.message()).toList(), "in the schema's order");
        assertTrue(f.stream().allMatch(x -> x.ruleId().equals("SYN002")));
        assertNull(j.tp);
        assertNull(j.zeroStage);
        assertNull(j.layers);
        assertNull(j.nodes);
    }

    @Test
    void aValueBoundTwiceIsReportedOnceAndTheDeepSpeedTripleIsJudgedToo() {
        JobDraft j = draft();
        Located<Long> micro = j.key("train_micro_batch_size_per_gpu", at(0, 2));
        Located<Long> gas = j.key("gradient_accumulation_steps", at(0, 3));
        Located<Long> tbs = at(64, 4);
        j.micro = micro;
        j.global = tbs;
        j.deepspeed = new Specs.DeepSpeedBatch(tbs, micro, gas);
        List<Finding> f = DraftBounds.check(j);
        assertEquals(List.of("'train_micro_batch_size_per_gpu' is 0; it must be at least 1.",
                "'gradient_accumulation_steps' is 0; it must be at least 1."), f.stream().map(Finding::message).toList());
        assertNull(j.micro);
        assertEquals(tbs, j.deepspeed.trainBatchSize());
        assertNull(j.deepspeed.microBatchPerGpu());
        assertNull(j.deepspeed.gradientAccumulation());
    }

    @Test
    void multiLatentAttentionSizesOutOfBoundsAreReportedNotTakenForUnwritten() {
        // a zero or negative head size used to be priced as "not given" with Megatron-Core's default
        JobDraft j = draft();
        j.kvLoraRank = at(0, 2);        // multi_latent_attention: true without a rank: the default, not an error
        j.qkHeadDim = j.key("model.qk_head_dim", at(0, 3));
        j.vHeadDim = j.key("model.v_head_dim", at(-5, 4));
        j.qkRopeHeadDim = at(0, 5);     // no rotary part is allowed
        j.qLoraRank = at(1536, 6);
        List<Finding> f = DraftBounds.check(j);
        assertEquals(List.of("3 'model.qk_head_dim' is 0; it must be at least 1.", "4 'model.v_head_dim' is -5; it must be at least 1."),
                f.stream().map(x -> x.span().startLine() + " " + x.message()).toList());
        assertNull(j.qkHeadDim);
        assertNull(j.vHeadDim);
        assertEquals(0L, j.kvLoraRank.value());
        assertEquals(0L, j.qkRopeHeadDim.value());
        assertEquals(1536L, j.qLoraRank.value());
    }
}
