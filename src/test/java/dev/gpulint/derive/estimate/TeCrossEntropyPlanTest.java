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
