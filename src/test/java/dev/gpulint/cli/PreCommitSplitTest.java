package dev.gpulint.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.testing.PlanCli;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import dev.gpulint.testing.CpuLimit;

/**
 * pre-commit splits a long list of staged files over several processes (about 2,500 names or more),
 * so a job and its cluster can land in different runs. A job whose cluster is in none of its run's
 * files finds it among the project's manifests (no {@code include:} configured), and gets no false
 * SYN003. The split is simulated by calling the CLI twice with the two halves of the list.
 */
class PreCommitSplitTest {

    @AfterEach
    void restore() { Main.workingDir = Path.of(""); }

    static final String CLUSTER = """
            kind: cluster
            name: pod
            fabric: { type: infiniband }
            node_groups:
              - { name: dgx, count: 2, gpu: { model: H100-SXM5-80GB, count: 8 }, nvlink: { switch: true } }
            """;

    @Test
    @CpuLimit(seconds = 120)
    void sixThousandJobsAndTheirClusterSplitOverTwoRuns(@TempDir Path repo) throws IOException {
        Files.createDirectories(repo.resolve(".git"));          // the project root: no .gpulint.yaml, no include
        Files.createDirectories(repo.resolve("clusters"));
        Files.createDirectories(repo.resolve("jobs"));
        Files.writeString(repo.resolve("clusters/pod.yaml"), CLUSTER, StandardCharsets.UTF_8);
        List<String> staged = new ArrayList<>();
        staged.add("clusters/pod.yaml");
        for (int i = 0; i < 6000; i++) {
            String name = String.format("jobs/job-%04d.yaml", i);
            Files.writeString(repo.resolve(name), "kind: training_job\nname: j" + i + "\ncluster: pod\nnodes: 1\nparallelism: { tp: 8 }\n",
                    StandardCharsets.UTF_8);
            staged.add(name);
        }
        Main.workingDir = repo;            // pre-commit runs the hook at the top of the repository
        List<String> first = staged.subList(0, staged.size() / 2);
        List<String> second = staged.subList(staged.size() / 2, staged.size());
        assertTrue(first.contains("clusters/pod.yaml") && !second.contains("clusters/pod.yaml"));

        long t0 = System.nanoTime();   // wall-clock-ok: printed for a person, never asserted
        PlanCli.Run a = PlanCli.run(args(first));
        PlanCli.Run b = PlanCli.run(args(second));
        long ms = (System.nanoTime() - t0) / 1_000_000;   // wall-clock-ok: printed only
        assertEquals(0, a.code(), a.out());
        assertEquals(0, b.code(), "the second run has no cluster among its files, and finds it in the project: " + head(b.out()));
        assertFalse(b.out().contains("SYN003"), head(b.out()));
        assertEquals("0 errors, 0 warnings, 0 notes in 3000 files\n", a.out());
        assertEquals("0 errors, 0 warnings, 0 notes in 3001 files\n", b.out(), "the looked-up cluster is not counted as linted");
        System.out.println("PreCommitSplitTest: two runs over 6,001 files in " + ms + " ms");

        // the same job with a real mistake: the looked-up cluster still gives the numbers, and its own file is not reported
        Files.writeString(repo.resolve("jobs/job-5999.yaml"), "kind: training_job\nname: j5999\ncluster: pod\nnodes: 2\n"
                + "parallelism: { tp: 16 }\n", StandardCharsets.UTF_8);
        PlanCli.Run c = PlanCli.run("--", "jobs/job-5999.yaml");
        assertEquals(1, c.code(), c.out());
        assertTrue(c.out().startsWith("jobs/job-5999.yaml:5:20: error: tp=16 spans 2 nodes"), c.out());
        assertTrue(c.out().contains("  related: clusters/pod.yaml:5:65: the NVLink domain is 8 GPUs"), c.out());
        assertTrue(c.out().endsWith("1 error, 0 warnings, 0 notes in 1 file\n"), c.out());
    }

    private static String[] args(List<String> files) {
        List<String> a = new ArrayList<>();
        a.add("--");
        a.addAll(files);
        return a.toArray(String[]::new);
    }

    private static String head(String s) { return s.length() > 2000 ? s.substring(0, 2000) + "..." : s; }
}
