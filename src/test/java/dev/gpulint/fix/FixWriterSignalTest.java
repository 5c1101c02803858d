package dev.gpulint.fix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * A SIGTERM (or Ctrl-C) while --fix writes a file leaves no {@code .FILE.NNN.gpulint-fix} beside it (issue 40, item
 * 16): a JVM ended by a signal runs no finally block, only its shutdown hooks. A child JVM writes a fix and stops
 * between writing the temporary file and moving it into place; it is sent SIGTERM there.
 */
@DisabledOnOs(OS.WINDOWS)
class FixWriterSignalTest {

    /** The child: writes the fix of args[0], waiting forever once the temporary file is written. */
    public static final class Child {
        public static void main(String[] args) throws Exception {
            Path file = Path.of(args[0]);
            String before = Files.readString(file);
            FixWriter.beforeMove = tmp -> {
                System.out.println("written " + tmp);
                System.out.flush();
                try {
                    Thread.sleep(Long.MAX_VALUE);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            };
            FixWriter.write(file, before, before.replace("Gb/s", "GB/s"), List.of(file.getParent().toRealPath()));
        }
    }

    @Test
    void aSigtermMidWriteLeavesNoTemporaryFile(@TempDir Path dir) throws Exception {
        String text = "nvlink: { bandwidth: 900 Gb/s }\n".repeat(1000);
        Path file = Files.writeString(dir.resolve("c.yaml"), text);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), Child.class.getName(), file.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            String line = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)).readLine();
            assertTrue(line != null && line.startsWith("written "), "the child stopped before its write: " + line);
            Path tmp = Path.of(line.substring("written ".length()));
            assertTrue(Files.exists(tmp) && tmp.getFileName().toString().endsWith(".gpulint-fix"), tmp.toString());
            p.destroy();                    // SIGTERM
            dev.gpulint.testing.CpuBudget.waitFor(p, 120);   // fails if the child never ends on SIGTERM
            try (var s = Files.list(dir)) {
                assertEquals(List.of(file), s.toList(), "only the file itself is left");
            }
            assertEquals(text, Files.readString(file), "the file is as it was: the move never happened");
        } finally {
            p.destroyForcibly();
        }
    }
}
