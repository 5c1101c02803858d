package dev.gpulint.derive.estimate;

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
 * A Megatron-LM script stating {@code --moe-token-dispatcher-type flex} through `gpulint plan` on two DGX H100
 * ({@link PlanCli#LAB_H100}): an ep-16 group over both nodes is priced as DeepEP moves tokens (FlexDispatch), the
 * group-limited routing flags are read, and the assumptions say so; the same script with alltoall is priced as before and
 * says nothing of flex.
 */
class FlexDispatchPlanTest {

    static String script(String dispatcher, String more) {
        return """
                #!/bin/bash
                torchrun --nnodes 2 --nproc_per_node 8 pretrain_gpt.py \\
                  --num-layers 4 --hidden-size 2048 --num-attention-heads 16 --ffn-hidden-size 768 --swiglu \\
                  --num-experts 64 --moe-router-topk 8 --moe-grouped-gemm --moe-token-dispatcher-type %s%s \\
                  --untie-embeddings-and-output-weights --vocab-size 32000 --make-vocab-size-divisible-by 128 --seq-length 4096 \\
                  --tensor-model-parallel-size 1 --pipeline-model-parallel-size 1 --expert-model-parallel-size 16 \\
                  --use-distributed-optimizer --micro-batch-size 1 --global-batch-size 64 --bf16
                """.formatted(dispatcher, more);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> doc(Path dir, String sh) {
        return PlanCli.in(dir).file("cluster.yaml", PlanCli.LAB_H100).file("train.sh", sh).jobClusters("lab", "*.sh").planJson().json();
    }

    static double ep(Map<String, Object> doc) {
        Map<String, Object> time = PlanCli.map(PlanCli.map(doc.get("current")).get("time"));
        return ((Number) PlanCli.map(time.get("comm_s")).get("ep")).doubleValue();
    }

    @SuppressWarnings("unchecked")
    static List<String> assumptions(Map<String, Object> doc) {
        return ((List<Object>) doc.get("assumptions")).stream().map(String::valueOf).toList();
    }

    @Test
    void flexAcrossTwoNodesIsPricedAsDeepEpMovesTokensAndSaysSo(@TempDir Path a, @TempDir Path f, @TempDir Path g) {
        Map<String, Object> a2a = doc(a, script("alltoall", ""));
        Map<String, Object> flex = doc(f, script("flex", ""));
        Map<String, Object> grouped = doc(g, script("flex", " --moe-router-num-groups 8 --moe-router-group-topk 2"));
        // the all-to-all sends 8 · 8/16 = 4 copies of a token through each NIC; DeepEP 2·(1 − C(32, 8)/C(64, 8))/2 ≈ 1: far less
        assertTrue(ep(flex) < ep(a2a) / 3, ep(flex) + " vs " + ep(a2a));
        // 8 groups of 8 experts, 4 a node, top-2: 2 · Σ_j H(j; 8, 4, 2)·(1 − C(16 − 8j, 8)/C(16, 8)); j = 1 of the two groups on a
        // node with chance 4·4/28, both 6/28: E[nodes] = 2 · (16/28 · (1 − 1/12,870) + 6/28) ≈ 1.5713 against 1.9997 unlimited
        assertTrue(ep(grouped) < ep(flex), ep(grouped) + " vs " + ep(flex));
        assertEquals(2 * (16.0 / 28 * (1 - 1.0 / 12870) + 6.0 / 28), FlexDispatch.expectedUnits(64, 8, 2, 8, 2), 1e-12);
        assertTrue(assumptions(grouped).stream().anyMatch(s -> s.startsWith("MoE flex dispatcher (DeepEP / HybridEP)")
                && s.contains("group-limited to 2 of 8 groups")), "" + assumptions(grouped));
        assertTrue(assumptions(flex).stream().anyMatch(s -> s.startsWith("MoE flex dispatcher (DeepEP / HybridEP)")
                && s.contains("no group limit stated")), "" + assumptions(flex));
        assertFalse(assumptions(a2a).stream().anyMatch(s -> s.contains("flex dispatcher")), "" + assumptions(a2a));
    }

    @Test
    void theTextPlanPrintsTheFlexTermWithItsNumbers(@TempDir Path dir) {
        PlanCli.Run r = PlanCli.in(dir).file("cluster.yaml", PlanCli.LAB_H100).file("train.sh", script("flex", ""))
                .jobClusters("lab", "*.sh").plan();
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("flex dispatch/combine per micro-batch over 16 ranks on 2 nodes of 8 (DeepEP, FlexDispatch)"), r.out());
        assertTrue(r.out().contains("times over RDMA (the all-to-all: k·(n − L)/n = 4.00)"), r.out());
    }

    @Test
    void theBackendFlagIsReadAndNamed(@TempDir Path d, @TempDir Path h) {
        // --moe-flex-dispatcher-backend (Megatron-LM): on DGX H100 nodes of 8 both backends cross nodes alike; the words name it
        Map<String, Object> deep = doc(d, script("flex", ""));
        Map<String, Object> hybrid = doc(h, script("flex", " --moe-flex-dispatcher-backend hybridep"));
        assertEquals(ep(deep), ep(hybrid), 0);
        assertTrue(assumptions(hybrid).stream().anyMatch(s -> s.startsWith("MoE flex dispatcher (DeepEP / HybridEP), backend hybridep;")),
                "" + assumptions(hybrid));
        assertTrue(assumptions(deep).stream().anyMatch(s -> s.startsWith("MoE flex dispatcher (DeepEP / HybridEP), backend not stated:"
                + " deepep, Megatron-Core's default")), "" + assumptions(deep));
    }
}
