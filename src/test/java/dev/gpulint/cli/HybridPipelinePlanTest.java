package dev.gpulint.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.testing.PlanCli;
import dev.gpulint.testing.Recipes;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The plan prices a hybrid pattern's '|' segments as the job's stages (Megatron-Core's select_pipeline_segment builds one
 * segment per stage): our own Nemotron-H-8B-shaped Megatron job (52 layers of Mamba-2, attention and MLP) on pp 2, the
 * pattern cut after its 26th, 28th or 24th layer. The cut at 26 is Megatron's even split and prices as the pattern without
 * '|'; moving the cut by one Mamba-2 and one MLP layer either way moves the same parameters from one stage to the other.
 */
class HybridPipelinePlanTest {
    private static final String PATTERN = Recipes.NEMOTRON_H_8B_PATTERN;

    /** testing.Recipes.nemotronH8b at tp 4 and pp 2, its pattern {@code pattern}, without --is-hybrid-model (the pattern says it). */
    private static String job(String pattern) {
        return Recipes.nemotronH8b(4).set("--pipeline-model-parallel-size", 2).without("--is-hybrid-model").pattern(pattern).yaml();
    }

    /** The pattern cut after its {@code cut}-th layer (0: not cut). */
    private static String cut(int cut) {
        return cut == 0 ? PATTERN : PATTERN.substring(0, cut) + "|" + PATTERN.substring(cut);
    }

    private static Map<String, Object> doc(Path dir, int cut) {
        return PlanCli.in(dir.resolve("cut" + cut)).file("cluster.yaml", PlanCli.LAB_H100)
                .file("tests/nemotronh/model_config.yaml", job(cut(cut))).jobClusters("lab", "tests/nemotronh/model_config.yaml")
                .planJson("--top", "1").json();
    }

    private static Map<String, Object> current(Path dir, int cut) {
        Map<String, Object> cur = PlanCli.map(doc(dir, cut).get("current"));
        assertNotNull(cur.get("rank"), "the job as written is valid: rejected by " + cur.get("rejected_by"));
        return cur;
    }

    @Test
    @SuppressWarnings("unchecked")
    void theAssumptionsSayWhichSplitIsPriced(@TempDir Path dir) {
        List<Object> as = (List<Object>) doc(dir, 28).get("assumptions");
        assertTrue(as.contains("layers over the pipeline: 28, 24 on the ranks in turn (2 stages laid out layer by layer),"
                + " as Megatron-Core's select_pipeline_segment builds the hybrid pattern's '|' segments"), as.toString());
    }

    @SuppressWarnings("unchecked")
    private static long[] parameters(Map<String, Object> cur) {
        List<Object> stages = (List<Object>) PlanCli.map(cur.get("memory")).get("stages");
        assertEquals(2, stages.size());
        return new long[] {((Number) PlanCli.map(stages.get(0)).get("parameters")).longValue(),
                ((Number) PlanCli.map(stages.get(1)).get("parameters")).longValue()};
    }

    @Test
    void theSegmentsAreTheStagesLayersAndEachStagesParameters(@TempDir Path dir) {
        Map<String, Object> even = current(dir, 0), half = current(dir, 26), more = current(dir, 28), fewer = current(dir, 24);
        assertNull(PlanCli.map(even.get("layout")).get("stage_layers"), "no '|': Megatron's even split");
        assertEquals(List.of(26, 26), PlanCli.map(half.get("layout")).get("stage_layers"));
        assertEquals(List.of(28, 24), PlanCli.map(more.get("layout")).get("stage_layers"));
        assertEquals(List.of(24, 28), PlanCli.map(fewer.get("layout")).get("stage_layers"));
        long[] e = parameters(even), h = parameters(half), m = parameters(more), f = parameters(fewer);
        // cut where Megatron's even split cuts: the same stages
        assertEquals(e[0], h[0]);
        assertEquals(e[1], h[1]);
        // layers 27-28 ("M-") move to the first stage, or layers 25-26 ("M-" too) to the last: the same parameters move
        long gained = m[0] - h[0], lost = h[0] - f[0];
        assertTrue(gained > 0, "the first stage holds two more layers: " + m[0] + " vs " + h[0]);
        assertTrue(Math.abs(gained - lost) <= 2, "one Mamba-2 and one MLP layer either way: " + gained + " vs " + lost);
        assertTrue(Math.abs((m[1] - h[1]) + gained) <= 2, "what the first stage gains the last loses: " + (h[1] - m[1]) + " vs " + gained);
    }
}
