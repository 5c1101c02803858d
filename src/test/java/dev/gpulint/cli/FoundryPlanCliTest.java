package dev.gpulint.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.testing.PlanCli;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * `gpulint plan` on an mcli run of an llm-foundry MPT-7B pretraining YAML (our own fixture, in the shape of llm-foundry's
 * pretrain YAMLs): the job bench/plan/heldout.tsv states natively as its `MPT-7B llmf-a100-80` row (8 A100 80GB, global
 * batch 96, micro-batch 6, FSDP FULL_SHARD, no activation checkpointing). Read through the llm-foundry reader, it gives the
 * same figures as the native manifest of that row: the reader adds no term, only the inputs.
 */
class FoundryPlanCliTest {
    private static final String CLUSTER = """
            kind: cluster
            name: lab
            fabric: { type: roce, topology: rail-optimized, roce: { pfc: { enabled: true, priority: 3 } } }
            node_groups:
              - name: nodes
                count: 1
                gpu: { model: A100-SXM4-80GB, count: 8 }
                nvlink: { switch: true }
                nics:
                  - { model: ConnectX-7, count: 8, speed: 200 Gb/s, protocol: roce, gpudirect_rdma: true }
            """;

    /** The heldout row as bench/plan_calibration.py writes its manifest. */
    private static final String NATIVE = """
            kind: training_job
            name: mpt-7b
            cluster: lab
            node_group: nodes
            nodes: 1
            gpus_per_node: 8
            model:
              dtype: bf16
              layers: 32
              hidden_size: 4096
              attention_heads: 32
              kv_heads: 32
              ffn_hidden_size: 16384
              vocab_size: 50368
              gated_mlp: false
              tied_embeddings: true
              seq_length: 2048
            parallelism: { tp: 1, pp: 1, cp: 1, virtual_pp: 1, sequence_parallel: false }
            batch: { micro_batch_size: 6, global_batch_size: 96 }
            optimizer: { zero_stage: 3, distributed: false }
            recompute: none
            """;

    private static final String MCLI = """
            name: mpt-7b-a100
            image: mosaicml/llm-foundry:2.7.0_cu128-latest
            command: composer llm-foundry/scripts/train/train.py /mnt/config/parameters.yaml
            compute:
              gpus: 8
              gpu_type: a100_80gb
            parameters:
              variables:
                max_seq_len: 2048
              max_seq_len: ${variables.max_seq_len}
              model:
                name: mpt_causal_lm
                init_device: meta
                d_model: 4096
                n_heads: 32
                n_layers: 32
                expansion_ratio: 4
                max_seq_len: ${variables.max_seq_len}
                vocab_size: 50368
              optimizer:
                name: decoupled_adamw
                lr: 1.2e-4
              global_train_batch_size: 96
              device_train_microbatch_size: 6
              precision: amp_bf16
              fsdp_config:
                sharding_strategy: FULL_SHARD
                mixed_precision: DEFAULT
                activation_checkpointing: false
                backward_prefetch: BACKWARD_PRE
            """;

    @SuppressWarnings("unchecked")
    private static Map<String, Object> plan(Path dir, String file, String text) throws IOException {
        Path d = Files.createDirectories(dir.resolve(file.replace('.', '-')));
        Files.writeString(d.resolve("cluster.yaml"), CLUSTER);
        Path job = Files.writeString(d.resolve(file), text);
        Path cfg = Files.writeString(d.resolve(".gpulint.yaml"), "job_clusters:\n  - { files: \"" + file + "\", cluster: lab, node_group: nodes }\n");
        PlanCli.Run r = PlanCli.run("plan", "-c", cfg.toString(), "-f", "json", d.resolve("cluster.yaml").toString(), job.toString());
        assertEquals(0, r.code(), r.err() + r.out());
        return (Map<String, Object>) new Load(LoadSettings.builder().build()).loadFromString(r.out());
    }

    @Test
    @SuppressWarnings("unchecked")
    void anMcliRunOfMpt7bIsPlannedAsTheNativeManifestOfItsHeldOutRow(@TempDir Path dir) throws IOException {
        Map<String, Object> foundry = plan(dir, "mpt-7b.yaml", MCLI);
        Map<String, Object> nativePlan = plan(dir, "native.yaml", NATIVE);
        assertEquals(8, foundry.get("gpus"), "compute.gpus");
        Map<String, Object> f = (Map<String, Object>) foundry.get("current"), n = (Map<String, Object>) nativePlan.get("current");
        assertEquals(n.get("layout"), f.get("layout"));
        assertEquals(n.get("memory"), f.get("memory"));
        assertEquals(n.get("time"), f.get("time"));
        assertEquals(n.get("throughput"), f.get("throughput"));
        double tokens = ((Number) ((Map<String, Object>) f.get("throughput")).get("tokens_per_s_per_gpu")).doubleValue();
        assertTrue(tokens > 0, f.toString());
        List<String> as = (List<String>) foundry.get("assumptions");
        assertTrue(as.stream().noneMatch(a -> a.contains("not given: 1") || a.contains("recompute not given")), as.toString());
    }
}
