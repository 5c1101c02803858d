package dev.gpulint.lint;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The language server's lints of a job whose cluster is in no open document (issue 40, item 13): the project is walked
 * and read once, not on every keystroke; what the editor says changed on the disk is read again, and a file created
 * or deleted makes the walk be done again. Counted in files read, never in time.
 */
class ClusterIndexTest {

    @TempDir Path root;

    static final String CLUSTER = """
            kind: cluster
            name: %s
            fabric: { type: infiniband, topology: rail-optimized }
            node_groups:
              - name: dgx
                count: 2
                gpu: { model: H100-SXM5-80GB, count: 8 }
                nvlink: { switch: true, bandwidth: 900 GB/s }
                nics:
                  - { model: ConnectX-7, count: 8, speed: 400 Gb/s, protocol: infiniband, gpudirect_rdma: true }
            """;

    private boolean clusterUndefined(ClusterIndex index) {
        RunOutcome o = new dev.gpulint.app.Project(root).paths(List.of("jobs/job.yaml")).session(null, index).lint();
        return o.result().findings().stream().anyMatch(f -> f.ruleId().equals("SYN003") && f.message().contains("'pod'"));
    }

    @Test
    void theProjectIsReadOnceAndThenWhereItChanged() throws IOException {
        Files.createDirectories(root.resolve(".git"));
        for (int i = 0; i < 300; i++) {
            Path f = root.resolve("other/job-" + i + ".yaml");
            Files.createDirectories(f.getParent());
            Files.writeString(f, "kind: training_job\nname: j" + i + "\ncluster: elsewhere\nnodes: 1\n");
        }
        Path pod = root.resolve("clusters/pod.yaml");
        Files.createDirectories(pod.getParent());
        Files.writeString(pod, CLUSTER.formatted("pod"));
        Files.createDirectories(root.resolve("jobs"));
        Files.writeString(root.resolve("jobs/job.yaml"), "kind: training_job\nname: j\ncluster: pod\nnodes: 2\n");

        ClusterIndex index = new ClusterIndex();
        assertFalse(clusterUndefined(index), "the cluster is found in the project");
        long first = index.reads();
        assertTrue(first > 300, "the first lookup reads the project: " + first);
        for (int keystroke = 0; keystroke < 5; keystroke++) assertFalse(clusterUndefined(index));
        long later = index.reads() - first;
        assertTrue(later <= 5, "five more lints read " + later + " files; only the cluster's file each time, at most");

        // the cluster renamed on the disk, and the editor says so
        Files.writeString(pod, CLUSTER.formatted("pod-renamed"));
        index.changed(pod);
        assertTrue(clusterUndefined(index), "the change was read");
        // a new file defines it again: the walk is done again
        Path again = root.resolve("more/pod.yaml");
        Files.createDirectories(again.getParent());
        Files.writeString(again, CLUSTER.formatted("pod"));
        index.createdOrDeleted(again);
        assertFalse(clusterUndefined(index), "the created file was found");
    }
}
