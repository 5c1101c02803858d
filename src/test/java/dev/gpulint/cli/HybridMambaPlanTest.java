package dev.gpulint.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.testing.PlanCli;
import dev.gpulint.testing.Recipes;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The plan proposes no layout Megatron-Core's MambaMixer refuses: on a GB200 NVL72 rack (one 72-GPU NVLink domain) tp 16
 * keeps each tensor-parallel group inside NVLink, but a Nemotron-H mixer's 8 groups do not split over 16 ranks
 * (megatron/core/ssm/mamba_mixer.py: "ngroups must be evenly divisible by tp_size"), so PAR015 rejects it as it rejects any
 * layout a rule's error is about. The same model as a plain transformer (no --is-hybrid-model) keeps tp 16 among its
 * candidates: the groups are what rejects it.
 */
class HybridMambaPlanTest {

    /** 16 GB200 trays of 4 GPUs in one NVL72 rack's NVLink domain (64 GPUs), 4 ConnectX-7 each. */
    static final String RACK = """
            kind: cluster
            name: rack
            fabric: { type: infiniband }
            node_groups:
              - name: gb200
                count: 16
                gpu: { model: GB200, count: 4 }
                nvlink: { switch: true, domain_size: 72 }
                nics:
                  - { model: ConnectX-7, count: 4, speed: 400 Gb/s, protocol: infiniband }
            """;

    /** A Nemotron-H-8B-shaped Megatron job (52 layers, 128 Mamba heads, the default 8 groups) at {@code tp}; hybrid or not. */
    private static String job(int tp, boolean hybrid) {
        Recipes.ModelArgs job = Recipes.nemotronH8b(tp);
        return (hybrid ? job : job.without("--is-hybrid-model").without("--hybrid-layer-pattern").without("--mamba-num-heads")).yaml();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> plan(Path dir, int tp, boolean hybrid) {
        return PlanCli.in(dir).file("cluster.yaml", RACK).file("tests/nemotronh/model_config.yaml", job(tp, hybrid))
                .jobClusters("rack", "tests/nemotronh/model_config.yaml").planJson("--top", "200").json();
    }

    @SuppressWarnings("unchecked")
    private static List<Integer> tps(Map<String, Object> doc) {
        return ((List<Object>) doc.get("candidates")).stream().map(c -> (Integer) PlanCli.map(PlanCli.map(c).get("layout")).get("tp")).toList();
    }

    @Test
    @SuppressWarnings("unchecked")
    void tp16IsNotProposedForAHybridWhoseEightGroupsItDoesNotDivide(@TempDir Path dir) {
        Map<String, Object> doc = plan(dir, 16, true);
        // the job as written: tp 16 is refused by MambaMixer, and the plan says which rule rejects it
        Map<String, Object> cur = PlanCli.map(doc.get("current"));
        assertTrue(String.valueOf(cur.get("rejected_by")).contains("PAR015"), cur.toString());
        Map<String, Object> rejected = (Map<String, Object>) doc.get("rejected");
        assertTrue(((Number) rejected.getOrDefault("PAR015", 0)).intValue() > 0, rejected.toString());
        List<Integer> tps = tps(doc);
        assertFalse(tps.isEmpty(), "tp 1 to 8 are still proposed");
        // the 200 best (every one shown when fewer)
        for (int t : tps) assertTrue(8 % t == 0, "proposed tp " + t + ": MambaMixer refuses a tp that does not divide 8 groups");
    }

    @Test
    @SuppressWarnings("unchecked")
    void theSameModelAsATransformerKeepsTp16(@TempDir Path dir) {
        Map<String, Object> doc = plan(dir, 16, false);
        Map<String, Object> rejected = (Map<String, Object>) doc.get("rejected");
        assertFalse(rejected.containsKey("PAR015"), rejected.toString());
        // the job as written at tp 16 is valid and ranked: tp 16 fits the rack's NVLink domain and the attention heads
        Map<String, Object> cur = PlanCli.map(doc.get("current"));
        assertTrue(cur.get("rank") != null, cur.toString());
    }
}
