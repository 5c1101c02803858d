package dev.gpulint.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.testing.PlanCli;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 35: a gpt-neox job whose pipe-parallel-size does not divide num-layers runs (DeepSpeed's PipelineModule balances
 * the transformer blocks, 30 over 4 as 8 8 7 7), so `plan` keeps it valid, with no PAR004, and prices the split DeepSpeed
 * makes: the busiest stage's 8 blocks, not the average 7.5.
 */
class GptNeoxUnevenPipelinePlanTest {
    private static final String NEOX = """
            # gpt-neox: 30 layers over 4 pipeline stages on 2 nodes of 8
            {
              "pipe-parallel-size": 4,
              "model-parallel-size": 2,
              "num-layers": 30,
              "hidden-size": 4096,
              "num-attention-heads": 32,
              "seq-length": 2048,
              "max-position-embeddings": 2048,
              "precision": "bfloat16",
              "train_batch_size": 16,
              "train_micro_batch_size_per_gpu": 1,
              "gradient_accumulation_steps": 8,
              "num_gpus": 8,
              "num_nodes": 2
            }
            """;

    @Test
    @SuppressWarnings("unchecked")
    void thirtyLayersOverFourStagesAreValidAndPricedAsDeepSpeedSplitsThem(@TempDir Path dir) {
        PlanCli.Run r = PlanCli.in(dir).file("cluster.yaml", PlanCli.LAB_H100).file("neox.yml", NEOX).jobClusters("lab", "*.yml")
                .planJson("--top", "1");
        Map<String, Object> doc = r.json();
        Map<String, Object> cur = PlanCli.map(doc.get("current"));
        assertNotNull(cur.get("rank"), "a layout gpt-neox runs is valid: rejected by " + cur.get("rejected_by") + "\n" + r.out());
        List<Object> findings = (List<Object>) cur.get("findings");
        assertTrue(findings == null || findings.stream().map(String::valueOf).noneMatch(f -> f.contains("PAR004")), String.valueOf(findings));
        assertEquals(List.of(8, 8, 7, 7), PlanCli.map(cur.get("layout")).get("stage_layers"), r.out());
        List<Map<String, Object>> stages = (List<Map<String, Object>>) PlanCli.map(cur.get("memory")).get("stages");
        assertEquals(4, stages.size());
        // the middle stages hold blocks only: 8 on stage 1, 7 on stage 2
        double p1 = ((Number) stages.get(1).get("parameters")).doubleValue(), p2 = ((Number) stages.get(2).get("parameters")).doubleValue();
        assertEquals(8.0 / 7, p1 / p2, 1e-6);
        assertTrue(((List<Object>) doc.get("assumptions")).stream().map(String::valueOf).anyMatch(a -> a.startsWith(
                "pipe-partition-method not written, gpt-neox's \"type:transformer|mlp\": DeepSpeed's partition_balanced splits the 30"
                        + " transformer blocks over pp 4 so that no stage holds more than ⌈30 ÷ 4⌉ = 8; priced as 2 stages of 8 first")),
                String.valueOf(doc.get("assumptions")));
        // the split's line names DeepSpeed's partition, not Megatron-Core's builder
        assertTrue(((List<Object>) doc.get("assumptions")).stream().map(String::valueOf).anyMatch(a -> a.startsWith("layers over the pipeline: ")
                && a.endsWith(", as DeepSpeed's PipelineModule partitions them (pipe-partition-method; PipePartition)")),
                String.valueOf(doc.get("assumptions")));
        assertTrue(((List<Object>) doc.get("assumptions")).stream().map(String::valueOf).noneMatch(a -> a.contains("get_num_layers_to_build")),
                String.valueOf(doc.get("assumptions")));
    }

    @Test
    @SuppressWarnings("unchecked")
    void theSearchRanksUnevenPipelinesPricedWithDeepSpeedsSplit(@TempDir Path dir) {
        // the job runs 30 layers at pp 2 (even); pp 4 and pp 8 do not divide 30, yet DeepSpeed runs them (8 8 7 7; 4×6 3 3):
        // the search ranks them, each priced with that split, not the average of 7.5 or 3.75 blocks a stage
        PlanCli.Run r = PlanCli.in(dir).file("cluster.yaml", PlanCli.LAB_H100)
                .file("neox.yml", NEOX.replace("\"pipe-parallel-size\": 4", "\"pipe-parallel-size\": 2"))
                .jobClusters("lab", "*.yml").planJson("--top", "1000");
        Map<String, Object> doc = r.json();
        assertEquals(2, PlanCli.map(PlanCli.map(doc.get("current")).get("layout")).get("pp"), r.out());
        List<Map<String, Object>> layouts = ((List<Object>) doc.get("candidates")).stream()
                .map(c -> PlanCli.map(PlanCli.map(c).get("layout"))).toList();
        List<Map<String, Object>> pp4 = layouts.stream().filter(l -> Integer.valueOf(4).equals(l.get("pp"))).toList();
        List<Map<String, Object>> pp8 = layouts.stream().filter(l -> Integer.valueOf(8).equals(l.get("pp"))).toList();
        assertTrue(!pp4.isEmpty() && !pp8.isEmpty(), "uneven pipelines are ranked: " + layouts);
        for (Map<String, Object> l : pp4) assertEquals(List.of(8, 8, 7, 7), l.get("stage_layers"), l.toString());
        for (Map<String, Object> l : pp8) assertEquals(List.of(4, 4, 4, 4, 4, 4, 3, 3), l.get("stage_layers"), l.toString());
        // an even pp keeps the even split: no stage list
        layouts.stream().filter(l -> Integer.valueOf(2).equals(l.get("pp"))).forEach(l -> assertEquals(null, l.get("stage_layers"), l.toString()));
    }
}
