package dev.gpulint.bind.adapt;

import static dev.gpulint.testing.Foreign.jobs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.spec.Specs;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * torchtune recipe configurations (our own fixtures in the shapes of torchtune's recipes/configs: a multi-node full
 * fine-tune with tensor parallelism, a single-device LoRA config) bound as jobs, their model named by the builder.
 */
class TorchtuneAdapterTest {

    private static String shapeFrom(Specs.Job j) {
        for (Specs.Stated s : j.origin().stated()) if (s.quantity().equals(ModelNames.SHAPE)) return s.value() + " | " + s.where();
        return null;
    }

    static final String FULL_TP = """
            output_dir: /tmp/torchtune/llama3_1_70B/full
            tokenizer:
              _component_: torchtune.models.llama3.llama3_tokenizer
              path: /tmp/Meta-Llama-3.1-70B-Instruct/original/tokenizer.model
              max_seq_len: 2048
            model:
              _component_: torchtune.models.llama3_1.llama3_1_70b
            checkpointer:
              _component_: torchtune.training.FullModelHFCheckpointer
              checkpoint_dir: /tmp/Meta-Llama-3.1-70B-Instruct/
            tensor_parallel_dim: 4
            tensor_parallel_plan:
              _component_: torchtune.models.llama3.base_llama_tp_plan
            data_parallel_shard_dim: -1
            data_parallel_replicate_dim: 1
            batch_size: 2
            gradient_accumulation_steps: 1
            enable_activation_checkpointing: True
            fsdp_cpu_offload: False
            dtype: bf16
            """;

    @Test
    void aMultiNodeFullFinetuneBindsTpBatchSequencePrecisionRecomputeAndTheBuildersShape() {
        Specs.Job j = jobs("70B_full_tp.yaml", FULL_TP).get(0);
        assertEquals("torchtune", j.origin().format());
        assertEquals(4L, j.parallelism().tp().value());
        assertNull(j.parallelism().dp(), "data_parallel_shard_dim -1: the rest of the GPUs, unknown here");
        assertEquals(true, j.parallelism().sequenceParallel().value(), "base_llama_tp_plan shards the norms along the sequence");
        assertEquals(2L, j.batch().microBatchSize().value());
        assertEquals(2048L, j.model().seqLength().value());
        assertEquals("bf16", j.model().dtype().value());
        assertEquals("full", j.recompute().granularity().value());
        assertEquals(3L, j.optimizer().zeroStage().value(), "fully_shard over the shard dimension");
        assertEquals(80L, j.model().layers().value());
        assertEquals(8192L, j.model().hiddenSize().value());
        assertTrue(shapeFrom(j).startsWith("meta-llama/Llama-3.1-70B | model._component_ llama3_1_70b"), shapeFrom(j));
        assertEquals(7, j.model().layers().span().startLine(), "the shape is placed at the builder (model._component_)");
    }

    @Test
    void aShardDimensionOfOneIsPlainDataParallelAndALoraBuilderNamesItsBaseModel() {
        Specs.Job j = jobs("qwen_lora.yaml", """
                model:
                  _component_: torchtune.models.qwen2_5.lora_qwen2_5_1_5b_instruct
                  lora_attn_modules: ['q_proj', 'v_proj']
                  lora_rank: 8
                data_parallel_shard_dim: 1
                data_parallel_replicate_dim: 4
                batch_size: 8
                enable_activation_checkpointing: False
                dtype: fp32
                """).get(0);
        assertEquals(4L, j.parallelism().dp().value(), "replicate 4 × shard 1");
        assertNull(j.optimizer(), "no sharding: no ZeRO stage");
        assertEquals("none", j.recompute().granularity().value());
        assertEquals(1536L, j.model().hiddenSize().value(), "Qwen2.5 1.5B");
    }

    @Test
    void otherComponentYamlIsNoTorchtuneJob() {
        assertTrue(jobs("data.yaml", """
                dataset:
                  _component_: torchtune.datasets.alpaca_cleaned_dataset
                model:
                  _component_: my_project.models.build_model
                batch_size: 4
                """).isEmpty(), "a model builder outside torchtune.models is not torchtune's");
    }
}
