package dev.gpulint.lint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.core.Finding;
import dev.gpulint.core.Level;
import dev.gpulint.read.SourceFile;
import java.util.List;
import org.junit.jupiter.api.Test;
import dev.gpulint.testing.CpuLimit;

/**
 * Inputs that are large rather than malformed: each must be linted in time linear in its size. The
 * limits are on CPU time ({@link CpuLimit}: a loaded runner stretches wall time, not CPU time) and
 * generous (the quadratic versions took minutes of CPU); the bench measures the real times.
 */
class HostileScaleTest {

    /** The rule base is built once, outside the timed tests (it takes seconds on a loaded machine). */
    @org.junit.jupiter.api.BeforeAll
    static void warmUp() {
        lint(SourceFile.of("warm.yaml", "kind: cluster\nname: w\nnode_groups: []\n"));
    }

    private static List<Finding> lint(SourceFile... files) {
        return new Linter().maxFindingsPerRule(Integer.MAX_VALUE).lint(List.of(files)).findings();
    }

    private static String where(Finding f) {
        return f.span().startLine() + ":" + f.span().startColumn();
    }

    private static final String MPIJOB = """
            apiVersion: kubeflow.org/v2beta1
            kind: MPIJob
            metadata: { name: m }
            spec:
              slotsPerWorker: 8
              mpiReplicaSpecs:
                Launcher:
                  template:
                    spec:
                      containers:
                        - command:
                            - bash
                            - -c
                            - |
                              mpirun -np 16 -N 8 %s python train.py
                Worker:
                  replicas: 2
                  template:
                    spec:
                      containers:
                        - resources: { limits: { nvidia.com/gpu: 8 } }
            """;

    /** 100,000 `mpirun -x` variables each cost a did-you-mean (35-40 s): the first 1,000 are checked, a note counts the rest. */
    @Test
    @CpuLimit(seconds = 60)   // ~8 s of CPU here; the note, not the time, is what fails without the cap
    void aHundredThousandMpirunVariablesAreCappedWithANote() {
        StringBuilder xs = new StringBuilder();
        for (int i = 0; i < 100_000; i++) xs.append("-x NCCL_IB_HCAX").append(i).append("=mlx5 ");
        List<Finding> out = lint(SourceFile.of("mpi.yaml", MPIJOB.formatted(xs)));
        List<Finding> notes = out.stream().filter(f -> f.ruleId().equals("NCCL004") && f.level() == Level.NOTE).toList();
        assertEquals(1, notes.size(), out.toString());
        Finding n = notes.get(0);
        // the value of the 1,001st variable: mpirun at column 19, then 1,000 items "-x NCCL_IB_HCAX<i>=mlx5 " before it
        int column = 19 + "mpirun -np 16 -N 8 ".length() + 1000 * "-x NCCL_IB_HCAX=mlx5 ".length() + (10 + 90 * 2 + 900 * 3)
                + "-x NCCL_IB_HCAX1000=".length();
        assertEquals("15:" + column, where(n));
        assertEquals("this job sets 100000 environment variables: gpulint checks the first 1000 and left out the other 99000, "
                + "from 'NCCL_IB_HCAX1000' on (real launches set dozens; check the rest by hand or split the list).", n.message());
    }

    /** The same cap for a native manifest's env mapping. */
    @Test
    @CpuLimit(seconds = 20)
    void aHundredThousandNativeEnvVariablesAreCappedWithANote() {
        StringBuilder sb = new StringBuilder("kind: training_job\nname: j\ncluster: c\nnodes: 2\nenv:\n");
        for (int i = 0; i < 100_000; i++) sb.append("  NCCL_IB_HCAX").append(i).append(": mlx5\n");
        List<Finding> out = lint(SourceFile.of("job.yaml", sb.toString()));
        List<Finding> notes = out.stream().filter(f -> f.ruleId().equals("NCCL004") && f.level() == Level.NOTE).toList();
        assertEquals(1, notes.size(), out.toString());
        assertEquals("1006:3", where(notes.get(0)));
        assertTrue(notes.get(0).message().startsWith("this job sets 100000 environment variables: gpulint checks the first 1000 "
                + "and left out the other 99000, from 'NCCL_IB_HCAX1000' on"), notes.get(0).message());
    }

    /** 50,000 jobs of one name: SYN004 compared every pair (20,000 took over two minutes); now each job is keyed by name. */
    @Test
    @CpuLimit(seconds = 60)
    void fiftyThousandJobsOfOneNameAreLinear() {
        StringBuilder sb = new StringBuilder("kind: cluster\nname: c\nnode_groups:\n  - { name: g, count: 2, gpu: { model: H100-SXM5-80GB, count: 8 } }\n");
        for (int i = 0; i < 50_000; i++) sb.append("---\nkind: training_job\nname: j\ncluster: c\nnodes: 2\n");
        List<Finding> out = lint(SourceFile.of("jobs.yaml", sb.toString()));
        List<Finding> dup = out.stream().filter(f -> f.ruleId().equals("SYN004")).toList();
        assertEquals(49_999, dup.size());
        assertEquals("12:7", where(dup.get(0)));
        assertEquals("training job 'j' is already defined at jobs.yaml:7:7; rename one.", dup.get(0).message());
        assertEquals("jobs.yaml:7:7", dup.get(dup.size() - 1).related().get(0).span().toString());
    }

    /** 50,000 clusters of one name, the same. */
    @Test
    @CpuLimit(seconds = 60)
    void fiftyThousandClustersOfOneNameAreLinear() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 50_000; i++) {
            sb.append("---\nkind: cluster\nname: c\nnode_groups:\n  - { name: g, count: 2, gpu: { model: H100-SXM5-80GB, count: 8 } }\n");
        }
        List<Finding> dup = lint(SourceFile.of("clusters.yaml", sb.toString())).stream().filter(f -> f.ruleId().equals("SYN004")).toList();
        assertEquals(49_999, dup.size());
        assertEquals("cluster 'c' is already defined at clusters.yaml:3:7; jobs could bind to either, so rename one.", dup.get(0).message());
    }

    /** 50,000 jobs, each on its own node group of one 50,000-group cluster: the group was found by a scan per job. */
    @Test
    @CpuLimit(seconds = 60)
    void fiftyThousandJobsOnFiftyThousandGroupsAreLinear() {
        int n = 50_000;
        StringBuilder sb = new StringBuilder("kind: cluster\nname: c\nnode_groups:\n");
        for (int i = 0; i < n; i++) sb.append("  - { name: g").append(i).append(", count: 2, gpu: { model: H100-SXM5-80GB, count: 8 } }\n");
        for (int i = 0; i < n; i++) {
            sb.append("---\nkind: training_job\nname: j").append(i).append("\ncluster: c\nnode_group: g").append(i == 7 ? "x" : i)
              .append("\nnodes: 2\n");
        }
        List<Finding> syn003 = lint(SourceFile.of("fleet.yaml", sb.toString())).stream().filter(f -> f.ruleId().equals("SYN003")).toList();
        assertEquals(1, syn003.size(), syn003.toString());
        assertTrue(syn003.get(0).message().contains("g0, g1, g2, g3, g4, g5, g6, g7, g8, g9, g10, g11, g12, g13, g14, g15, g16, g17, "
                + "g18, g19, … (50000 in all)"), syn003.get(0).message());
    }
}
