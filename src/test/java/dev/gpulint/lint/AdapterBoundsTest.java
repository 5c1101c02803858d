package dev.gpulint.lint;

import static dev.gpulint.testing.LintBeside.lint;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.read.SourceFile;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A value of another format out of the schema's bounds is a SYN002 finding at the value, binds
 * as absent, and stops nothing: the run's other files are still linted.
 */
class AdapterBoundsTest {

    private static List<String> of(List<String> findings, String file, String rule) {
        return findings.stream().filter(s -> s.startsWith(file + ":") && s.contains(" " + rule + " ")).toList();
    }

    /**
     * One file out of bounds, or at its usual sizes: the SYN002 findings it raises, exactly and in order (none where it
     * stays quiet), and how many findings other rules raise on it (0: the value bound as absent gives them nothing to reason on).
     */
    record Case(String name, String file, String text, List<String> syn002, Map<String, Integer> others) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** A PyTorchJob whose container asks for 10^16 nvidia.com/gpu under %s (limits or requests). */
    private static final String K8S_GPUS = """
                apiVersion: kubeflow.org/v1
                kind: PyTorchJob
                metadata: {name: j}
                spec:
                  pytorchReplicaSpecs:
                    Worker:
                      replicas: 2
                      template:
                        spec:
                          containers:
                            - name: t
                              resources: {%s: {nvidia.com/gpu: 10000000000000000}}
                              command: [torchrun, --nproc_per_node=8, train.py, --tensor-model-parallel-size, "8"]
                """;

