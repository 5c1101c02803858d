package dev.gpulint.meta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The bench scripts' own tests (bench/test_*.py: the calibration bench's verdicts and manifests, the grouped-GEMM kernel
 * fits) run with the README's test command, so `mvn -B verify` runs every test. They need python3, which .ci/run
 * installs: under CI a missing python3 fails this test; on a developer's machine without it the test is skipped.
 */
class BenchScriptsTest {

    private static final Path BENCH = Path.of("..", "bench");

    @Test
    void everyBenchUnittestPasses() throws IOException, InterruptedException {
        List<String> scripts;
        try (Stream<Path> s = Files.list(BENCH)) {
            scripts = s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("test_") && n.endsWith(".py")).sorted().toList();
        }
        assertNotEquals(List.of(), scripts, "bench/ holds test_*.py scripts");
        Process p;
        try {
            ProcessBuilder pb = new ProcessBuilder("python3", "-m", "unittest", "discover", "-s", ".", "-p", "test_*.py", "-v")
                    .directory(BENCH.toFile()).redirectErrorStream(true);
            pb.environment().put("PYTHONDONTWRITEBYTECODE", "1"); // no __pycache__ left in the clone
            p = pb.start();
        } catch (IOException noPython) {
            if (System.getenv("CI") != null) fail("python3 is needed for bench/test_*.py and .ci/run installs it: " + noPython.getMessage());
            assumeTrue(false, "no python3 on this machine: bench/test_*.py not run");
            return;
        }
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), out);
        Matcher ran = Pattern.compile("(?m)^Ran (\\d+) tests? in ").matcher(out);
        assertTrue(ran.find(), out);
        // every script's tests were discovered: each module name appears in the verbose listing
        for (String script : scripts) {
            String module = script.substring(0, script.length() - 3);
            assertTrue(out.contains("(" + module + "."), module + " ran no test:\n" + out);
        }
        assertTrue(out.contains("\nOK"), out);
    }
}
