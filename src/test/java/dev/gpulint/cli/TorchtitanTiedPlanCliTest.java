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
 * torchtitan refuses a tied model over more than one pipeline stage (PAR019: qwen3 model.py's init_weights asserts one
 * stage holds tok_embeddings and output; later versions raise "Weight tying is not supported with Pipeline Parallel."), so
 * {@code gpulint plan} proposes no pp > 1 layout for a tied flavor, and rejects none for that reason for an untied one.
 */
class TorchtitanTiedPlanCliTest {

    private static String toml(String flavor) {
        return """
                [model]
                name = "qwen3"
                flavor = "%s"

                [training]
                local_batch_size = 4
                global_batch_size = 64
                seq_len = 4096

                [parallelism]
                data_parallel_shard_degree = -1
                pipeline_parallel_degree = 2
                """.formatted(flavor);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> plan(Path dir, String flavor) {
        return PlanCli.in(dir).file("cluster.yaml", PlanCli.LAB_H100).file("qwen3.toml", toml(flavor))
                .jobClusters("lab", "*.toml").planJson("--gpus", "16").json();
    }

    @Test
    @SuppressWarnings("unchecked")
    void aTiedFlavorGetsNoPipelineLayout(@TempDir Path dir) {
        Map<String, Object> doc = plan(dir, "0.6B");
        Map<String, Object> rejected = PlanCli.map(doc.get("rejected"));
        assertTrue(((Number) rejected.getOrDefault("PAR019", 0)).intValue() > 0, "PAR019 rejects pp > 1: " + rejected);
        List<Object> candidates = (List<Object>) doc.get("candidates");
        assertFalse(candidates.isEmpty(), "the pp 1 layouts are ranked");
        for (Object c : candidates) {
            assertEquals(1, ((Number) PlanCli.map(PlanCli.map(c).get("layout")).get("pp")).intValue(), "a candidate: " + c);
        }
    }

    @Test
    void anUntiedFlavorIsNotRejectedForIt(@TempDir Path dir) {
        Map<String, Object> rejected = PlanCli.map(plan(dir, "8B").get("rejected"));
        assertFalse(rejected.containsKey("PAR019"), "Qwen3 8B is untied: " + rejected);
    }
}