    static Stream<Case> cases() {
        return Stream.of(
            new Case("NeMo tensor_model_parallel_size 0", "nemo.yaml", """
                trainer:
                  num_nodes: 2
                  devices: 8
                model:
                  micro_batch_size: 2
                  global_batch_size: 256
                  tensor_model_parallel_size: 0
                  pipeline_model_parallel_size: 2
                  num_layers: 44
                  num_attention_heads: 48
                """,
                    List.of("nemo.yaml:7:31 SYN002 'tensor_model_parallel_size' is 0; expected a whole number of at least 1."),
                    Map.of()),
            new Case("Megatron flags out of bounds name the flag", "tp2/model_config.yaml", """
                MODEL_ARGS:
                  --num-layers: 0
                  --micro-batch-size: 0
                  --global-batch-size: 99999999999
                  --tensor-model-parallel-size: 2
                """,
                    List.of("tp2/model_config.yaml:2:17 SYN002 '--num-layers' is 0; expected a whole number from 1 to 2147483647.",
                        "tp2/model_config.yaml:3:23 SYN002 '--micro-batch-size' is 0; expected a whole number from 1 to 2147483647.",
                        "tp2/model_config.yaml:4:24 SYN002 '--global-batch-size' is 99999999999; expected a whole number from 1 to 2147483647."),
                    Map.of()),
            // Megatron-Core's TransformerConfig raises "num_layers_in_first_pipeline_stage must be larger than 0"; both bind as absent:
            // the split is even again, and 30 % 4 is what PAR004 then reports
            new Case("Megatron uneven stages of no layers: one SYN002 each", "uneven/model_config.yaml", """
                MODEL_ARGS:
                  --num-layers: 30
                  --pipeline-model-parallel-size: 4
                  --decoder-first-pipeline-num-layers: 0
                  --decoder-last-pipeline-num-layers: -2
                """,
                    List.of("uneven/model_config.yaml:4:40 SYN002 '--decoder-first-pipeline-num-layers' is 0; expected a whole number from 1 to 2147483647.",
                        "uneven/model_config.yaml:5:39 SYN002 '--decoder-last-pipeline-num-layers' is -2; expected a whole number from 1 to 2147483647."),
                    Map.of("PAR004", 1)),
            new Case("native first_stage_layers 0", "j.yaml", """
                kind: training_job
                name: j
                model: { layers: 32 }
                parallelism: { pp: 4, first_stage_layers: 0 }
                """,
                    List.of("j.yaml:4:43 SYN002 'first_stage_layers' is 0; expected a whole number from 1 to 2147483647."),
                    Map.of()),
            new Case("Megatron model's other sizes", "moe/model_config.yaml", """
                MODEL_ARGS:
                  --num-layers: 32
                  --hidden-size: 4096
                  --num-attention-heads: 32
                  --ffn-hidden-size: 0
                  --vocab-size: 123456789012345678901
                  --kv-channels: -128
                  --num-experts: 8
                  --moe-router-topk: 2000
                  --moe-ffn-hidden-size: 0
                """,
                    List.of("moe/model_config.yaml:5:22 SYN002 '--ffn-hidden-size' is 0; expected a whole number from 1 to 2147483647.",
                        "moe/model_config.yaml:6:17 SYN002 '--vocab-size' is 123456789012345678901; expected a whole number from 1 to 2147483647.",
                        "moe/model_config.yaml:7:18 SYN002 '--kv-channels' is -128; expected a whole number from 1 to 2147483647.",
                        "moe/model_config.yaml:9:22 SYN002 '--moe-router-topk' is 2000; expected a whole number from 1 to 1024.",
                        "moe/model_config.yaml:10:26 SYN002 '--moe-ffn-hidden-size' is 0; expected a whole number from 1 to 2147483647."),
                    Map.of()),
            new Case("NeMo 2 recipe model's other sizes", "recipe.yaml", """
                trainer:
                  _target_: nemo.lightning.pytorch.trainer.Trainer
                  devices: 8
                  num_nodes: 1
                  strategy:
                    _target_: nemo.lightning.pytorch.strategies.megatron_strategy.MegatronStrategy
                    expert_model_parallel_size: 8
                model:
                  _target_: nemo.collections.llm.gpt.model.mixtral.MixtralModel
                  config:
                    _target_: nemo.collections.llm.gpt.model.mixtral.MixtralConfig8x7B
                    num_layers: 32
                    hidden_size: 4096
                    num_attention_heads: 32
                    ffn_hidden_size: 14336
                    vocab_size: 0
                    num_moe_experts: 8
                    moe_router_topk: 0
                    moe_shared_expert_intermediate_size: -1
                """,
                    List.of("recipe.yaml:16:17 SYN002 'model.config.vocab_size' is 0; expected a whole number from 1 to 2147483647.",
                        "recipe.yaml:18:22 SYN002 'model.config.moe_router_topk' is 0; expected a whole number from 1 to 1024.",
                        "recipe.yaml:19:42 SYN002 'model.config.moe_shared_expert_intermediate_size' is -1; expected a whole number from 1 to 2147483647."),
                    Map.of()),
            new Case("Megatron model's usual sizes stay quiet", "moe/model_config.yaml", """
                MODEL_ARGS:
                  --num-layers: 32
                  --hidden-size: 4096
                  --num-attention-heads: 32
                  --ffn-hidden-size: 14336
                  --vocab-size: 32000
                  --kv-channels: 128
                  --num-experts: 8
                  --moe-router-topk: 2
                  --moe-ffn-hidden-size: 14336
                  --window-size: "(4096, 0)"
                """,
                    List.of(),
                    Map.of()),
            // integer() read at most 15 digits: 10^16 replicas were dropped as if written as a placeholder, without a word
            new Case("Kubernetes replicas of 10^16", "pt.yaml", """
                apiVersion: kubeflow.org/v1
                kind: PyTorchJob
                metadata: {name: j}
                spec:
                  pytorchReplicaSpecs:
                    Worker:
                      replicas: 10000000000000000
                      template:
                        spec:
                          containers:
                            - name: t
                              resources: {limits: {nvidia.com/gpu: 8}}
                              command: [torchrun, --nproc_per_node=8, train.py, --tensor-model-parallel-size, "8"]
                """,
                    List.of("pt.yaml:7:17 SYN002 'replicas' is 10000000000000000; expected a whole number from 1 to 2147483647."),
                    Map.of()),
            new Case("Kubernetes replicas beyond a long", "pt.yaml", """
                apiVersion: kubeflow.org/v1
                kind: PyTorchJob
                metadata: {name: j}
                spec:
                  pytorchReplicaSpecs:
                    Worker:
                      replicas: 123456789012345678901
                      template:
                        spec:
                          containers:
                            - name: t
                              resources: {limits: {nvidia.com/gpu: 8}}
                """,
                    List.of("pt.yaml:7:17 SYN002 'replicas' is 123456789012345678901; expected a whole number from 1 to 2147483647."),
                    Map.of()),
            // tp 0 once bound as no tp at all, tp 1: PAR009 then said "sequence_parallel is on with tp=1" about a file that says 0
            new Case("Megatron tp 0 is unknown, not tp 1", "tp0/model_config.yaml", """
                MODEL_ARGS:
                  --num-layers: 32
                  --hidden-size: 4096
                  --num-attention-heads: 32
                  --tensor-model-parallel-size: 0
                  --sequence-parallel: true
                """,
                    List.of("tp0/model_config.yaml:5:33 SYN002 '--tensor-model-parallel-size' is 0; expected a whole number of at least 1."),
                    Map.of("PAR009", 0)),
            // the native manifest alike: tp 0 is not tp 1 (MEM001 counted 70B ÷ pp 4 on each GPU, PAR009 named tp=1)
            new Case("native tp 0 is unknown, not tp 1", "native.yaml", """
                kind: cluster
                name: c
                node_groups:
                  - { name: g, count: 8, gpu: { model: H100-SXM5-80GB, count: 8 }, nvlink: { switch: true } }
                ---
                kind: training_job
                name: j
                cluster: c
                node_group: g
                nodes: 8
                gpus_per_node: 8
                model: { parameters: 70B, dtype: bf16, layers: 80, attention_heads: 64, hidden_size: 8192, seq_length: 4096 }
                parallelism: { tp: 0, pp: 4, sequence_parallel: true }
                batch: { micro_batch_size: 1, global_batch_size: 128 }
                """,
                    List.of("native.yaml:13:20 SYN002 'tp' is 0; expected a whole number of at least 1."),
                    Map.of("PAR009", 0, "MEM001", 0)),
            // config.json sizes were read as unbounded longs (a hidden size of 10^11) or, past 15 digits, dropped unread
            new Case("Hugging Face config's sizes above their bound", "ckpt/config.json", """
                {
                  "architectures": ["LlamaForCausalLM"],
                  "model_type": "llama",
                  "hidden_size": 99999999999,
                  "num_hidden_layers": 32,
                  "num_attention_heads": 123456789012345678901,
                  "intermediate_size": 14336
                }
                """,
                    List.of("ckpt/config.json:4:18 SYN002 'hidden_size' is 99999999999; expected a whole number from 1 to 2147483647.",
                        "ckpt/config.json:6:26 SYN002 'num_attention_heads' is 123456789012345678901; expected a whole number from 1 to 2147483647."),
                    Map.of()),
            new Case("Hugging Face config's usual sizes stay quiet", "ok/config.json", """
                {"architectures": ["LlamaForCausalLM"], "hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32,
                 "num_key_value_heads": 8, "vocab_size": 128256, "max_position_embeddings": 131072, "num_local_experts": 0,
                 "head_dim": 0}
                """,
                    List.of(),
                    Map.of()),
            // integer() read at most 15 digits: 10^16 nvidia.com/gpu were dropped as if the pod held no GPU, without a word
            new Case("Kubernetes limits nvidia.com/gpu of 10^16", "pt.yaml", K8S_GPUS.formatted("limits"),
                    List.of("pt.yaml:12:52 SYN002 'resources.limits.nvidia.com/gpu' is 10000000000000000; expected a whole number from 1 to 1000000."),
                    Map.of()),
            new Case("Kubernetes requests nvidia.com/gpu of 10^16", "pt.yaml", K8S_GPUS.formatted("requests"),
                    List.of("pt.yaml:12:54 SYN002 'resources.requests.nvidia.com/gpu' is 10000000000000000; expected a whole number from 1 to 1000000."),
                    Map.of()),
            new Case("Kubernetes 8 nvidia.com/gpu stay quiet", "pt.yaml", K8S_GPUS.formatted("limits").replace("10000000000000000", "8"),
                    List.of(),
                    Map.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void eachFileRaisesExactlyItsSyn002AtTheValuesAndTheOtherRulesCounted(Case c) {
        List<String> out = lint(SourceFile.of(c.file(), c.text()));
        assertEquals(c.syn002(), of(out, c.file(), "SYN002"), out.toString());
        c.others().forEach((rule, count) -> assertEquals(count.intValue(), of(out, c.file(), rule).size(), rule + ": " + out));
    }

    @Test
    void deepSpeedZeroBatchesAndStage() {
        List<String> out = lint(SourceFile.of("ds_config.json", """
                {
                  "train_batch_size": 0,
                  "train_micro_batch_size_per_gpu": 0,
                  "gradient_accumulation_steps": 0,
                  "zero_optimization": {"stage": 7}
                }
                """));
        List<String> syn = of(out, "ds_config.json", "SYN002");
        assertTrue(syn.contains("ds_config.json:2:23 SYN002 'train_batch_size' is 0; expected a whole number from 1 to 2147483647."), syn.toString());
        assertTrue(syn.contains("ds_config.json:3:37 SYN002 'train_micro_batch_size_per_gpu' is 0; expected a whole number from 1 to 2147483647."), syn.toString());
        assertTrue(syn.contains("ds_config.json:4:34 SYN002 'gradient_accumulation_steps' is 0; expected a whole number from 1 to 2147483647."), syn.toString());
        assertTrue(syn.contains("ds_config.json:5:34 SYN002 'stage' is 7; expected a whole number from 0 to 3."), syn.toString());
    }

    @Test
    void kubernetesAndSkyPilotZeroNodesDoNotCrash() {
        List<String> sky = lint(SourceFile.of("sky.yaml", """
                num_nodes: 0
                resources:
                  accelerators: H100:0
                run: |
                  torchrun --nproc_per_node=0 --nnodes=0 train.py --tensor-model-parallel-size 0 --micro-batch-size 0
                """));
        assertTrue(sky.contains("sky.yaml:1:12 SYN002 'num_nodes' is 0; expected a whole number from 1 to 2147483647."), sky.toString());
        assertTrue(sky.stream().anyMatch(x -> x.contains("SYN002 '--tensor-model-parallel-size' is 0; expected a whole number of at least 1.")), sky.toString());
        lint(SourceFile.of("pt.yaml", """
                apiVersion: kubeflow.org/v1
                kind: PyTorchJob
                metadata: {name: j}
                spec:
                  pytorchReplicaSpecs:
                    Worker:
                      replicas: 0
                      template:
                        spec:
                          containers:
                            - name: t
                              resources: {limits: {nvidia.com/gpu: 0}}
                              command: [torchrun, --nproc_per_node=0, train.py, --tensor-model-parallel-size, "0"]
                """));
    }
}
