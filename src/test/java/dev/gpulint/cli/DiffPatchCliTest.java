package dev.gpulint.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.testing.PlanCli;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code check --diff} prints is applied by the real {@code git apply} and {@code patch -p1} (issue 40, items 7
 * and 16): a name with a tab or a line feed (C-quoted as git writes it), a byte-order mark in line 1, a file whose
 * lines end in a lone CR. Each must leave the file exactly as {@code --fix} writes it. (.ci/run installs git and patch.)
 */
@DisabledOnOs(OS.WINDOWS)
class DiffPatchCliTest {

    @AfterEach
    void restore() { Main.workingDir = Path.of(""); }

    private static final byte[] BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};

    /** Runs --diff of {@code name} in {@code dir}, applies it with git apply and with patch -p1 to copies, returns the diff. */
    private static String diffAppliedByGitAndPatch(Path dir, String name, byte[] expected) throws IOException, InterruptedException {
        Main.workingDir = dir;
        PlanCli.Run r = PlanCli.run("check", "--diff", "--", name);
        assertEquals(1, r.code(), r.out() + r.err());
        for (List<String> tool : List.of(List.of("git", "apply", "--whitespace=nowarn"), List.of("patch", "-p1", "--quiet"))) {
            Path copy = Files.createTempDirectory(dir.getParent(), "apply");
            Files.write(copy.resolve(name), Files.readAllBytes(dir.resolve(name)));
            Path diff = Files.writeString(dir.getParent().resolve("fix.diff"), r.out(), StandardCharsets.UTF_8);
            Process p = new ProcessBuilder(tool).directory(copy.toFile()).redirectInput(diff.toFile()).redirectErrorStream(true).start();
            String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(0, p.waitFor(), tool + " refused the diff: " + said + "\n" + r.out());
            assertArrayEquals(expected, Files.readAllBytes(copy.resolve(name)), tool + " applied something else:\n" + r.out());
        }
        return r.out();
    }

    @Test
    void namesWithATabOrALineFeedAreQuotedAsGitQuotesThem(@TempDir Path tmp) throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("w"));
        for (String name : new String[] {"x\ty.yaml", "new\nline.yaml", "back\\slash \"q\".yaml"}) {
            Files.writeString(dir.resolve(name), FixIdentityCliTest.CLUSTER);
            String diff = diffAppliedByGitAndPatch(dir, name, FixIdentityCliTest.FIXED.getBytes(StandardCharsets.UTF_8));
            assertTrue(diff.startsWith("--- \"a/"), diff);
        }
        assertTrue(PlanCli.run("check", "--diff", "--", "new\nline.yaml").out().startsWith("--- \"a/new\\nline.yaml\"\n+++ \"b/new\\nline.yaml\"\n@@"));
    }

    /** The fix in line 4, so the hunk starts at line 1, which holds the mark: without it neither tool finds the hunk. */
    @Test
    void aByteOrderMarkStaysInLineOne(@TempDir Path tmp) throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("w"));
        String text = "kind: cluster\nname: c\nnode_groups:\n  - nvlink: { switch: true, bandwidth: 900 Gb/s, direction: bidirectional }\n"
                + "    name: g\n    count: 1\n    gpu: { model: H100-SXM5-80GB, count: 8 }\n";
        Files.write(dir.resolve("b.yaml"), concat(BOM, text.getBytes(StandardCharsets.UTF_8)));
        String diff = diffAppliedByGitAndPatch(dir, "b.yaml", concat(BOM, text.replace("900 Gb/s", "900 GB/s").getBytes(StandardCharsets.UTF_8)));
        assertTrue(diff.startsWith("--- a/b.yaml\n+++ b/b.yaml\n@@ -1,7 +1,7 @@\n \uFEFFkind: cluster\n"), diff);
    }

    /** A file whose lines end in a lone CR is one line to patch: its diff keeps the CRs, so the file stays CR. */
    @Test
    void aFileWithLoneCrLineEndingsKeepsThem(@TempDir Path tmp) throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("w"));
        Files.writeString(dir.resolve("cr.yaml"), FixIdentityCliTest.CLUSTER.replace('\n', '\r'));
        String diff = diffAppliedByGitAndPatch(dir, "cr.yaml", FixIdentityCliTest.FIXED.replace('\n', '\r').getBytes(StandardCharsets.UTF_8));
        assertTrue(diff.startsWith("--- a/cr.yaml\n+++ b/cr.yaml\n@@ -1 +1 @@\n-kind: cluster\rname: c\r"), diff);
        PlanCli.run("check", "--fix", "cr.yaml");
        assertEquals(FixIdentityCliTest.FIXED.replace('\n', '\r'), Files.readString(dir.resolve("cr.yaml")), "--fix writes what the diff says");
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = new byte[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
