package dev.gpulint.derive.estimate;

import static dev.gpulint.derive.estimate.MtpJobs.script;
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
 * A Megatron-LM script's {@code --cross-entropy-loss-fusion --cross-entropy-fusion-impl te} through `gpulint plan`: the last
 * stage's activations are priced with Transformer Engine's loss (LossKernel, MemoryModel.lossBytes) and the assumptions say so.
 * By hand, MtpJobs' script (s 2,048, b 1, V 32,000, tp 2, pp 2, bf16, 1 MTP layer: the main loss and the MTP loss on the last
 * stage): native 2·(4·s·b·h + 4·s·b·V) ÷ tp + 2·s·b·V ÷ tp, TE 2·(4·s·b·h + 2·s·b·V) ÷ tp, 6·s·b·V ÷ tp = 196,608,000 bytes
 * less, and nothing less on stage 0.
 */
class TeCrossEntropyPlanTest {

    @Test
    @SuppressWarnings("unchecked")
    void theLastStageHoldsTransformerEnginesLossAndThePlanSaysSo(@TempDir Path nativeDir, @TempDir Path te) {
        Map<String, Object> nat = current(PlanCli.in(nativeDir).file("cluster.yaml", PlanCli.LAB_H100)
                .file("train.sh", script(1, "", 2)).jobClusters("lab", "*.sh").planJson().json());
        PlanCli teCli = PlanCli.in(te).file("cluster.yaml", PlanCli.LAB_H100)
                .file("train.sh", script(1, " --cross-entropy-loss-fusion --cross-entropy-fusion-impl te", 2)).jobClusters("lab", "*.sh");
        Map<String, Object> doc = teCli.planJson().json();
        Map<String, Object> fused = current(doc);
        assertEquals(6.0 * 2048 * 32000 / 2, activations(nat, 1) - activations(fused, 1), 2, "the last stage: 196,608,000 bytes less");
        assertEquals(activations(nat, 0), activations(fused, 0), 0, "stage 0 computes no loss");
        List<Object> assumptions = (List<Object>) doc.get("assumptions");
        assertTrue(assumptions.stream().map(String::valueOf).anyMatch(a -> a.contains("Transformer Engine's fused cross-entropy")
                && a.contains("(4·s·b·h + 2·s·b·V) ÷ tp")), String.valueOf(assumptions));
        Map<String, Object> natDoc = PlanCli.in(nativeDir).file("cluster.yaml", PlanCli.LAB_H100).file("train.sh", script(1, "", 2))
                .jobClusters("lab", "*.sh").planJson().json();
        assertFalse(((List<Object>) natDoc.get("assumptions")).stream().map(String::valueOf)
                .anyMatch(a -> a.contains("Transformer Engine's fused cross-entropy")), "the native loss says nothing of TE");
    }

    /**
     * The native manifest's {@code model.loss.kernel} says what the Megatron flags say: {@code te} prices the last stage as the
     * script with --cross-entropy-loss-fusion --cross-entropy-fusion-impl te, {@code native} (and unfused) as the script without
     * them, stage by stage; and the assumptions name Transformer Engine's loss only for {@code te}.
     */
    @Test
    @SuppressWarnings("unchecked")
    void theNativeManifestsLossKernelIsPricedAsTheMegatronFlags(@TempDir Path a, @TempDir Path b, @TempDir Path c, @TempDir Path d) {
        Map<String, Object> teScript = PlanCli.in(a).file("cluster.yaml", PlanCli.LAB_H100)
                .file("train.sh", script(1, " --cross-entropy-loss-fusion --cross-entropy-fusion-impl te", 2)).jobClusters("lab", "*.sh")
                .planJson().json();
        Map<String, Object> plainScript = PlanCli.in(b).file("cluster.yaml", PlanCli.LAB_H100).file("train.sh", script(1, "", 2))
                .jobClusters("lab", "*.sh").planJson().json();
        Map<String, Object> te = PlanCli.in(c).file("all.yaml", manifest("te")).planJson().json();
        Map<String, Object> nat = PlanCli.in(d).file("all.yaml", manifest("native")).planJson().json();
        for (int stage = 0; stage < 2; stage++) {
            assertEquals(activations(current(teScript), stage), activations(current(te), stage), 0.5, "te, stage " + stage);
            assertEquals(activations(current(plainScript), stage), activations(current(nat), stage), 0.5, "native, stage " + stage);
        }
        assertEquals(6.0 * 2048 * 32000 / 2, activations(current(nat), 1) - activations(current(te), 1), 2, "the last stage: 196,608,000 bytes less");
        assertTrue(((List<Object>) te.get("assumptions")).stream().map(String::valueOf)
                .anyMatch(x -> x.contains("Transformer Engine's fused cross-entropy")), String.valueOf(te.get("assumptions")));
        assertFalse(((List<Object>) nat.get("assumptions")).stream().map(String::valueOf)
                .anyMatch(x -> x.contains("Transformer Engine's fused cross-entropy")), "native: nothing of TE");
    }

    /** MtpJobs' model in the native manifest at tp 2, pp 2, ep 2 on {@code lab}, its loss kernel {@code kernel}. */
    private static String manifest(String kernel) {
        return PlanCli.LAB_H100 + """
                ---
                kind: training_job
                name: j
                cluster: lab
                node_group: dgx
                nodes: 2
                gpus_per_node: 8
                model: { %s, loss: { kernel: %s } }
                parallelism: { tp: 2, pp: 2, ep: 2 }
                batch: { micro_batch_size: 1, global_batch_size: 64 }
                optimizer: { distributed: true }
                """.formatted(MtpJobs.model(false, MtpJobs.FIRST_DENSE, 1), kernel);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> current(Map<String, Object> doc) {
        return PlanCli.map(doc.get("current"));
    }

    @SuppressWarnings("unchecked")
    private static double activations(Map<String, Object> current, int stage) {
        List<Map<String, Object>> stages = (List<Map<String, Object>>) PlanCli.map(current.get("memory")).get("stages");
        return ((Number) stages.get(stage).get("activations_bytes")).doubleValue();
    }
}
