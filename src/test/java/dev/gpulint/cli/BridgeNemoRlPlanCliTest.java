package dev.gpulint.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.testing.PlanCli;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `gpulint plan` on a NeMo-RL configuration that names its model: planned from the catalog, and the plan says so. */
class BridgeNemoRlPlanCliTest {

    @Test
    @SuppressWarnings("unchecked")
    void aNemoRlPolicyThatNamesItsModelIsPlannedFromTheCatalogEntryItNames(@TempDir Path dir) {
        PlanCli.Run r = PlanCli.in(dir).file("cluster.yaml", PlanCli.LAB_H100).file("grpo_llama8b.yaml", """
                policy:
                  model_name: "meta-llama/Llama-3.1-8B-Instruct"
                  train_global_batch_size: 512
                  train_micro_batch_size: 1
                  max_total_sequence_length: 4096
                  precision: "bfloat16"
                  megatron_cfg:
                    enabled: true
                    tensor_model_parallel_size: 2
                    pipeline_model_parallel_size: 1
                    context_parallel_size: 1
                    sequence_parallel: true
                    optimizer:
                      use_distributed_optimizer: true
                cluster:
                  gpus_per_node: 8
                  num_nodes: 2
                """).jobClusters("lab", "grpo_*.yaml").planJson();
        Map<String, Object> doc = r.json();
        List<String> as = (List<String>) doc.get("assumptions");
        assertTrue(as.contains("model shape (what the files do not write) from policy.model_name meta-llama/Llama-3.1-8B-Instruct: the model "
                + "catalog's meta-llama/Llama-3.1-8B (https://huggingface.co/meta-llama/Llama-3.1-8B/blob/main/config.json)"), as.toString());
        Map<String, Object> stage = (Map<String, Object>) ((List<Object>) ((Map<String, Object>) ((Map<String, Object>)
                doc.get("current")).get("memory")).get("stages")).get(0);
        assertEquals(8.03e9 / 2, ((Number) stage.get("parameters")).doubleValue(), 0.05e9, "Llama 3.1 8B's 8.03 B parameters over tp 2");
    }

    /** A Megatron-Bridge override file names its model by the provider class and states no GPU count: planned on its node group. */
    @Test
    @SuppressWarnings("unchecked")
    void aBridgeOverrideIsPlannedOnItsNodeGroupFromTheProviderItNames(@TempDir Path dir) {
        PlanCli.Run r = PlanCli.in(dir).file("cluster.yaml", PlanCli.LAB_H100).file("llama3_8b_override.yaml", """
                model:
                  _target_: megatron.bridge.models.llama.Llama3ModelProvider8B
                  tensor_model_parallel_size: 2
                  pipeline_model_parallel_size: 1
                  seq_length: 8192
                train:
                  global_batch_size: 128
                  micro_batch_size: 1
                mixed_precision: bf16_mixed
                """).jobClusters("lab", "*_override.yaml").planJson();
        Map<String, Object> doc = r.json();
        assertEquals(16, doc.get("gpus"), "2 nodes × 8 GPUs of node group dgx");
        List<String> as = (List<String>) doc.get("assumptions");
        assertTrue(as.get(0).startsWith("the job's files state no GPU count (nor dp): planned on all 2 nodes of node group dgx"), as.get(0));
        assertTrue(as.contains("model shape (what the files do not write) from model._target_ Llama38B: the model catalog's "
                + "meta-llama/Meta-Llama-3-8B (https://huggingface.co/meta-llama/Meta-Llama-3-8B/blob/main/config.json)"), as.toString());
    }
}
