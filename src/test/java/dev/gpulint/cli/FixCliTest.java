package dev.gpulint.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.testing.PlanCli;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code check --fix}, {@code --unsafe-fixes} and {@code --diff}: fixes written only to the linted files, with
 * their comments, quoting and line breaks kept; a preview that writes nothing; a second --fix that changes
 * nothing; standard input shown, never rewritten.
 */
class FixCliTest {

    @AfterEach
    void restore() {
        Main.workingDir = Path.of("");
        Main.stdin = Main.SYSTEM_IN;
    }

    /** Two UNIT001 mix-ups whose numbers are the catalog figures in the other base: two safe fixes. */
    static final String CLUSTER = "kind: cluster\r\nname: c\r\nnode_groups:\r\n  - name: g\r\n    count: 1\r\n"
            + "    gpu: { model: H100-SXM5-80GB, count: 8 }\r\n"
            + "    nvlink: { switch: true, bandwidth: 900 Gb/s, direction: bidirectional }   # per GPU\r\n"
            + "    nics:\r\n      - { model: ConnectX-7, count: 8, speed: \"400 GB/s\", protocol: infiniband }\r\n";
    static final String FIXED = CLUSTER.replace("900 Gb/s", "900 GB/s").replace("400 GB/s", "400 Gb/s");

    @Test
    void diffShowsTheFixesAsAPatchAndWritesNothing(@TempDir Path dir) throws IOException {
        Path c = CliTest.write(dir, "c.yaml", CLUSTER);
        Main.workingDir = dir;
        PlanCli.Run r = PlanCli.run("check", "--diff", "c.yaml");
        assertEquals(1, r.code(), r.err());
        // the file's CRLF lines keep their CR in the diff, so patch -p1 applies it to them
        assertEquals("--- a/c.yaml\n+++ b/c.yaml\n@@ -4,6 +4,6 @@\n   - name: g\r\n     count: 1\r\n"
                + "     gpu: { model: H100-SXM5-80GB, count: 8 }\r\n"
                + "-    nvlink: { switch: true, bandwidth: 900 Gb/s, direction: bidirectional }   # per GPU\r\n"
                + "+    nvlink: { switch: true, bandwidth: 900 GB/s, direction: bidirectional }   # per GPU\r\n"
                + "     nics:\r\n"
                + "-      - { model: ConnectX-7, count: 8, speed: \"400 GB/s\", protocol: infiniband }\r\n"
                + "+      - { model: ConnectX-7, count: 8, speed: \"400 Gb/s\", protocol: infiniband }\r\n", r.out());
        assertEquals("gpulint: would fix 2 findings in 1 file\n", r.err());
        assertEquals(CLUSTER, Files.readString(c), "--diff writes nothing");
    }

    @Test
    void fixWritesTheSafeFixesKeepingEverythingElseAndASecondFixChangesNothing(@TempDir Path dir) throws IOException {
        Path c = CliTest.write(dir, "c.yaml", CLUSTER);
        Main.workingDir = dir;
        PlanCli.Run r = PlanCli.run("check", "--fix", "c.yaml");
        assertEquals(0, r.code(), r.out() + r.err());
        assertEquals("0 errors, 0 warnings, 0 notes in 1 file\nfixed 2 findings in 1 file; 0 remain\n", r.out());
        assertEquals(FIXED, Files.readString(c), "only the units changed: quotes, comment and CR LF line breaks kept");
        PlanCli.Run again = PlanCli.run("check", "--fix", "c.yaml");
        assertEquals("0 errors, 0 warnings, 0 notes in 1 file\nfixed 0 findings; 0 remain\n", again.out());
        assertEquals(FIXED, Files.readString(c));
        PlanCli.Run diff = PlanCli.run("check", "--diff", "c.yaml");
        assertEquals(0, diff.code(), "no diff left: exit 0");
        assertEquals("", diff.out());
    }

