package dev.gpulint.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.testing.PlanCli;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue #37: findings and fixes never rest on a value the same run calls wrong. A cluster writes its NDR ports as
 * {@code 400 GB/s} (UNIT001); a job assumes {@code 400 Gb/s}, which is right: the job was told it is "8× below"
 * and --fix rewrote it to the cluster's wrong figure. And a fix never brings a new warning (UNIT002).
 */
class FixConsequenceCliTest {

    @AfterEach
    void restore() {
        Main.workingDir = Path.of("");
    }

    static final String CLUSTER = """
            kind: cluster
            name: c
            node_groups:
              - name: g
                count: 2
                gpu: { model: H100-SXM5-80GB, count: 8 }
                nics:
                  - { model: ConnectX-7, count: 8, speed: 400 GB/s, protocol: infiniband }
            """;
    static final String JOB = """
            kind: training_job
            name: j
            cluster: c
            nodes: 2
            network:
              assumed_inter_node: 400 Gb/s
            """;

    @Test
    void theRightJobIsNeitherFlaggedNorRewritten(@TempDir Path dir) throws IOException {
        Path c = CliTest.write(dir, "c.yaml", CLUSTER);
        Path j = CliTest.write(dir, "j.yaml", JOB);
        Main.workingDir = dir;
        PlanCli.Run check = PlanCli.run("check", ".");
        assertEquals(1, check.code());
        assertTrue(check.out().startsWith("c.yaml:8:47: error: 400 GB/s for the ConnectX-7 InfiniBand port speed is 8× above"), check.out());
        assertFalse(check.out().contains("j.yaml"), "the job is not judged against the wrong NIC speed: " + check.out());
        PlanCli.Run diff = PlanCli.run("check", "--diff", ".");
        assertFalse(diff.out().contains("j.yaml"), diff.out());
        PlanCli.Run fix = PlanCli.run("check", "--fix", ".");
        assertEquals(0, fix.code(), fix.out() + fix.err());
        assertEquals("0 errors, 0 warnings, 0 notes in 2 files\nfixed 1 finding in 1 file; 0 remain\n", fix.out());
        assertEquals(CLUSTER.replace("400 GB/s", "400 Gb/s"), Files.readString(c));
        assertEquals(JOB, Files.readString(j), "the right job stays as it was");
    }

    /** One NIC per node: the job's 400 GB/s is then 8x one NIC's speed, not the node's aggregate of eight 400 Gb/s NICs. */
    @Test
    void aJobWrongLikeItsClusterIsFixedOnceTheClusterIs(@TempDir Path dir) throws IOException {
        String cluster = CLUSTER.replace("count: 8, speed", "count: 1, speed");
        Path c = CliTest.write(dir, "c.yaml", cluster);
        Path j = CliTest.write(dir, "j.yaml", JOB.replace("400 Gb/s", "400 GB/s"));
        Main.workingDir = dir;
        PlanCli.Run check = PlanCli.run("check", ".");
        assertFalse(check.out().contains("j.yaml"), "judged only against a NIC speed that is right: " + check.out());
        PlanCli.Run fix = PlanCli.run("check", "--fix", ".");
        assertEquals(0, fix.code(), fix.out() + fix.err());
        // the second pass compares the job with the fixed NIC speed: 8x above it, exactly, so its unit is swapped too
        assertEquals("0 errors, 0 warnings, 0 notes in 2 files\nfixed 2 findings in 2 files; 0 remain\n", fix.out());
        assertEquals(cluster.replace("400 GB/s", "400 Gb/s"), Files.readString(c));
        assertEquals(JOB, Files.readString(j));
    }

    @Test
    void aFixKeepsTheFilesBaseSoNoUnit002Follows(@TempDir Path dir) throws IOException {
        String bytes = CLUSTER.replace("node_groups:", "fabric: { type: infiniband, link_speed: 50 GB/s }\nnode_groups:");
        Path c = CliTest.write(dir, "c.yaml", bytes);
        Main.workingDir = dir;
        PlanCli.Run fix = PlanCli.run("check", "--fix", "c.yaml");
        assertEquals("0 errors, 0 warnings, 0 notes in 1 file\nfixed 1 finding in 1 file; 0 remain\n", fix.out());
        assertEquals(bytes.replace("speed: 400 GB/s", "speed: 50 GB/s"), Files.readString(c));
    }
}
