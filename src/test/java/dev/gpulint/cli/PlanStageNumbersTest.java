package dev.gpulint.cli;

import static dev.gpulint.cli.PlanRankingTest.cluster;
import static dev.gpulint.cli.PlanRankingTest.job;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.testing.PlanCli;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stage numbers as `gpulint plan` prints them: counted from 1 in the text and markdown memory tables, the ranking's
 * "(stage N)" and the "no layout is valid" sentence ("stage 2 of 2" is the last), as check's MEM003 names them; the
 * JSON's {@code stage} stays the 0-based index PLAN.md specifies. Each case makes the last stage the one named, so a
 * 0-based number ("stage 1" for the last) fails it.
 */
class PlanStageNumbersTest {

    /** Llama 2 70B's public shape, split unevenly on pp 2: 30 layers first, 50 on the last stage, which holds the most. */
    static final String UNEVEN = "{ tp: 8, pp: 2, sequence_parallel: true, first_stage_layers: 30 }";

    static String uneven(int nodes, String optimizer) {
        return cluster(nodes, "H100-SXM5-80GB") + job(nodes, PlanRankingTest.LLAMA2_70B, UNEVEN,
                "{ micro_batch_size: 1, global_batch_size: 512 }", optimizer, "selective");
    }

    @Test
    void theMemoryTableAndTheRankingNumberTheLastStageTwoOfTwoAndTheJsonKeepsItsIndex(@TempDir Path dir) {
        String text = uneven(4, "{ type: adam, distributed: true }");
        PlanCli.Run plain = PlanCli.in(dir.resolve("text")).file("job.yaml", text).plan("--top", "1");
        assertEquals(0, plain.code(), plain.err() + plain.out());
        assertTrue(plain.out().contains("\n  stage 1   3.24B parameters: weights 6.48 GB"), plain.out());
        assertTrue(plain.out().contains("\n  stage 2   5.38B parameters: weights 10.76 GB + gradients 21.53 GB + optimizer 32.29 GB"
                + " + activations 7.56 GB = 72.14 GB\n"), plain.out());
        assertTrue(plain.out().contains("74.38 s  72.14 GB (stage 2)\n"), "the current layout's row names its fullest stage, the last: "
                + plain.out());

        PlanCli.Run md = PlanCli.in(dir.resolve("md")).file("job.yaml", text).plan("-f", "markdown", "--top", "1");
        assertEquals(0, md.code(), md.err() + md.out());
        assertTrue(md.out().contains("\n| 1 | 6.48 GB | 12.97 GB | 19.45 GB | 8.94 GB | 47.85 GB | yes |\n"), md.out());
        assertTrue(md.out().contains("\n| 2 | 10.76 GB | 21.53 GB | 32.29 GB | 7.56 GB | 72.14 GB | yes |\n"), md.out());
        assertTrue(md.out().contains("| 74.38 s | 72.14 GB (stage 2) |\n"), md.out());

        Map<String, Object> doc = PlanCli.in(dir.resolve("json")).file("job.yaml", text).planJson("--top", "1").json();
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> stages = (List<Map<String, Object>>) PlanCli.map(PlanCli.map(doc.get("current")).get("memory")).get("stages");
        assertEquals(List.of(0, 1), stages.stream().map(s -> s.get("stage")).toList(), "PLAN.md's 0-based index");
        assertTrue(((Number) stages.get(1).get("parameters")).doubleValue() > ((Number) stages.get(0).get("parameters")).doubleValue(),
                "index 1 is the 50-layer stage the text calls stage 2");
    }

    @Test
    void checkAndPlanNameTheSameStageOfAnUnevenSplitThatDoesNotFit(@TempDir Path dir) {
        PlanCli.Run plan = PlanCli.in(dir.resolve("plan")).file("job.yaml", uneven(2, "{ type: adam }")).plan("--top", "1");
        assertTrue(plan.out().contains("\n  stage 2   5.38B parameters: weights 10.76 GB + gradients 21.53 GB + optimizer 64.58 GB"
                + " + activations 7.56 GB = 104.43 GB  DOES NOT FIT\n"), plan.out());
        Path d = dir.resolve("check");
        PlanCli.in(d).file("job.yaml", uneven(2, "{ type: adam }"));
        PlanCli.Run check = PlanCli.run("check", d.resolve("job.yaml").toString());
        // the model states alone overflow that stage: MEM001 judges the plan's stage (10.76 + 21.53 + 64.58 GB), not the mean
        assertTrue(check.out().contains("error: model states need 96.87 GB per GPU: pipeline stage 2 of 2, the stage with the most"
                + " model states of those gpulint plan prices, 5.381B parameters on each GPU before sharding"), check.out());
    }

    @Test
    void theNoValidLayoutSentenceNumbersTheStageItNamesFromOne(@TempDir Path dir) {
        // a 262,144-word vocabulary makes the output layer's stage, the last, the leanest layout's fullest in model states
        String model = PlanRankingTest.LLAMA2_70B.replace("vocab_size: 32000", "vocab_size: 262144");
        String text = cluster(2, "H100-SXM5-80GB") + job(2, model, "{ tp: 8, pp: 2, sequence_parallel: true }",
                "{ micro_batch_size: 1, global_batch_size: 512 }", "{ type: adam }", "selective");
        String sentence = "holds 81.84 GB of model states per GPU on stage 2 of 2 (weights 9.09 GB + gradients 18.19 GB + optimizer 54.56 GB)";
        PlanCli.Run plain = PlanCli.in(dir.resolve("text")).file("job.yaml", text).plan();
        assertTrue(plain.out().contains(sentence), plain.out());
        PlanCli.Run md = PlanCli.in(dir.resolve("md")).file("job.yaml", text).plan("-f", "markdown");
        assertTrue(md.out().contains(sentence), md.out());
        Map<String, Object> doc = PlanCli.in(dir.resolve("json")).file("job.yaml", text).planJson().json();
        assertTrue(((String) PlanCli.map(doc.get("infeasible")).get("reason")).contains(sentence), doc.toString());
    }
}
