package dev.gpulint.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.gpulint.testing.PlanCli;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file reached under two names (a symbolic link and its target, both met by a folder walk, or the same file named
 * twice) is linted once, under the first name met: it was linted under each, so a linked cluster file was "already
 * defined" (SYN004) against itself, and every finding of a linked job file was reported twice.
 */
class SameFileTwiceCliTest {

    private static final String CLUSTER = "kind: cluster\nname: c\nnode_groups:\n  - name: g\n    count: 1\n"
            + "    gpu: { model: H100-SXM5-80GB, count: 8 }\n";
    private static final String JOB = "kind: training_job\nname: j\ncluster: nowhere\n";

    private static boolean link(Path link, Path target) {
        try {
            Files.createSymbolicLink(link, target);
            return true;
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    @Test
    void aLinkAndItsTargetInTheWalkAreOneFile(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("b-cluster.yaml"), CLUSTER);
        Files.writeString(dir.resolve("d-job.yaml"), JOB);
        assumeTrue(link(dir.resolve("a-link.yaml"), Path.of("b-cluster.yaml")), "symbolic links are not supported here");
        assumeTrue(link(dir.resolve("c-link.yaml"), Path.of("d-job.yaml")));
        PlanCli.Run r = PlanCli.run(dir.toString());
        assertFalse(r.out().contains("SYN004"), "a file is not defined twice by itself: " + r.out());
        // the first name in the walk's (sorted) order names the file; the job's finding comes once
        assertEquals(1, r.out().split(java.util.regex.Pattern.quote("[SYN003]"), -1).length - 1, r.out());
        assertTrue(r.out().contains("c-link.yaml:3:10: error: job 'j' runs on cluster 'nowhere'"), r.out());
        assertFalse(r.out().contains("d-job.yaml"), r.out());
        assertTrue(r.out().endsWith(" in 2 files\n"), r.out());
    }

    @Test
    void aFileNamedTwiceIsOneFile(@TempDir Path dir) throws IOException {
        Path c = Files.writeString(dir.resolve("cluster.yaml"), CLUSTER);
        assumeTrue(link(dir.resolve("link.yaml"), c), "symbolic links are not supported here");
        PlanCli.Run r = PlanCli.run(c.toString(), dir.resolve("link.yaml").toString(), dir.resolve("./cluster.yaml").toString());
        assertEquals(0, r.code(), r.out());
        assertFalse(r.out().contains("SYN004"), r.out());
    }
}
