package dev.gpulint.bind.adapt;

import static dev.gpulint.testing.Foreign.jobs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.spec.Specs;
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
        Specs.Job j = jobs("llama3_8b.toml", """
                [model]
                name = "llama3"
                flavor = "8B"
                norm_type = "rmsnorm"
                tokenizer_path = "./torchtitan/datasets/tokenizer/original/tokenizer.model"

                [training]
                batch_size = 1
                seq_len = 8192
                data_parallel_replicate_degree = 1
                data_parallel_shard_degree = 4
                tensor_parallel_degree = 2
                mixed_precision_param = "bfloat16"

                [experimental]
                pipeline_parallel_degree = 2
                context_parallel_degree = 1
                """).get(0);
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
}
