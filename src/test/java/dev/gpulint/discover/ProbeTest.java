package dev.gpulint.discover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/** Running the tools: found on the given PATH, run without a shell, kept as evidence files; one that hangs is stopped. */
@DisabledOnOs(OS.WINDOWS)
class ProbeTest {
    @TempDir Path bin;
    @TempDir Path out;

    private void tool(String name, String script) throws IOException {
        Path p = Files.writeString(bin.resolve(name), "#!/bin/sh\n" + script);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    @Test
    void eachToolsOutputIsKeptUnderTheEvidenceNameAndAHangingToolIsStopped() throws IOException {
        // nvidia-smi answers topo -m and fails the rest, as on a node without NVLink support in the driver
        tool("nvidia-smi", "if [ \"$1\" = topo ]; then printf '\\tGPU0\\tGPU1\\tCPU Affinity\\n"
                + "GPU0\\t X \\tNV18\\t0-1\\nGPU1\\tNV18\\t X \\t0-1\\n'; else exit 3; fi\n");
        tool("ibstat", "exec sleep 30\n");
        Probe p = new Probe(bin.toString(), 1);
        assertTrue(p.anyTool());
        List<Path> files = p.run(out, "gpu-07");
        assertEquals(List.of(out.resolve("gpu-07.topo-m.txt")), files);
        assertTrue(Files.readString(files.get(0)).startsWith("\tGPU0\tGPU1"));
        String log = String.join("\n", p.log());
        assertTrue(log.contains("nvidia-smi -q exited 3 with no output: its output not used"), log);
        assertTrue(log.contains("ibstat did not finish in 1 s"), log);
        try (var s = Files.list(out)) {
            assertEquals(1, s.count(), "no partial output is left behind");
        }
    }

    /**
     * A tool that times out is stopped with the processes it started (issue 40, item 14): a wrapper's child (here a
     * sleep in the background) ran on after the tool was killed.
     */
    @Test
    void aTimedOutToolsChildrenAreStoppedToo() throws Exception {
        Path pid = out.resolve("child.pid");
        tool("ibstat", "sleep 300 &\necho $! > '" + pid + "'\nwait\n");
        Probe p = new Probe(bin.toString(), 1);
        assertEquals(List.of(), p.run(out, "n"));
        long child = Long.parseLong(Files.readString(pid).strip());
        dev.gpulint.testing.CpuBudget.ofSeconds(30).until(() -> !running(child), "the tool's child " + child + " stopping");
        assertFalse(running(child), "the tool's child " + child + " still runs");
    }

    /** Whether the process runs (a zombie waiting for init to reap it does not). */
    private static boolean running(long pid) {
        Path stat = Path.of("/proc/" + pid + "/stat");
        if (!Files.exists(stat)) return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
        try {
            String s = Files.readString(stat);
            return s.charAt(s.lastIndexOf(')') + 2) != 'Z';
        } catch (IOException e) {
            return false;
        }
    }

    @Test
    void noToolOnPathIsSaid() {
        assertFalse(new Probe(bin.toString(), 1).anyTool());
    }
}
