package dev.gpulint.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The runs bin/gpulint records its class archive from ({@link ArchiveRun}): the launcher discards their output and exit
 * codes, so a command line broken by a renamed option or a moved sample would only leave its classes out of the archive,
 * silently, and make every cold start slower. Each must run on the repository's samples as a user's would.
 */
class ArchiveRunTest {

    @Test
    void everyRecordedCommandRunsOnTheSamplesAndReports() {
        Path samples = Path.of("..", "samples");
        assertTrue(Files.isDirectory(samples.resolve("plan")), "samples/plan, which the archive's plan runs read");
        // check --format sarif samples: the broken samples' errors (1); check samples/plan: no finding
        // ("0 errors, 0 warnings, 0 notes in 1 file", 0); plan samples/plan, text and JSON: a plan (0)
        List<Integer> expected = List.of(1, 0, 0, 0);
        List<String[]> lines = ArchiveRun.lines(samples.toString());
        assertEquals(expected.size(), lines.size());
        for (int i = 0; i < lines.size(); i++) {
            String[] line = lines.get(i);
            StringWriter out = new StringWriter(), err = new StringWriter();
            int code = Main.run(line, new PrintWriter(out), new PrintWriter(err));
            String what = String.join(" ", line);
            assertEquals(expected.get(i), code, what + ": " + err);
            assertFalse(out.toString().isBlank(), what + " reported nothing");
        }
        assertEquals("plan " + samples + "/plan", String.join(" ", lines.get(2)), "a plan run is recorded");
    }
}
