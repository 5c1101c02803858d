package dev.gpulint.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.testing.PlanCli;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the plan sweep over the corpora found (our own fixtures in the shapes of gpt-neox's 20B.yml, SkyPilot's accelerate
 * SFT and SGLang serving tasks): gradient_accumulation_steps sets the micro-batches per step, sequence parallelism is off
 * unless written for formats where it is a switch, an unstated ZeRO stage is said, a serving job is not asked for a shape.
 */
class PlanSweepFindingsTest {
    private static final String NEOX = """
            # gpt-neox: 20B-like, accumulation written, train_batch_size not
            {
              "pipe_parallel_size": 4,
              "model_parallel_size": 2,
              "num_layers": 44,
              "hidden_size": 6144,
              "num_attention_heads": 64,
              "seq_length": 2048,
              "precision": "bfloat16",
              "train_micro_batch_size_per_gpu": 4,
              "gradient_accumulation_steps": 32,
              "zero_optimization": { "stage": 1 },
              "num_gpus": 8,
              "num_nodes": 2
            }
            """;

    @SuppressWarnings("unchecked")
    private static List<String> assumptions(Map<String, Object> doc) {
        return ((List<Object>) doc.get("assumptions")).stream().map(String::valueOf).toList();
    }

    @Test
    void gptNeoxGradientAccumulationSetsTheMicroBatchesAndTheGlobalBatch(@TempDir Path dir) {
        PlanCli.Run r = PlanCli.in(dir).file("cluster.yaml", PlanCli.LAB_H100).file("neox.yml", NEOX).jobClusters("lab", "*.yml")
                .planJson("--top", "1");
        Map<String, Object> layout = PlanCli.map(PlanCli.map(r.json().get("current")).get("layout"));
        // 16 GPUs at tp 2 × pp 4: dp 2; DeepSpeed's train_batch_size = 4 × 32 × 2 = 256 (before: 4 × 2 = 8, one micro-batch)
        assertEquals(2, layout.get("dp"), r.out());
        assertEquals(256, ((Number) layout.get("global_batch_size")).intValue(), r.out());
        assertTrue(assumptions(r.json()).contains("batch.global_batch_size not given: 256 (micro batch × dp × micro_batches)"),
                String.valueOf(assumptions(r.json())));
    }

    @Test
    void gptNeoxSequenceParallelIsOffUnlessWritten(@TempDir Path dir) {
        PlanCli.Run r = PlanCli.in(dir).file("cluster.yaml", PlanCli.LAB_H100).file("neox.yml", NEOX).jobClusters("lab", "*.yml")
                .planJson("--top", "1");
        Map<String, Object> layout = PlanCli.map(PlanCli.map(r.json().get("current")).get("layout"));
        assertEquals(false, layout.get("sequence_parallel"), r.out());
        assertTrue(assumptions(r.json()).stream().anyMatch(a -> a.startsWith("sequence_parallel not given: off (gpt-neox's NeoXArgsParallelism default False")),
                String.valueOf(assumptions(r.json())));
        PlanCli.Run on = PlanCli.in(dir.resolve("on")).file("cluster.yaml", PlanCli.LAB_H100)
                .file("neox.yml", NEOX.replace("\"precision\"", "\"sequence_parallel\": true,\n  \"precision\"")).jobClusters("lab", "*.yml")
                .planJson("--top", "1");
        assertEquals(true, PlanCli.map(PlanCli.map(on.json().get("current")).get("layout")).get("sequence_parallel"), on.out());
    }

    private static final String SFT = """
            name: sft
            resources:
              accelerators: H100:8
            num_nodes: 2
            run: |
              accelerate launch --config_file /cfg/fsdp2.yaml --num_machines 2 --num_processes 16 train.py --model_id meta-llama/Llama-3.1-8B
            """;

    @Test
    void anUnstatedZeroStageIsSaidWithTheUnreadConfiguration(@TempDir Path dir) {
        PlanCli.Run r = PlanCli.in(dir).file("sft.yaml", SFT).planJson("--top", "1");
        assertTrue(assumptions(r.json()).contains("ZeRO stage not stated: 0, every data-parallel rank holds the whole model states (no"
                + " zero_optimization.stage, distributed optimizer or FSDP sharding is written in the files read); the configuration the"
                + " launch names, /cfg/fsdp2.yaml, is not among the files read: its sharding (a DeepSpeed ZeRO stage, FSDP) is not known;"
                + " lint it with the job to price it"), r.out() + r.err());
    }

    @Test
    void aServingJobIsSaidToServeNotAskedForAShape(@TempDir Path dir) {
        for (String launch : List.of("python -m sglang.launch_server --model-path deepseek-ai/DeepSeek-R1 --tp 8 --port 30000",
                "vllm serve deepseek-ai/DeepSeek-R1 --tensor-parallel-size 8", "trtllm-serve deepseek-ai/DeepSeek-R1 --tp_size 8")) {
            String task = "name: serve\nresources:\n  accelerators: H100:8\nrun: |\n  " + launch + "\n";
            PlanCli.Run r = PlanCli.in(dir.resolve(String.valueOf(launch.hashCode() & 0xffff))).file("serve.yaml", task).plan();
            String said = r.out() + r.err();
            assertTrue(said.contains("starts an inference server: plan prices a training step (forward, backward, gradient reduction and"
                    + " optimizer), not serving, so it has nothing to price there"), said);
            assertFalse(said.contains("states no model shape"), said);
        }
    }
}
