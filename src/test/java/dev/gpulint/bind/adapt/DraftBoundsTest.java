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
        assertEquals(List.of("5 'nodes' is -2; expected a whole number from 1 to 2147483647.",
                        "4 'layers' is 2147483648; expected a whole number from 1 to 2147483647.",
                        "2 'tensor_model_parallel_size' is 0; expected a whole number of at least 1.",
                        "3 'zero_stage' is 7; expected a whole number from 0 to 3."),
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
        assertEquals(List.of("'train_micro_batch_size_per_gpu' is 0; expected a whole number from 1 to 2147483647.",
                "'gradient_accumulation_steps' is 0; expected a whole number from 1 to 2147483647."), f.stream().map(Finding::message).toList());
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
        assertEquals(List.of("3 'model.qk_head_dim' is 0; expected a whole number from 1 to 2147483647.", "4 'model.v_head_dim' is -5; expected a whole number from 1 to 2147483647."),
                f.stream().map(x -> x.span().startLine() + " " + x.message()).toList());
        assertNull(j.qkHeadDim);
        assertNull(j.vHeadDim);
        assertEquals(0L, j.kvLoraRank.value());
        assertEquals(0L, j.qkRopeHeadDim.value());
        assertEquals(1536L, j.qLoraRank.value());
    }
    @Test
    void theRestOfTheShapeMeetsTheSchemasBoundsToo() {
        // one test per key family: the MLP, the vocabulary, the head size, routing, the MoE layers', attention's window
        JobDraft j = draft();
        j.ffn = j.key("--ffn-hidden-size", at(0, 2));
        j.vocab = j.key("model.config.vocab_size", at(-1, 3));
        j.headDim = j.key("kv_channels", at(1L << 31, 4));
        j.topK = j.key("model.model_config.moe_config.top_k", at(2000, 5));
        j.moeFfn = j.key("--moe-ffn-hidden-size", at(0, 6));
        j.sharedFfn = at(-3, 7);
        j.denseLayers = at(-1, 8);
        j.window = j.key("--window-size", at(1L << 40, 9));
        j.fullEvery = at(0, 10);
        j.kvLoraRank = at(-1, 11);
        List<Finding> f = DraftBounds.check(j);
        assertEquals(List.of("2 '--ffn-hidden-size' is 0; expected a whole number from 1 to 2147483647.",
                        "3 'model.config.vocab_size' is -1; expected a whole number from 1 to 2147483647.",
                        "4 'kv_channels' is 2147483648; expected a whole number from 1 to 2147483647.",
                        "5 'model.model_config.moe_config.top_k' is 2000; expected a whole number from 1 to 1024.",
                        "6 '--moe-ffn-hidden-size' is 0; expected a whole number from 1 to 2147483647.",
                        "7 'shared_expert_ffn_hidden_size' is -3; expected a whole number from 1 to 2147483647.",
                        "8 'dense_layers' is -1; expected a whole number from 0 to 2147483647.",
                        "9 '--window-size' is 1099511627776; expected a whole number from 1 to 2147483647.",
                        "10 'full_attention_every' is 0; expected a whole number from 1 to 2147483647.",
                        "11 'kv_lora_rank' is -1; expected a whole number from 1 to 2147483647."),
                f.stream().map(x -> x.span().startLine() + " " + x.message()).sorted(java.util.Comparator.comparingInt(
                        (String x) -> Integer.parseInt(x.substring(0, x.indexOf(' '))))).toList());
        assertNull(j.ffn);
        assertNull(j.vocab);
        assertNull(j.headDim);
        assertNull(j.topK);
        assertNull(j.moeFfn);
        assertNull(j.sharedFfn);
        assertNull(j.denseLayers);
        assertNull(j.window);
        assertNull(j.fullEvery);
        assertNull(j.kvLoraRank);
    }

    @Test
    void theShapesUsualSizesStayQuiet() {
        // Llama 3 70B's and Mixtral 8x7B's sizes (their published config.json), Gemma 2's window
        JobDraft j = draft();
        j.ffn = at(28672, 2);
        j.vocab = at(128256, 3);
        j.headDim = at(128, 4);
        j.topK = at(2, 5);
        j.moeFfn = at(14336, 6);
        j.denseLayers = at(0, 7);
        j.window = at(4096, 8);
        j.fullEvery = at(2, 9);
        assertEquals(List.of(), DraftBounds.check(j));
        assertEquals(28672L, j.ffn.value());
        assertEquals(2L, j.topK.value());
        assertEquals(0L, j.denseLayers.value());
    }

    @Test
    void aNumberBeyondALongIsReportedAsSuchWhateverTheFieldsBounds() {
        // TreeValues.whole reads 123456789012345678901 as Long.MAX_VALUE: tp has no upper bound of its own, and is still reported
        JobDraft j = draft();
        j.tp = j.key("--tensor-model-parallel-size", TreeValues.whole("123456789012345678901", new Span("f.yaml", 2, 5, 2, 26)));
        j.layers = j.key("--num-layers", TreeValues.whole("-99999999999999999999", new Span("f.yaml", 3, 5, 3, 26)));
        j.dp = j.key("--data-parallel-size", TreeValues.whole("9223372036854775806", new Span("f.yaml", 4, 5, 4, 24)));
        List<Finding> f = DraftBounds.check(j);
        assertEquals(List.of("3 '--num-layers' is at most -9223372036854775808 (-2^63); expected a whole number from 1 to 2147483647.",
                        "2 '--tensor-model-parallel-size' is at least 9223372036854775807 (2^63 - 1); expected a whole number of at least 1 (gpulint reads whole numbers from -9223372036854775807 to 9223372036854775806)."),
                f.stream().map(x -> x.span().startLine() + " " + x.message()).toList());
        assertNull(j.tp);
        assertNull(j.layers);
        assertEquals(9223372036854775806L, j.dp.value(), "the largest a long holds short of its end is a value as written");
    }

    @Test
    void aSizeOutOfBoundsIsUnknownSoItTakesNoDefault() {
        JobDraft j = draft();
        j.tp = at(0, 2);
        j.pp = at(4, 3);
        j.zeroStage = at(7, 4);
        DraftBounds.check(j);
        assertEquals(java.util.Set.of("tp"), j.unknown);
        assertTrue(j.zeroStageUnknown);
        JobDraft ok = draft();
        ok.tp = at(8, 2);
        DraftBounds.check(ok);
        assertEquals(java.util.Set.of(), ok.unknown);
    }

    @Test
    void aNumberBeyondALongIsQuotedByItsDigits() {
        JobDraft j = draft();
        // TreeValues.whole binds 123456789012345678901 as Long.MAX_VALUE; the message quotes what the file writes
        j.layers = j.key("--num-layers", new Located<>(Long.MAX_VALUE, new Span("f.yaml", 2, 17, 2, 38)));
        j.hidden = j.key("--hidden-size", new Located<>(Long.MIN_VALUE, new Span("f.yaml", 3, 18, 3, 41)));
        String text = "MODEL_ARGS:\n  --num-layers: 123456789012345678901\n  --hidden-size: \"-99999999999999999999\"\n";
        List<Finding> f = DraftBounds.check(j, java.util.Map.of("f.yaml", text));
        assertEquals(List.of("'--num-layers' is 123456789012345678901; expected a whole number from 1 to 2147483647.",
                        "'--hidden-size' is -99999999999999999999; expected a whole number from 1 to 2147483647."),
                f.stream().map(Finding::message).toList());
        // the file's text not known: the long's end, as before
        JobDraft k = draft();
        k.layers = k.key("--num-layers", new Located<>(Long.MAX_VALUE, new Span("f.yaml", 2, 17, 2, 38)));
        assertEquals("'--num-layers' is at least 9223372036854775807 (2^63 - 1); expected a whole number from 1 to 2147483647.",
                DraftBounds.check(k).get(0).message());
    }
}
