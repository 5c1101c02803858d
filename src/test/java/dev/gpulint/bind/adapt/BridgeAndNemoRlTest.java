package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.read.Readers;
import dev.gpulint.read.SourceFile;
import dev.gpulint.spec.Specs;
import dev.gpulint.tree.Document;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Megatron-Bridge and NeMo-RL YAML: our own fixtures in the shapes of Megatron-Bridge's recipe override files
 * (examples/recipes/.../conf/*_override_example.yaml), the ConfigContainer a run prints and saves as run_config.yaml,
 * and NeMo-RL's examples/configs (grpo_math_1B.yaml with the DTensor back-end, grpo_math_1B_megatron.yaml, and the
 * recipes that inherit one with {@code defaults:}).
 */
class BridgeAndNemoRlTest {

    private static List<Specs.Job> jobs(SourceFile... files) {
        List<Adapters.Input> in = new ArrayList<>();
        for (SourceFile f : files) in.add(new Adapters.Input(f, Readers.read(f).foreign()));
        return Adapters.bind(in).jobs();
    }

    private static Specs.Job job(String name, String text) {
        List<Specs.Job> all = jobs(SourceFile.of(name, text));
        assertEquals(1, all.size(), name + " binds one job");
        return all.get(0);
    }

    private static String shapeFrom(Specs.Job j) {
        for (Specs.Stated s : j.origin().stated()) if (s.quantity().equals(ModelNames.SHAPE)) return s.value() + " | " + s.where();
        return null;
    }

    static final String BRIDGE_OVERRIDE = """
            # overrides merged on top of the qwen3_30b_a3b recipe
            model:
              tensor_model_parallel_size: 4
              pipeline_model_parallel_size: 2
              seq_length: 4096
              sequence_parallel: true
              expert_model_parallel_size: 4
              expert_tensor_parallel_size: 1

            train:
              train_iters: 20000
              global_batch_size: 256
              micro_batch_size: 2

            tokenizer:
              tokenizer_type: HuggingFaceTokenizer
              tokenizer_model: Qwen/Qwen3-30B-A3B

            ddp:
              grad_reduce_in_fp32: true

            mixed_precision: bf16_with_fp8_current_scaling_mixed
            """;

    @Test
    void aBridgeOverrideFileReadsTheLayoutBatchSequencePrecisionAndTheTokenizersModel() {
        Specs.Job j = job("qwen3_moe_override.yaml", BRIDGE_OVERRIDE);
        assertEquals("Megatron-Bridge", j.origin().format());
        Specs.Parallelism p = j.parallelism();
        assertEquals(4L, p.tp().value());
        assertEquals(3, p.tp().span().startLine());
        assertEquals(31, p.tp().span().startColumn(), "at the value of tensor_model_parallel_size");
        assertEquals(2L, p.pp().value());
        assertEquals(4L, p.ep().value());
        assertEquals(1L, p.expertTp().value());
        assertEquals(true, p.sequenceParallel().value());
        assertEquals(256L, j.batch().globalBatchSize().value());
        assertEquals(2L, j.batch().microBatchSize().value());
        assertEquals(4096L, j.model().seqLength().value(), "no dataset section: the model's seq_length");
        assertEquals("fp8", j.model().dtype().value(), "the mixed-precision recipe's name");
        assertNull(j.gpusPerNode(), "the launcher gives the GPUs, not the file");
        assertNull(j.nodes());
        assertEquals(48L, j.model().layers().value(), "the catalog's Qwen3 30B-A3B, named by the Hugging Face tokenizer");
        assertEquals(128L, j.model().experts().value());
        assertEquals(17, j.model().layers().span().startLine(), "placed at tokenizer_model");
        assertEquals("Qwen/Qwen3-30B-A3B | tokenizer.tokenizer_model Qwen/Qwen3-30B-A3B: the model catalog's Qwen/Qwen3-30B-A3B "
                + "(https://huggingface.co/Qwen/Qwen3-30B-A3B/blob/main/config.json)", shapeFrom(j));
        assertNull(j.optimizer() == null ? null : j.optimizer().bytesPerParameter(), "grad_reduce_in_fp32: true keeps Megatron's 18 bytes");
    }

    @Test
    void anUnsetExpertTpWithExpertParallelismIsBridgesDefaultOneAndSaysSo() {
        Specs.Job j = job("qwen3_moe_override.yaml", BRIDGE_OVERRIDE.replace("  expert_tensor_parallel_size: 1\n", ""));
        Specs.Parallelism p = j.parallelism();
        assertEquals(4L, p.tp().value());
        assertEquals(1L, p.expertTp().value(), "Bridge's finalize sets 1, not Megatron-Core's tp (4)");
        assertEquals(7, p.expertTp().span().startLine(), "placed at expert_model_parallel_size, the size that brings the default");
        assertEquals(List.of("model.expert_tensor_parallel_size not written with expert_model_parallel_size = 4: expert tp 1,"
                + " Megatron-Bridge's TransformerConfig.finalize default (_set_moe_expert_tensor_parallel_default, current Bridge;"
                + " an older Bridge, e.g. at 48fe5c6, leaves Megatron-Core's expert tp = tp)"), j.origin().unpriced());
    }

    /** The model config's cross_entropy_loss_fusion with cross_entropy_fusion_impl te: Transformer Engine's loss (LossKernel). */
    @Test
    void aBridgeModelsCrossEntropyFusionAndImplementationAreRead() {
        Specs.Job te = job("qwen3_moe_override.yaml", BRIDGE_OVERRIDE.replace("  sequence_parallel: true\n",
                "  sequence_parallel: true\n  cross_entropy_loss_fusion: true\n  cross_entropy_fusion_impl: te\n"));
        assertEquals(Specs.CrossEntropy.TE, te.model().crossEntropy().value());
        assertEquals(8, te.model().crossEntropy().span().startLine(), "at cross_entropy_fusion_impl");
        Specs.Job off = job("qwen3_moe_override.yaml", BRIDGE_OVERRIDE.replace("  sequence_parallel: true\n",
                "  sequence_parallel: true\n  cross_entropy_loss_fusion: false\n  cross_entropy_fusion_impl: te\n"));
        assertEquals(Specs.CrossEntropy.NATIVE, off.model().crossEntropy().value(), "the fusion off: Megatron-Core's unfused loss");
        assertNull(job("qwen3_moe_override.yaml", BRIDGE_OVERRIDE).model().crossEntropy(), "neither written");
    }

    @Test
    void aWrittenExpertTpOrNoExpertParallelismKeepsBridgesReadingAsWritten() {
        Specs.Job written = job("qwen3_moe_override.yaml", BRIDGE_OVERRIDE.replace("expert_tensor_parallel_size: 1", "expert_tensor_parallel_size: 2"));
        assertEquals(2L, written.parallelism().expertTp().value());
        assertTrue(written.origin().unpriced().stream().noneMatch(s -> s.contains("expert_tensor_parallel_size")));
        Specs.Job dense = job("qwen3_moe_override.yaml", BRIDGE_OVERRIDE.replace("  expert_tensor_parallel_size: 1\n", "")
                .replace("expert_model_parallel_size: 4", "expert_model_parallel_size: 1"));
        assertNull(dense.parallelism().expertTp(), "ep 1: Bridge leaves it unset (Megatron-Core's tp)");
        assertTrue(dense.origin().unpriced().stream().noneMatch(s -> s.contains("expert_tensor_parallel_size")));
    }

    @Test
    void aBridgeConfigContainerDumpGivesItsOwnDimensionsPrecisionAndOptimizer() {
        Specs.Job j = job("run_config.yaml", """
                _target_: megatron.bridge.training.config.ConfigContainer
                dataset:
                  _target_: megatron.bridge.training.config.GPTDatasetConfig
                  sequence_length: 8192
                ddp:
                  _target_: megatron.bridge.training.config.DistributedDataParallelConfig
                  grad_reduce_in_fp32: true
                  use_distributed_optimizer: true
                mixed_precision:
                  _target_: megatron.bridge.training.mixed_precision.MixedPrecisionConfig
                  bf16: true
                  fp16: false
                  fp8: e4m3
                  fp8_recipe: mxfp8
                  grad_reduce_in_fp32: false
                model:
                  _target_: megatron.bridge.models.llama.llama_provider.Llama31ModelProvider
                  context_parallel_size: 2
                  expert_model_parallel_size: 1
                  ffn_hidden_size: 14336
                  gated_linear_unit: true
                  hidden_size: 4096
                  kv_channels: 128
                  moe_router_topk: 2
                  num_attention_heads: 32
                  num_layers: 32
                  num_layers_in_first_pipeline_stage: null
                  num_moe_experts: null
                  num_query_groups: 8
                  pipeline_model_parallel_size: 4
                  recompute_granularity: null
                  seq_length: 131072
                  sequence_parallel: true
                  share_embeddings_and_output_weights: false
                  tensor_model_parallel_size: 2
                  virtual_pipeline_model_parallel_size: null
                  vocab_size: 128256
                optimizer:
                  _target_: megatron.bridge.training.config.OptimizerConfig
                  bf16: true
                  use_distributed_optimizer: true
                train:
                  _target_: megatron.bridge.training.config.TrainingConfig
                  global_batch_size: 128
                  micro_batch_size: 1
                  train_iters: 100
                """);
        Specs.Parallelism p = j.parallelism();
        assertEquals(2L, p.tp().value());
        assertEquals(4L, p.pp().value());
        assertEquals(2L, p.cp().value());
        assertNull(p.virtualPp(), "null: Megatron's default, no interleaving");
        assertTrue(p.unknown().isEmpty(), "null is not unknown: " + p.unknown());
        assertEquals(8192L, j.model().seqLength().value(), "the dataset's sequence_length wins over the model's 131072");
        assertEquals(32L, j.model().layers().value());
        assertEquals(8L, j.model().kvHeads().value());
        assertEquals(14336L, j.model().ffnHiddenSize().value());
        assertEquals(false, j.model().tiedEmbeddings().value());
        assertNull(j.model().experts(), "dense: num_moe_experts null");
        assertNull(j.model().topK(), "a dense dump's moe_router_topk default is not an MoE shape");
        assertEquals("mxfp8", j.model().dtype().value());
        assertEquals("none", j.recompute().granularity().value());
        assertEquals(true, j.optimizer().distributed().value());
        assertEquals(16.0, j.optimizer().bytesPerParameter().value(), "mixed_precision's grad_reduce_in_fp32 wins over ddp's");
        assertNull(shapeFrom(j), "every dimension is written; a provider class without a size names no shape");
    }

    @Test
    void aProviderClassWithItsSizeNamesTheCatalogEntryAndTheOlderSectionNamesAreRead() {
        Specs.Job j = job("llama31_70b.yaml", """
                ConfigContainer:
                  model_config:
                    _target_: megatron.bridge.models.llama.Llama31ModelProvider70B
                    tensor_model_parallel_size: 8
                    pipeline_model_parallel_size: 4
                    virtual_pipeline_model_parallel_size: 5
                  train_config:
                    global_batch_size: 128
                    micro_batch_size: 1
                  mixed_precision: bf16_mixed
                """);
        assertEquals(8L, j.parallelism().tp().value());
        assertEquals(5L, j.parallelism().virtualPp().value());
        assertEquals(128L, j.batch().globalBatchSize().value());
        assertEquals("bf16", j.model().dtype().value());
        assertEquals(80L, j.model().layers().value(), "Llama 3.1 70B");
        assertTrue(shapeFrom(j).startsWith("meta-llama/Llama-3.1-70B | ConfigContainer.model_config._target_ Llama3170B: the model catalog's"),
                shapeFrom(j));
    }

    @Test
    void anInterpolatedBridgeSizeIsUnknownNotOne() {
        Specs.Job j = job("o.yaml", """
                model:
                  tensor_model_parallel_size: ${oc.decode:${oc.env:TP}}
                  pipeline_model_parallel_size: 2
                train:
                  global_batch_size: 64
                """);
        assertNull(j.parallelism().tp());
        assertTrue(j.parallelism().unknown().contains("tp"));
    }

    static final String RL_MEGATRON = """
            grpo:
              num_prompts_per_step: 64
              num_generations_per_prompt: 16
            policy:
              model_name: "meta-llama/Llama-3.1-8B-Instruct"
              tokenizer:
                name: ${policy.model_name}
              train_global_batch_size: 512
              train_micro_batch_size: 1
              max_total_sequence_length: 4096
              precision: "bfloat16"
              dtensor_cfg:
                enabled: false
              megatron_cfg:
                enabled: true
                activation_checkpointing: true
                tensor_model_parallel_size: 4
                pipeline_model_parallel_size: 2
                context_parallel_size: 1
                expert_model_parallel_size: 1
                sequence_parallel: true
                optimizer:
                  bf16: true
                  use_distributed_optimizer: true
                distributed_data_parallel_config:
                  grad_reduce_in_fp32: false
                fp8_cfg:
                  enabled: false
              generation:
                backend: "vllm"
                vllm_cfg:
                  tensor_parallel_size: 2
                colocated:
                  enabled: true
            cluster:
              gpus_per_node: 8
              num_nodes: 2
            """;

    @Test
    void aNemoRlMegatronPolicyReadsItsLayoutClusterBatchAndModel() {
        Specs.Job j = job("grpo_llama8b_megatron.yaml", RL_MEGATRON);
        assertEquals("NeMo-RL", j.origin().format());
        assertEquals(2L, j.nodes().value());
        assertEquals(8L, j.gpusPerNode().value());
        assertEquals(4L, j.parallelism().tp().value(), "the policy's, not vLLM's tensor_parallel_size 2");
        assertEquals(17, j.parallelism().tp().span().startLine());
        assertEquals(2L, j.parallelism().pp().value());
        assertEquals(512L, j.batch().globalBatchSize().value());
        assertEquals(1L, j.batch().microBatchSize().value());
        assertEquals(4096L, j.model().seqLength().value());
        assertEquals("bf16", j.model().dtype().value());
        assertEquals("full", j.recompute().granularity().value());
        assertEquals(16.0, j.optimizer().bytesPerParameter().value());
        assertEquals(32L, j.model().layers().value(), "the catalog's Llama 3.1 8B");
        assertEquals(5, j.model().layers().span().startLine(), "placed at policy.model_name");
        assertEquals("meta-llama/Llama-3.1-8B | policy.model_name meta-llama/Llama-3.1-8B-Instruct: the model catalog's "
                + "meta-llama/Llama-3.1-8B (https://huggingface.co/meta-llama/Llama-3.1-8B/blob/main/config.json)", shapeFrom(j));
    }

    @Test
    void aDistillationsTeacherDoesNotGiveThePolicyItsShape() {
        Specs.Job j = job("distillation.yaml", """
                teacher:
                  model_name: Qwen/Qwen3-32B
                  dtensor_cfg: { enabled: true, tensor_parallel_size: 4 }
                policy:
                  model_name: Qwen/Qwen3-1.7B
                  train_global_batch_size: 64
                  train_micro_batch_size: 1
                  dtensor_cfg: { enabled: true, tensor_parallel_size: 1 }
                cluster: { gpus_per_node: 8, num_nodes: 1 }
                """);
        assertEquals(2048L, j.model().hiddenSize().value(), "the student's Qwen3 1.7B, not the teacher's 32B");
        assertEquals(1L, j.parallelism().tp().value());
    }

    @Test
    void aDeepSeekV3ProviderNamesItsModelWithoutASizeInItsName() {
        Specs.Job j = job("dsv3.yaml", """
                model:
                  _target_: megatron.bridge.models.deepseek.DeepSeekV3ModelProvider
                  tensor_model_parallel_size: 2
                  pipeline_model_parallel_size: 16
                  expert_model_parallel_size: 64
                train: { global_batch_size: 8192, micro_batch_size: 1 }
                """);
        assertEquals(61L, j.model().layers().value());
        assertEquals(256L, j.model().experts().value());
    }

    @Test
    void aNemoRlDtensorPolicyIsFsdp2WithItsTensorParallelSize() {
        Specs.Job j = job("grpo_qwen.yaml", """
                policy:
                  model_name: "Qwen/Qwen2.5-7B"
                  train_global_batch_size: 512
                  train_micro_batch_size: 2
                  max_total_sequence_length: 2048
                  precision: "bfloat16"
                  dtensor_cfg:
                    enabled: true
                    cpu_offload: false
                    sequence_parallel: false
                    activation_checkpointing: true
                    tensor_parallel_size: 2
                    context_parallel_size: 1
                  megatron_cfg:
                    enabled: false
                    tensor_model_parallel_size: 8
                cluster:
                  gpus_per_node: 8
                  num_nodes: 1
                """);
        assertEquals(2L, j.parallelism().tp().value(), "the enabled back-end's, not megatron_cfg's 8");
        assertNull(j.parallelism().pp());
        assertEquals(3L, j.optimizer().zeroStage().value(), "FSDP2 shards everything over dp");
        assertEquals("full", j.recompute().granularity().value());
        assertEquals(28L, j.model().layers().value(), "Qwen2.5 7B");
    }

    @Test
    void aNemoRlRecipeThatInheritsLeavesWhatItDoesNotWriteUnknown() {
        Specs.Job j = job("grpo-llama3.1-8b-4n8g-megatron.yaml", """
                defaults: ../../grpo_math_1B.yaml
                policy:
                  model_name: meta-llama/Llama-3.1-8B-Instruct
                  megatron_cfg:
                    enabled: true
                    tensor_model_parallel_size: 2
                cluster:
                  num_nodes: 4
                """);
        assertEquals(2L, j.parallelism().tp().value());
        assertNull(j.parallelism().pp());
        assertTrue(j.parallelism().unknown().containsAll(List.of("pp", "cp", "ep")), "the parent's: " + j.parallelism().unknown());
        assertNull(j.gpusPerNode(), "gpus_per_node is the parent's");
        Specs.Job which = job("child.yaml", """
                defaults: grpo_math_1B.yaml
                policy:
                  train_global_batch_size: 256
                  dtensor_cfg:
                    tensor_parallel_size: 4
                """);
        assertNull(which.parallelism().tp(), "enabled is the parent's: which back-end runs is unknown");
        assertTrue(which.parallelism().unknown().contains("tp"));
    }

    @Test
    void generationOnGpusOfItsOwnLeavesTheTrainingGpuCountUnknown() {
        Specs.Job j = job("grpo_noncolocated.yaml", RL_MEGATRON.replace("""
                    colocated:
                      enabled: true
                """, """
                    colocated:
                      enabled: false
                      resources:
                        num_nodes: 1
                """));
        assertNull(j.nodes());
        assertNull(j.gpusPerNode());
    }

    @Test
    void aNemoRlLoraPolicyGetsNoModelShape() {
        Specs.Job j = job("sft_lora.yaml", """
                policy:
                  model_name: meta-llama/Llama-3.1-8B
                  train_global_batch_size: 32
                  train_micro_batch_size: 1
                  dtensor_cfg:
                    enabled: true
                    tensor_parallel_size: 1
                    lora_cfg:
                      enabled: true
                      dim: 16
                cluster: { gpus_per_node: 8, num_nodes: 1 }
                """);
        assertEquals(32L, j.batch().globalBatchSize().value(), "what the file writes is still read");
        assertTrue(j.model() == null || j.model().layers() == null, "LoRA: the estimate would price a full fine-tune");
        Specs.Job full = job("sft_full.yaml", """
                policy:
                  model_name: meta-llama/Llama-3.1-8B
                  train_global_batch_size: 32
                  dtensor_cfg:
                    enabled: true
                    lora_cfg:
                      enabled: false
                cluster: { gpus_per_node: 8, num_nodes: 1 }
                """);
        assertEquals(32L, full.model().layers().value(), "lora_cfg disabled: a full fine-tune");
    }

    /** Documents of other formats stay theirs, and YAML that merely has a model, a train or a policy is no job. */
    @Test
    void otherFormatsAndLookAlikesAreNotTaken() {
        assertEquals(0, jobs(SourceFile.of("rl_env.yaml", """
                policy:
                  name: ppo
                  learning_rate: 0.0003
                """), SourceFile.of("serve.yaml", """
                model:
                  name: llama
                  tensor_model_parallel_size: 2
                """), SourceFile.of("hf.yaml", """
                model:
                  _target_: transformers.AutoModel
                train:
                  epochs: 3
                """)).size());
        Specs.Job nemo = job("megatron_gpt.yaml", """
                trainer:
                  num_nodes: 1
                  devices: 8
                model:
                  tensor_model_parallel_size: 2
                  micro_batch_size: 1
                train:
                  x: 1
                """);
        assertEquals("NeMo", nemo.origin().format(), "a trainer makes it NeMo's");
    }

    /**
     * Every YAML the project already holds (samples, test resources, and the files of every rule case) keeps the format it
     * had: neither adapter takes it, except the cases written for them.
     */
    @Test
    @SuppressWarnings("unchecked")
    void noFixtureOfTheOtherFormatsIsTakenForBridgeOrNemoRl() throws IOException {
        List<SourceFile> files = new ArrayList<>();
        for (Path base : List.of(Path.of("../samples"), Path.of("test/resources"), Path.of("../rules"))) {
            if (!Files.isDirectory(base)) continue;
            List<Path> paths;
            try (Stream<Path> s = Files.walk(base)) {
                paths = s.filter(f -> f.toString().endsWith(".yaml") || f.toString().endsWith(".yml")).sorted().toList();
            }
            for (Path f : paths) {
                String text = Files.readString(f);
                if (!f.toString().endsWith(".test.yaml")) {
                    files.add(SourceFile.of(f.toString(), text));
                    continue;
                }
                var root = (java.util.Map<String, Object>) new org.snakeyaml.engine.v2.api.Load(
                        org.snakeyaml.engine.v2.api.LoadSettings.builder().build()).loadFromString(text);
                for (Object c : (List<Object>) root.getOrDefault("cases", List.of())) {
                    var kase = (java.util.Map<String, Object>) c;
                    if (String.valueOf(kase.get("name")).matches("(?i).*(Megatron-Bridge|NeMo-RL).*")) continue;
                    var fs = (java.util.Map<String, Object>) kase.getOrDefault("files", java.util.Map.of());
                    for (var e : fs.entrySet()) {
                        if (e.getKey().endsWith(".yaml") || e.getKey().endsWith(".yml")) files.add(SourceFile.of(f + ":" + e.getKey(), String.valueOf(e.getValue())));
                    }
                }
            }
        }
        BridgeAdapter bridge = new BridgeAdapter();
        NemoRlAdapter rl = new NemoRlAdapter();
        int seen = 0;
        for (SourceFile sf : files) {
            for (Document d : Readers.read(sf).foreign()) {
                ForeignDocument doc = new ForeignDocument(d, sf, sf.displayPath());
                seen++;
                assertFalse(bridge.accepts(doc), sf.displayPath() + " taken for Megatron-Bridge");
                assertFalse(rl.accepts(doc), sf.displayPath() + " taken for NeMo-RL");
            }
        }
        assertTrue(seen > 200, "the project's own YAML was read: " + seen);
    }
}
