package dev.gpulint.bind.adapt;

import static dev.gpulint.testing.Foreign.jobs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.spec.Specs;
import dev.gpulint.testing.Recipes;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * torchtitan's TOML layout before late 2024 (our own fixtures in the shape of its train_configs of then): the
 * data-parallel and tensor degrees under [training] (the first releases' data_parallel_degree), the pipeline and
 * context degrees under [experimental].
 */
class TorchtitanLayoutTest {

    @Test
    void theDegreesUnderTrainingAndExperimentalAreRead() {
        Specs.Job j = jobs("llama3_8b.toml", Recipes.torchtitan("8B")
                .model("norm_type = \"rmsnorm\"", "tokenizer_path = \"./torchtitan/datasets/tokenizer/original/tokenizer.model\"")
                .training("batch_size = 1", "seq_len = 8192", "data_parallel_replicate_degree = 1", "data_parallel_shard_degree = 4",
                        "tensor_parallel_degree = 2", "mixed_precision_param = \"bfloat16\"")
                .table("[experimental]\npipeline_parallel_degree = 2\ncontext_parallel_degree = 1").toml()).get(0);
        assertEquals("torchtitan", j.origin().format());
        assertEquals(2L, j.parallelism().tp().value());
        assertEquals(2L, j.parallelism().pp().value());
        assertEquals(1L, j.parallelism().cp().value());
        assertEquals(4L, j.parallelism().dp().value());
        assertEquals(16, j.parallelism().pp().span().startLine());
        assertEquals(1L, j.batch().microBatchSize().value());
        assertEquals(8192L, j.model().seqLength().value());
        assertEquals(32L, j.model().layers().value(), "the flavor's shape from the model catalog");
        assertTrue(j.origin().stated().stream().anyMatch(s -> s.quantity().equals("world") && s.value().equals("16")
                && s.where().startsWith("[training] and [experimental] ")), j.origin().stated().toString());
    }

    @Test
    void theFirstReleasesDataParallelDegreeIsTheShardDegree() {
        Specs.Job j = jobs("debug.toml", """
                [training]
                batch_size = 8
                seq_len = 2048
                data_parallel_degree = -1
                tensor_parallel_degree = 1
                """).get(0);
        assertNull(j.parallelism().dp(), "-1: the rest of the GPUs, as data_parallel_shard_degree = -1");
        assertEquals(1L, j.parallelism().tp().value());
        assertEquals(3L, j.optimizer().zeroStage().value(), "FSDP over the shard dimension");
    }

    @Test
    void otherTomlWithATrainingTableIsNotTorchtitan() {
        assertEquals(List.of(), jobs("pyproject.toml", """
                [tool.poetry]
                name = "trainer"

                [training]
                epochs = 3
                learning_rate = 0.001
                """));
    }

    /**
     * torchtitan since its PR #4121 counts the batch in tokens: max_context_length is the sequence,
     * num_tokens_per_microbatch_per_dp_rank the micro-batch's tokens (local_batch_size × seq_len), num_tokens_per_train_step
     * the step's. Before, they were not read: the plan priced a 2,048-token sequence of micro batch 1.
     */
    @Test
    void theTokenCountsSincePr4121AreTheSequenceAndTheBatch() {
        Specs.Job j = jobs("llama3_70b.toml", Recipes.torchtitan("70B").training("num_tokens_per_microbatch_per_dp_rank = 49152",
                "max_context_length = 8192", "num_tokens_per_train_step = 786432")
                .parallelism("data_parallel_shard_degree = 8", "tensor_parallel_degree = 2").toml()).get(0);
        assertEquals(8192L, j.model().seqLength().value());
        assertEquals(7, j.model().seqLength().span().startLine());
        assertEquals(6L, j.batch().microBatchSize().value());
        assertEquals(6, j.batch().microBatchSize().span().startLine());
        assertEquals(96L, j.batch().globalBatchSize().value());
        assertEquals("num_tokens_per_microbatch_per_dp_rank ÷ max_context_length", j.origin().key(Specs.Origin.MICRO_BATCH));
        // a token count the sequence does not divide, and the step's default -1, are not read as sequences
        Specs.Job odd = jobs("odd.toml", Recipes.torchtitan("8B").training("num_tokens_per_microbatch_per_dp_rank = 5000",
                "max_context_length = 4096", "num_tokens_per_train_step = -1").parallelism("data_parallel_shard_degree = 8").toml()).get(0);
        assertEquals(4096L, odd.model().seqLength().value());
        assertNull(odd.batch() == null ? null : odd.batch().microBatchSize());
        assertNull(odd.batch() == null ? null : odd.batch().globalBatchSize());
    }
}
