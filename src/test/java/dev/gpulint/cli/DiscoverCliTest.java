package dev.gpulint.cli;

import static dev.gpulint.testing.PlanCli.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.testing.PlanCli.Run;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** gpulint discover on the command line: a manifest from captures, to a file or standard output; nothing to read is exit 2. */
class DiscoverCliTest {
    @TempDir Path dir;

    @Test
    void aMatrixGivesAManifestThatCheckPassesWithItsPlaceholdersAsWarnings() throws IOException {
        Path topo = Files.writeString(dir.resolve("n1.topo-m.txt"), "\tGPU0\tGPU1\tCPU Affinity\tNUMA Affinity\n"
                + "GPU0\t X \tNV4\t0-15\t0\nGPU1\tNV4\t X \t0-15\t0\n");
        Path out = dir.resolve("cluster.topo");
        Run r = run("discover", "--format", "topo", "-o", out.toString(), topo.toString());
        assertEquals(0, r.code(), r.err());
        String m = Files.readString(out);
        assertTrue(m.contains("# Written by gpulint discover from n1.topo-m.txt."), m);
        assertTrue(m.contains("bridge = pairs"), m);
        Run check = run("check", "--fail-on", "error", out.toString(), topo.toString());
        assertEquals(0, check.code(), check.out());
        assertTrue(check.out().contains("[SYN008]") && check.out().contains("0 errors"), check.out());
    }

    @Test
    void aFileWithNoCaptureIsExitTwoWithWhy() throws IOException {
        Path notes = Files.writeString(dir.resolve("notes.txt"), "racked on Tuesday\n");
        Run r = run("discover", notes.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("nothing to discover from"), r.err());
        assertTrue(r.err().contains("holds no tool output gpulint reads"), r.err());
        assertEquals("", r.out());
    }
}
