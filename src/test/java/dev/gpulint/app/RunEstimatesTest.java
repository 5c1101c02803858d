package dev.gpulint.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.derive.estimate.JobEstimate;
import dev.gpulint.lint.RunOutcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run carries each job's estimate beside its facts (RunOutcome.estimates), not among them: the facts, which are what
 * the rule engine's session holds, have no JobEstimate, and plan prices the job from the run's estimates.
 */
class RunEstimatesTest {

    private static final String CLUSTER = """
            kind: cluster
            name: pod
            fabric: { type: infiniband, topology: rail-optimized }
            node_groups:
              - name: dgx
                count: 2
                gpu: { model: H100-SXM5-80GB, count: 8 }
                nvlink: { switch: true, bandwidth: 900 GB/s, direction: bidirectional }
                nics:
                  - { model: ConnectX-7, count: 8, speed: 400 Gb/s, protocol: infiniband, gpudirect_rdma: true }
            """;

    private static String job(String name) {
        return """
                kind: training_job
                name: NAME
                cluster: pod
                nodes: 2
                model: { dtype: bf16, layers: 32, hidden_size: 4096, attention_heads: 32, ffn_hidden_size: 11008, vocab_size: 32000,
                         gated_mlp: true, seq_length: 4096 }
                parallelism: { tp: 8, pp: 1 }
                batch: { micro_batch_size: 1, global_batch_size: 256 }
                """.replace("NAME", name);
    }

    private static CheckRequest request(Path dir) {
        return new Project(dir).paths(List.of(dir.toString())).request();
    }

    @Test
    void theRunCarriesOneEstimatePerJobInOrderAndNoneAmongTheFacts(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("pod.yaml"), CLUSTER + "---\n" + job("first") + "---\n" + job("second"));
        RunOutcome run = Checks.check(request(dir));
        assertEquals(List.of("first", "second"), run.estimates().stream().map(e -> e.job().name()).toList());
        assertFalse(run.facts().stream().anyMatch(f -> f instanceof JobEstimate), "no estimate among the facts");
        Checks.Planned p = Checks.plan(request(dir), "second", 0, 0);
        assertNull(p.plan().problem());
        assertEquals("second", p.plan().plan().current().job().name());
        assertEquals("more than one job: choose one with --job (first, second)", Checks.plan(request(dir), null, 0, 0).plan().problem());
    }

    @Test
    void aJobWithoutAClusterHasNoEstimateAndPlanSaysWhy(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("job.yaml"), job("alone").replace("cluster: pod\n", ""));
        RunOutcome run = Checks.check(request(dir));
        assertEquals(List.of(), run.estimates());
        String problem = Checks.plan(request(dir), null, 0, 0).plan().problem();
        assertNotNull(problem);
        assertTrue(problem.startsWith("nothing to plan: job 'alone' runs on no cluster node group gpulint knows: "), problem);
    }
}
