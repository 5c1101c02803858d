package dev.gpulint.cli;

import static dev.gpulint.cli.PlanRankingTest.cluster;
import static dev.gpulint.cli.PlanRankingTest.job;
import static dev.gpulint.cli.PlanRankingTest.map;
import static dev.gpulint.cli.PlanRankingTest.plan;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.testing.PlanCli;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The native manifest's {@code parallelism.pipeline_layout} (Megatron-Core's --pipeline-model-parallel-layout): Megatron-Bridge
 * runs DeepSeek-V3 and Kimi-K2 (61 layers) at pp 4 × vp 4 with the layout "Et*4|(t*4|)*14tL" (the recipes'
 * _get_kimi_k2_pipeline_layout / DeepSeek-V3's layout map: the embedding and 4 layers, 14 chunks of 4, one layer and the
 * loss), published at 5,344 tokens/s/GPU on 256 GB300 (bench/plan/validation-2026b.tsv). 61 layers split into no 16 even
 * chunks, so without the layout PAR004 rejects a layout that ran; with it the plan prices each stage's own layers. A layout
 * that does not fit the job is SYN002 at its value, as Megatron-Core refuses it.
 */
class PipelineLayoutManifestTest {
    /** 61 transformer layers of a small dense model (the layout, not the shape, is under test). */
    private static final String MODEL = "{ dtype: bf16, layers: 61, hidden_size: 2048, attention_heads: 16, kv_heads: 8, "
            + "ffn_hidden_size: 8192, vocab_size: 128000, gated_mlp: true, tied_embeddings: false, seq_length: 4096 }";

    private static String text(String parallelism) {
        return cluster(2, "H100-SXM5-80GB") + job(2, MODEL, parallelism, "{ micro_batch_size: 1, global_batch_size: 64 }",
                "{ zero_stage: 1, distributed: true }", "none");
    }

    @Test
    @SuppressWarnings("unchecked")
    void kimiK2sLayoutAtPp4Vp4IsValidAndPricedStageByStage(@TempDir Path dir) throws IOException {
        Map<String, Object> doc = plan(dir, text("{ tp: 1, pp: 4, pipeline_layout: \"Et*4|(t*4|)*14tL\" }"), "--top", "1");
        Map<String, Object> cur = map(doc.get("current"));
        assertNotNull(cur.get("rank"), "a layout that ran is valid: rejected by " + cur.get("findings"));
        assertTrue(((List<Object>) cur.get("findings")).stream().map(String::valueOf).noneMatch(f -> f.contains("PAR004")), String.valueOf(cur.get("findings")));
        // the layout's 16 stages over pp 4: 4 virtual stages per rank
        assertEquals(4, map(cur.get("layout")).get("virtual_pp"));
        List<Map<String, Object>> stages = (List<Map<String, Object>>) map(cur.get("memory")).get("stages");
        assertEquals(4, stages.size());
        // rank 0 builds chunks 0, 4, 8, 12 (16 layers and the embedding), rank 1 chunks 1, 5, 9, 13 (16 layers), rank 3
        // chunks 3, 7, 11, 15 (4 + 4 + 4 + 1 = 13 layers and the output layer)
        double p1 = ((Number) stages.get(1).get("parameters")).doubleValue(), p2 = ((Number) stages.get(2).get("parameters")).doubleValue();
        double p0 = ((Number) stages.get(0).get("parameters")).doubleValue(), p3 = ((Number) stages.get(3).get("parameters")).doubleValue();
        double perLayer = p1 / 16, embedding = 128000.0 * 2048;
        assertEquals(p1, p2, p1 * 1e-9);
        assertEquals(16 * perLayer + embedding, p0, p0 * 1e-3);
        assertEquals(13 * perLayer + embedding, p3, p3 * 1e-3);
    }

    @Test
    void theSameJobWithoutItsLayoutIsPar004sEvenSplit(@TempDir Path dir) throws IOException {
        // the control: 61 layers on pp 4 × vp 4 as an even split, which Megatron-Core refuses (what the layout is for)
        Map<String, Object> cur = map(plan(dir, text("{ tp: 1, pp: 4, virtual_pp: 4 }"), "--top", "1").get("current"));
        assertNull(cur.get("rank"));
        assertTrue(String.valueOf(cur.get("findings")).contains("PAR004"), String.valueOf(cur.get("findings")));
    }

    @Test
    @SuppressWarnings("unchecked")
    void aLayoutThatDoesNotFitPpIsSyn002AtItsValue(@TempDir Path dir) throws IOException {
        String text = text("{ tp: 1, pp: 3, pipeline_layout: \"Et*4|(t*4|)*14tL\" }");
        Path file = dir.resolve("job.yaml");
        Files.writeString(file, text);
        PlanCli.Run run = PlanCli.run("check", "-f", "json", file.toString());
        List<Map<String, Object>> syn = ((List<Object>) run.json().get("findings")).stream().map(PlanCli::map)
                .filter(f -> "SYN002".equals(f.get("ruleId"))).toList();
        assertEquals(1, syn.size(), run.out());
        Map<String, Object> loc = map(syn.get(0).get("location"));
        int line = text.lines().toList().indexOf(text.lines().filter(l -> l.startsWith("parallelism:")).findFirst().orElseThrow()) + 1;
        assertEquals(line, loc.get("startLine"));
        assertEquals("parallelism: { tp: 1, pp: 3, pipeline_layout: ".length() + 1, loc.get("startColumn"));
        assertEquals("'pipeline_layout' is 'Et*4|(t*4|)*14tL': it has 16 stages, not a multiple of the pipeline size 3 (Megatron-Core:"
                + " \"pipeline_model_parallel_layout must be divisible by pipeline_model_parallel_size\"); the layout is left out of the"
                + " estimate.", syn.get(0).get("message"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void aVirtualPpThatDisagreesWithTheLayoutIsSyn002(@TempDir Path dir) throws IOException {
        String text = text("{ tp: 1, pp: 4, virtual_pp: 2, pipeline_layout: \"Et*4|(t*4|)*14tL\" }");
        Path file = dir.resolve("job.yaml");
        Files.writeString(file, text);
        PlanCli.Run run = PlanCli.run("check", "-f", "json", file.toString());
        List<String> messages = ((List<Object>) run.json().get("findings")).stream().map(PlanCli::map)
                .filter(f -> "SYN002".equals(f.get("ruleId"))).map(f -> String.valueOf(f.get("message"))).toList();
        assertEquals(List.of("'pipeline_layout' is 'Et*4|(t*4|)*14tL': its 16 stages over pp 4 are 4 virtual stages per rank, and"
                + " virtual_pp is 2 (Megatron-Core takes the virtual stages from the layout); the layout is left out of the estimate."), messages);
    }
}