    @Test
    void aByteOrderMarkAndOtherFilesStayAsTheyWere(@TempDir Path dir) throws IOException {
        byte[] bom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
        Path c = dir.resolve("c.yaml");
        Files.write(c, concat(bom, CLUSTER.getBytes(StandardCharsets.UTF_8)));
        String sound = "kind: cluster\nname: s\nnode_groups:\n  - name: g\n    count: 1\n    gpu: { model: H100-SXM5-80GB, count: 8 }\n";
        Path s = CliTest.write(dir, "s.yaml", sound);
        Main.workingDir = dir;
        PlanCli.Run r = PlanCli.run("check", "--fix", "-f", "json", ".");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("{"), "the JSON report stays alone on standard output: " + r.out());
        assertEquals("fixed 2 findings in 1 file; 0 remain\n", r.err());
        assertArrayEquals(concat(bom, FIXED.getBytes(StandardCharsets.UTF_8)), Files.readAllBytes(c));
        assertEquals(sound, Files.readString(s));
    }

    @Test
    void standardInputIsShownAsADiffAndNeverRewritten(@TempDir Path dir) throws IOException {
        Main.workingDir = dir;
        Main.stdin = () -> new ByteArrayInputStream(CLUSTER.getBytes(StandardCharsets.UTF_8));
        PlanCli.Run refused = PlanCli.run("check", "--fix", "-");
        assertEquals(2, refused.code());
        assertEquals("gpulint: --fix rewrites files, and standard input is none: use --diff to see its fixes, or lint the file itself with --fix\n",
                refused.err());
        Path named = CliTest.write(dir, "c.yaml", CLUSTER);
        Main.stdin = () -> new ByteArrayInputStream(CLUSTER.getBytes(StandardCharsets.UTF_8));
        PlanCli.Run diff = PlanCli.run("check", "--diff", "--stdin-filename", "c.yaml");
        assertEquals(1, diff.code());
        assertTrue(diff.out().startsWith("--- a/c.yaml\n+++ b/c.yaml\n@@ -4,6 +4,6 @@\n"), diff.out());
        assertEquals(CLUSTER, Files.readString(named), "the file standard input stands for is not written");
    }

    /** UNIT003's fix: bandwidths without a unit, in YAML and in the DSL, where the catalog figure tells the unit. */
    static final String UNITLESS_YAML = "kind: cluster\nname: c\nfabric: { type: infiniband }\nnode_groups:\n  - name: g\n    count: 1\n"
            + "    gpu: { model: H100-SXM5-80GB, count: 8 }\n"
            + "    nvlink: { switch: true, bandwidth: 900 }   # per GPU\n"
            + "    nics:\n      - { model: ConnectX-7, count: 8, speed: \"400\" }\n";
    static final String UNITLESS_TOPO = "cluster \"d\" {\n  fabric { type = infiniband }\n  node_group \"g\" {\n    count = 1\n"
            + "    gpu  { model = \"H100-SXM5-80GB\"  count = 8 }\n"
            + "    pcie { generation = 5  bandwidth = 128 }\n"
            + "    nic  { model = \"ConnectX-7\"  count = 8  speed = 400G }  // NDR\n  }\n}\n";

    @Test
    void unitsTheCatalogMakesCertainAreAddedInYamlAndInTheDsl(@TempDir Path dir) throws IOException {
        Path c = CliTest.write(dir, "c.yaml", UNITLESS_YAML);
        Path d = CliTest.write(dir, "d.topo", UNITLESS_TOPO);
        Main.workingDir = dir;
        PlanCli.Run before = PlanCli.run("check", "c.yaml", "d.topo");
        assertEquals(1, before.code(), before.err());
        assertTrue(before.out().contains("c.yaml:8:40: error: bandwidth '900' has no unit: write bits (e.g. 900 Gb/s) or bytes (e.g. 900 GB/s)"
                + " per second; they differ 8×. [UNIT003]\n"), before.out());
        assertTrue(before.out().contains("  fix available (safe): write 900 GB/s instead of 900, and add direction: bidirectional;"), before.out());
        assertEquals(4, before.out().split("fix available \\(safe\\)", -1).length - 1, before.out());
        PlanCli.Run json = PlanCli.run("check", "-f", "json", "c.yaml", "d.topo");
        assertTrue(json.out().contains("\"title\" : \"write 400 Gb/s instead of 400G\""), json.out());
        PlanCli.Run r = PlanCli.run("check", "--fix", "c.yaml", "d.topo");
        assertEquals(0, r.code(), r.out() + r.err());
        assertEquals("0 errors, 0 warnings, 0 notes in 2 files\nfixed 4 findings in 2 files; 0 remain\n", r.out());
        assertEquals(UNITLESS_YAML.replace("bandwidth: 900 }", "bandwidth: 900 GB/s, direction: bidirectional }")
                .replace("speed: \"400\"", "speed: \"400 Gb/s\""), Files.readString(c), "the units added, quotes and comment kept");
        assertEquals(UNITLESS_TOPO.replace("bandwidth = 128 }", "bandwidth = 128 GB/s  direction = bidirectional }")
                .replace("speed = 400G", "speed = 400 Gb/s"), Files.readString(d));
        assertEquals("", PlanCli.run("check", "--diff", "c.yaml", "d.topo").out(), "a second pass has nothing to change");
    }

    @Test
    void optionsThatDoNotGoTogetherAreBadUsage(@TempDir Path dir) throws IOException {
        CliTest.write(dir, "c.yaml", CLUSTER);
        Main.workingDir = dir;
        PlanCli.Run alone = PlanCli.run("check", "--unsafe-fixes", "c.yaml");
        assertEquals(2, alone.code());
        assertEquals("gpulint: --unsafe-fixes adds unsafe fixes to --fix or --diff: give one of them too\n", alone.err());
        PlanCli.Run out = PlanCli.run("check", "--diff", "-o", "x.diff", "c.yaml");
        assertEquals(2, out.code());
        assertFalse(Files.exists(dir.resolve("x.diff")));
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = new byte[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /**
     * A file linted under two names (a symbolic link and its target, as a folder walk meets them) is fixed once and
     * shown once: it was written through the first name, then refused through the second as "changed on disk" (exit 2),
     * and --diff printed its change twice, so patch -p1 applied it once and then failed on the second copy.
     */
    @Test
    void aFileLintedUnderTwoNamesIsFixedAndShownOnce(@TempDir Path dir) throws IOException {
        Path c = CliTest.write(dir, "c.yaml", CLUSTER);
        Files.createSymbolicLink(dir.resolve("link.yaml"), Path.of("c.yaml"));
        Main.workingDir = dir;
        PlanCli.Run diff = PlanCli.run("check", "--diff", "c.yaml", "link.yaml");
        assertEquals(1, diff.code(), diff.err());
        assertTrue(diff.out().startsWith("--- a/c.yaml\n") && !diff.out().contains("link.yaml"), diff.out());
        PlanCli.Run r = PlanCli.run("check", "--fix", "c.yaml", "link.yaml");
        assertEquals("", r.err());
        // nothing remains: the two names are one file, linted once (no SYN004 against itself)
        assertEquals(0, r.code(), r.out());
        assertEquals("0 errors, 0 warnings, 0 notes in 1 file\nfixed 2 findings in 1 file; 0 remain\n", r.out());
        assertEquals(FIXED, Files.readString(c));
        assertTrue(Files.isSymbolicLink(dir.resolve("link.yaml")), "the link stays a link");
    }
}
