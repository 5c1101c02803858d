package dev.gpulint.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.gpulint.core.LintResult;
import dev.gpulint.core.Safety;
import dev.gpulint.lint.Overlay;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue #38: one overlay of texts. An editor's unsaved buffer and a text the fix loop fixed in memory are one thing to a
 * run (lint.Overlay, keyed by the file's absolute path): the same text gives the same findings whichever put it there,
 * and the same as the disk holding it.
 */
class OverlayTest {

    @TempDir Path dir;

    /** NDR ports written 400 GB/s: UNIT001, whose safe fix writes 400 Gb/s. The job in another file looks the cluster up. */
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
    static final String FIXED = CLUSTER.replace("400 GB/s", "400 Gb/s");
    static final String JOB = "kind: training_job\nname: j\ncluster: c\nnodes: 2\nparallelism: { tp: 8, pp: 1 }\n";

    private static List<String> lines(LintResult r) {
        return r.findings().stream().map(f -> f.span() + " " + f.ruleId() + " " + f.message()).toList();
    }

    private Project project() {
        return new Project(dir).paths(List.of("."));
    }

    @Test
    void aFixedTextIsReadAsAnEditorsBufferOfItIsAndAsTheDiskHoldingIt() throws IOException {
        Files.writeString(dir.resolve("c.yaml"), CLUSTER);
        Files.writeString(dir.resolve("j.yaml"), JOB);
        Checks.Fixed fixed = Checks.fix(project().request(), Safety.SAFE);
        assertEquals(Map.of("c.yaml", FIXED), fixed.after());
        assertEquals(CLUSTER, Files.readString(dir.resolve("c.yaml")), "the fix loop writes nothing");
        List<String> afterFix = lines(fixed.last().result());
        assertFalse(afterFix.stream().anyMatch(l -> l.contains("UNIT001")), afterFix.toString());

        List<String> buffered = lines(project().buffers(Map.of(dir.resolve("c.yaml"), FIXED)).lint().result());
        assertEquals(afterFix, buffered, "the fixed text and the editor's buffer of the same text");
        Files.writeString(dir.resolve("c.yaml"), FIXED);
        assertEquals(afterFix, lines(project().lint().result()), "and the disk holding it");
    }

    @Test
    void theFixLoopLaysItsTextsOverTheEditorsBuffers() throws IOException {
        Files.writeString(dir.resolve("c.yaml"), CLUSTER);
        Files.writeString(dir.resolve("j.yaml"), JOB);
        // the editor holds the job with tp 16 unsaved: across the two 8-GPU nodes, out of the NVLink domain (PAR002)
        String edited = JOB.replace("tp: 8", "tp: 16");
        Project p = project().buffers(Map.of(dir.resolve("j.yaml"), edited));
        Overlay buffers = p.request().lint().overlay();
        assertEquals(Map.of(dir.resolve("j.yaml").toAbsolutePath().normalize(), edited), buffers.texts());
        Checks.Fixed fixed = Checks.fix(p.request(), Safety.SAFE);
        assertEquals(Map.of("c.yaml", FIXED), fixed.after());
        List<String> both = lines(project().buffers(Map.of(dir.resolve("j.yaml"), edited, dir.resolve("c.yaml"), FIXED)).lint().result());
        assertEquals(both, lines(fixed.last().result()), "the last pass reads the buffer and the fixed text alike");
        assertNotEquals(lines(project().buffers(Map.of(dir.resolve("c.yaml"), FIXED)).lint().result()), both,
                "the buffer of the job changes what is found: the test would not tell otherwise");
    }

    @Test
    void standardInputIsFixedInMemoryAsAFileIs() {
        Project p = new Project(dir).stdin(new ByteArrayInputStream(CLUSTER.getBytes(StandardCharsets.UTF_8)), "c.yaml");
        Checks.Fixed fixed = Checks.fix(p.request(), Safety.SAFE);
        assertEquals(Map.of("c.yaml", FIXED), fixed.after());
        assertFalse(lines(fixed.last().result()).stream().anyMatch(l -> l.contains("UNIT001")),
                "the second pass lints the fixed text of standard input, which is read once: " + lines(fixed.last().result()));
    }

    @Test
    void keysAreAbsoluteAndNormalisedAndTheLaterTextWins() {
        Overlay o = Overlay.of(dir, Map.of(Path.of("a/../b.yaml"), "one"));
        Path key = dir.resolve("b.yaml").toAbsolutePath().normalize();
        assertEquals("one", o.text(key));
        assertEquals("two", o.with(dir, Map.of(dir.resolve("b.yaml"), "two")).text(key));
        assertEquals("one", o.text(key), "immutable");
        assertEquals(null, Overlay.NONE.text(key));
    }
}
