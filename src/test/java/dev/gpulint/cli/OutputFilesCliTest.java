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
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code plan -o} and {@code discover -o} write as check's {@code -o} does (issue 40, items 3 and 8): never over an
 * input of the run, and whole (a temporary file moved over the target, so a full disk leaves the old file, not half a
 * new one); and what discover writes into its comments cannot end a comment line.
 */
@DisabledOnOs(OS.WINDOWS)
class OutputFilesCliTest {

    @AfterEach
    void restore() { Main.workingDir = Path.of(""); }

    private static final String JOB = """
            kind: cluster
            name: lab
            node_groups:
              - name: dgx
                count: 2
                gpu: { model: A100-SXM4-80GB, count: 8 }
                nvlink: { switch: true }
                nics:
                  - { model: ConnectX-6, count: 8, speed: 200 Gb/s, protocol: infiniband }
            ---
            kind: training_job
            name: j
            cluster: lab
            node_group: dgx
            nodes: 2
            gpus_per_node: 8
            model: { dtype: bf16, layers: 32, hidden_size: 4096, attention_heads: 32, seq_length: 2048, vocab_size: 51200 }
            parallelism: { tp: 8, pp: 1 }
            batch: { micro_batch_size: 1, global_batch_size: 256 }
            """;

    private static final String TOPO = "\tGPU0\tGPU1\tCPU Affinity\tNUMA Affinity\nGPU0\t X \tNV4\t0-15\t0\nGPU1\tNV4\t X \t0-15\t0\n";

    @Test
    void planOutputIsNeverWrittenOverTheJobItPlans(@TempDir Path dir) throws IOException {
        Path job = CliTest.write(dir, "job.yaml", JOB);
        Main.workingDir = dir;
        PlanCli.Run r = PlanCli.run("plan", "-o", "job.yaml", "job.yaml");
        assertEquals(2, r.code(), r.err());
        assertEquals("gpulint: will not write --output job.yaml over an input: it is a file named to be linted; nothing was written, "
                + "name another file\n", r.err());
        assertEquals(JOB, Files.readString(job), "the manifest is intact");
        // a file of the folder walked is an input too
        PlanCli.Run walked = PlanCli.run("plan", "-o", "job.yaml", ".");
        assertEquals(2, walked.code(), walked.err());
        assertEquals(JOB, Files.readString(job));
    }

    /** Replaced, not truncated and rewritten: a second name of the old file (a backup's hard link) keeps the old plan. */
    @Test
    void planOutputReplacesTheFileWhole(@TempDir Path dir) throws IOException {
        CliTest.write(dir, "job.yaml", JOB);
        Path out = CliTest.write(dir, "out/plan.txt", "an older plan\n");
        Path kept = Files.createLink(dir.resolve("out/plan.txt.bak"), out);
        Main.workingDir = dir;
        PlanCli.Run r = PlanCli.run("plan", "-o", "out/plan.txt", "job.yaml");
        assertEquals(0, r.code(), r.err());
        assertTrue(Files.readString(out).contains("j"), Files.readString(out));
        assertEquals("an older plan\n", Files.readString(kept));
        try (var s = Files.list(dir.resolve("out"))) {
            assertEquals(2, s.count(), "no temporary file is left");
        }
    }

    @Test
    void discoverOutputIsNeverWrittenOverACaptureAndReplacesTheFileWhole(@TempDir Path dir) throws IOException {
        Path topo = Files.writeString(dir.resolve("n1.topo-m.txt"), TOPO);
        String capture = topo.toString();
        PlanCli.Run r = PlanCli.run("discover", "-o", capture, capture);
        assertEquals(2, r.code(), r.err());
        assertEquals("gpulint: cannot write --output " + capture + ": it is an input of this run (" + capture + "); nothing was "
                + "written, name another file\n", r.err());
        assertEquals(TOPO, Files.readString(topo), "the capture is intact");
        // as check refuses a report over a path it cannot write
        Path sub = Files.createDirectories(dir.resolve("sub"));
        PlanCli.Run folder = PlanCli.run("discover", "-o", sub.toString(), capture);
        assertEquals(2, folder.code());
        assertEquals("gpulint: cannot write --output " + sub + ": it is a folder, not a file; nothing was written, name another file\n",
                folder.err());
        Path out = CliTest.write(dir, "cluster.yaml", "kind: cluster\nname: older\n");
        Path kept = Files.createLink(dir.resolve("cluster.yaml.bak"), out);
        PlanCli.Run ok = PlanCli.run("discover", "-o", out.toString(), capture);
        assertEquals(0, ok.code(), ok.err());
        assertTrue(Files.readString(out).startsWith("# Written by gpulint discover from n1.topo-m.txt."), Files.readString(out));
        assertEquals("kind: cluster\nname: older\n", Files.readString(kept), "the old file was replaced, not rewritten in place");
        // relative paths are taken from the working folder, as check takes them
        Main.workingDir = dir;
        PlanCli.Run relative = PlanCli.run("discover", "-o", "rel.yaml", "n1.topo-m.txt");
        assertEquals(0, relative.code(), relative.err());
        assertTrue(Files.readString(dir.resolve("rel.yaml")).startsWith("# Written by gpulint discover from n1.topo-m.txt."));
    }

    /**
     * A capture's file name with a line feed, NEL, U+2028 and an escape sequence: written raw, each ended the comment
     * naming the source and wrote "name: evil" into the manifest (YAML 1.1 readers end a line at NEL and U+2028 too).
     */
    @Test
    void discoverEscapesWhatItWritesIntoComments(@TempDir Path dir) throws IOException {
        String name = "n1\nname: evil\u2028x: 1\u0085y: 2\u001b[31m.topo-m.txt";
        Path capture = Files.writeString(dir.resolve(name), TOPO);
        for (String format : new String[] {"yaml", "topo"}) {
            PlanCli.Run r = PlanCli.run("discover", "-f", format, "-o", dir.resolve("m." + format).toString(), "--", capture.toString());
            assertEquals(0, r.code(), r.err());
            String m = Files.readString(dir.resolve("m." + format));
            assertTrue(m.contains("# Written by gpulint discover from n1\\nname: evil\\u2028x: 1\\x85y: 2\\x1b[31m.topo-m.txt."), m);
            assertTrue(m.contains("# n1\\nname: evil\\u2028x: 1\\x85y: 2\\x1b[31m.topo-m.txt:"), "a value's source comment: " + m);
            for (char c : new char[] {'\u2028', '\u0085', '\u001b', '\r', '\u2029'}) assertFalse(m.indexOf(c) >= 0, format + ": " + (int) c);
            for (String line : m.split("\n")) assertFalse(line.startsWith("name: evil") || line.startsWith("x: 1"), line);
            PlanCli.Run check = PlanCli.run("check", "--fail-on", "error", dir.resolve("m." + format).toString());
            assertEquals(0, check.code(), check.out());
            assertFalse(check.out().contains("evil"), check.out());
        }
    }
}
