package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.spec.Specs;
import dev.gpulint.testing.Foreign;
import dev.gpulint.testing.Recipes;
import org.junit.jupiter.api.Test;

/**
 * A torchtitan TOML that writes no micro-batch runs torchtitan's default, not the estimate's 1: {@code local_batch_size = 8}
 * (Training in torchtitan/config/job_config.py, pytorch/torchtitan at 6404b932 and 000204a4; the first releases'
 * {@code --training.batch_size}, default 8, torchtitan/config_manager.py at 0011fb90), and since torchtitan's PR #4121
 * {@code num_tokens_per_microbatch_per_dp_rank = 16384} tokens (torchtitan/config/training.py at f204eb63) ÷ the sequence.
 * Our own TOMLs in the shape of torchtitan's train_configs (llama3_8b.toml's tables).
 */
class TorchtitanBatchDefaultTest {

    private static Specs.Job bind(Recipes.Torchtitan t) {
        return Foreign.bind("llama3_8b.toml", t.toml());
    }

    private static long micro(Specs.Job j) {
        return j.batch().microBatchSize().value();
    }

    @Test
    void anUnwrittenLocalBatchIsTorchtitansEight() {
        Specs.Job j = bind(Recipes.torchtitan("8B").training("seq_len = 8192", "steps = 1000")
                .parallelism("data_parallel_shard_degree = -1", "tensor_parallel_degree = 1"));
        assertEquals(8, micro(j));
        assertEquals("local_batch_size (not written: torchtitan's default 8)", j.origin().keys().get(Specs.Origin.MICRO_BATCH));
        assertEquals(5, j.batch().microBatchSize().span().startLine(), "at the [training] table that leaves it out");
        assertTrue(j.origin().unpriced().contains("[training] local_batch_size not written: 8 sequences per micro-batch, torchtitan's"
                + " default (Training.local_batch_size in torchtitan/config/job_config.py; batch_size before it, also 8)"),
                j.origin().unpriced().toString());
        // no [training] table at all: the same default, placed at the file's first table
        Specs.Job none = bind(Recipes.torchtitan("8B").parallelism("data_parallel_shard_degree = -1"));
        assertEquals(8, micro(none));
        assertEquals(1, none.batch().microBatchSize().span().startLine());
    }

    @Test
    void aWrittenBatchIsKeptInEitherName() {
        assertEquals(2, micro(bind(Recipes.torchtitan("8B").training("local_batch_size = 2", "seq_len = 8192")
                .parallelism("data_parallel_shard_degree = -1"))));
        Specs.Job older = bind(Recipes.torchtitan("8B").training("batch_size = 3", "seq_len = 8192")
                .parallelism("data_parallel_shard_degree = -1"));
        assertEquals(3, micro(older));
        assertTrue(older.origin().unpriced().stream().noneMatch(u -> u.contains("not written")), older.origin().unpriced().toString());
    }

    /** The token names (PR #4121): 16,384 tokens ÷ max_context_length sequences; a sequence that does not divide it is left out. */
    @Test
    void theTokenNamesDefaultToSixteenThousandTokens() {
        Specs.Job j = bind(Recipes.torchtitan("8B").training("max_context_length = 4096")
                .parallelism("data_parallel_shard_degree = -1"));
        assertEquals(4, micro(j), "16,384 ÷ 4,096");
        assertTrue(j.origin().unpriced().contains("[training] num_tokens_per_microbatch_per_dp_rank not written: torchtitan's default"
                + " 16384 tokens (TrainingConfig in torchtitan/config/training.py) ÷ max_context_length 4096 = 4 sequences per micro-batch"),
                j.origin().unpriced().toString());
        Specs.Job written = bind(Recipes.torchtitan("8B").training("max_context_length = 4096", "num_tokens_per_microbatch_per_dp_rank = 8192")
                .parallelism("data_parallel_shard_degree = -1"));
        assertEquals(2, micro(written));
        Specs.Job uneven = bind(Recipes.torchtitan("8B").training("max_context_length = 3000")
                .parallelism("data_parallel_shard_degree = -1"));
        assertNull(uneven.batch() == null ? null : uneven.batch().microBatchSize(), "16,384 is no whole number of 3,000-token sequences");
    }
}
