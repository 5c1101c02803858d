package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.read.Readers;
import dev.gpulint.read.SourceFile;
import dev.gpulint.spec.Specs;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * axolotl and LLaMA-Factory configurations (our own fixtures in the shapes of axolotl's examples/ and LLaMA-Factory's
 * examples/train_full and train_lora YAML, with a DeepSpeed ZeRO-3 JSON of the shape both ship).
 */
class FinetuneConfigAdapterTest {

    private static List<Specs.Job> jobs(SourceFile... files) {
        List<Adapters.Input> in = new ArrayList<>();
        for (SourceFile f : files) in.add(new Adapters.Input(f, Readers.read(f).foreign()));
        return Adapters.bind(in).jobs();
    }

    @Test
    void anAxolotlFullFinetuneWithFsdpNamesItsModelBatchSequencePrecisionAndSharding() {
        Specs.Job j = jobs(SourceFile.of("llama-3.1-8b-fft.yaml", """
                base_model: meta-llama/Llama-3.1-8B
                datasets:
                  - path: tatsu-lab/alpaca
                    type: alpaca
                sequence_len: 4096
                sample_packing: true
                gradient_accumulation_steps: 4
                micro_batch_size: 2
                num_epochs: 1
                optimizer: adamw_torch_fused
                bf16: auto
                tf32: false
                gradient_checkpointing: true
                fsdp:
                  - full_shard
                  - auto_wrap
                fsdp_config:
                  fsdp_transformer_layer_cls_to_wrap: LlamaDecoderLayer
                """)).get(0);
        assertEquals("axolotl", j.origin().format());
        assertEquals(2L, j.batch().microBatchSize().value());
        assertEquals(4096L, j.model().seqLength().value());
        assertEquals("bf16", j.model().dtype().value(), "bf16: auto is bf16 where the GPU has it");
        assertEquals("full", j.recompute().granularity().value());
        assertEquals(3L, j.optimizer().zeroStage().value(), "full_shard");
        assertEquals(32L, j.model().layers().value(), "the catalog's Llama 3.1 8B");
        assertEquals(1, j.model().layers().span().startLine(), "placed at base_model");
    }

    @Test
    void aQloraOrLoraFinetuneGetsNoShapeTheEstimateWouldPriceAsAFullOne() {
        Specs.Job axolotl = jobs(SourceFile.of("qlora.yaml", """
                base_model: meta-llama/Meta-Llama-3-70B
                load_in_4bit: true
                adapter: qlora
                lora_r: 32
                sequence_len: 2048
                micro_batch_size: 1
                """)).get(0);
        assertNull(axolotl.model().layers(), "QLoRA trains adapters only: no full-fine-tune shape");
        assertNull(axolotl.model().hiddenSize());
        assertEquals(2048L, axolotl.model().seqLength().value(), "what the file writes is still read");
        assertEquals(1L, axolotl.batch().microBatchSize().value());
        Specs.Job factory = jobs(SourceFile.of("qwen2_5_lora_sft.yaml", """
                model_name_or_path: Qwen/Qwen2.5-7B-Instruct
                stage: sft
                do_train: true
                lora_rank: 8
                cutoff_len: 2048
                per_device_train_batch_size: 1
                """)).get(0);
        assertNull(factory.model().layers(), "finetuning_type not written: LLaMA-Factory's default, lora");
    }

    @Test
    void aLlamaFactoryFullFinetuneReadsItsDeepSpeedConfiguration() {
        Specs.Job j = jobs(SourceFile.of("qwen2_5_full_sft.yaml", """
                ### model
                model_name_or_path: Qwen/Qwen2.5-7B-Instruct
                ### method
                stage: sft
                do_train: true
                finetuning_type: full
                deepspeed: examples/deepspeed/ds_z3_config.json
                ### dataset
                cutoff_len: 2048
                ### train
                per_device_train_batch_size: 1
                gradient_accumulation_steps: 2
                bf16: true
                """), SourceFile.of("examples/deepspeed/ds_z3_config.json", """
                {
                  "train_batch_size": "auto",
                  "train_micro_batch_size_per_gpu": "auto",
                  "gradient_accumulation_steps": "auto",
                  "bf16": { "enabled": "auto" },
                  "zero_optimization": { "stage": 3, "overlap_comm": false }
                }
                """)).stream().filter(x -> x.origin().format().equals("LLaMA-Factory")).findFirst().orElseThrow();
        assertEquals(3584L, j.model().hiddenSize().value(), "the catalog's Qwen2.5 7B");
        assertEquals(2048L, j.model().seqLength().value());
        assertEquals(1L, j.batch().microBatchSize().value());
        assertEquals("bf16", j.model().dtype().value());
        assertEquals(3L, j.optimizer().zeroStage().value(), "from the DeepSpeed file it names");
    }

    @Test
    void aFileThatOnlyNamesAModelIsNoFinetuneJob() {
        assertTrue(jobs(SourceFile.of("eval.yaml", """
                base_model: meta-llama/Llama-3.1-8B
                tasks: [mmlu, gsm8k]
                """), SourceFile.of("serve.yaml", """
                model_name_or_path: Qwen/Qwen2.5-7B-Instruct
                template: qwen
                infer_backend: vllm
                """)).isEmpty());
    }
}
