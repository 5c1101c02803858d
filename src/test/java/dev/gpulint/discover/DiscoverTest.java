package dev.gpulint.discover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.catalog.Catalog;
import dev.gpulint.core.Finding;
import dev.gpulint.core.Level;
import dev.gpulint.lint.Linter;
import dev.gpulint.read.SourceFile;
import dev.gpulint.read.evidence.Evidence;
import dev.gpulint.read.evidence.EvidenceReader;
import dev.gpulint.spec.EvidenceLink;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * gpulint discover on captures of the shapes real machines print (written for these tests after the
 * shapes of public issue threads: a GB200 tray, a 4-GPU H100 board, bridged pairs, a PCIe-only box),
 * and the manifests it writes linted: no error, a SYN008 at each placeholder, and the captures linked
 * to the manifest raise no EVID003.
 */
class DiscoverTest {
    /** A GB200 compute tray: 4 GPUs, NV18 between each pair through the rack's NVSwitch trays, no NIC columns; the header lost its tab. */
    static final String GB200_TRAY = """
            $ nvidia-smi topo -m
            GPU0    GPU1    GPU2    GPU3    CPU Affinity    NUMA Affinity   GPU NUMA ID
            GPU0     X      NV18    NV18    NV18    0-71    0               N/A
            GPU1    NV18     X      NV18    NV18    0-71    0               N/A
            GPU2    NV18    NV18     X      NV18    72-143  1               N/A
            GPU3    NV18    NV18    NV18     X      72-143  1               N/A
            """;

    /** A 4-GPU H100 board: direct NVLinks, NV6 on every pair (18 links over 3 peers), one NIC per GPU. */
    static final String H100_X4 = """
            \tGPU0\tGPU1\tGPU2\tGPU3\tNIC0\tNIC1\tNIC2\tNIC3\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID
            GPU0\t X \tNV6\tNV6\tNV6\tPIX\tSYS\tSYS\tSYS\t0-23\t0\t\tN/A
            GPU1\tNV6\t X \tNV6\tNV6\tSYS\tPIX\tSYS\tSYS\t0-23\t0\t\tN/A
            GPU2\tNV6\tNV6\t X \tNV6\tSYS\tSYS\tPIX\tSYS\t24-47\t1\t\tN/A
            GPU3\tNV6\tNV6\tNV6\t X \tSYS\tSYS\tSYS\tPIX\t24-47\t1\t\tN/A
            NIC0\tPIX\tSYS\tSYS\tSYS\t X \tSYS\tSYS\tSYS
            NIC1\tSYS\tPIX\tSYS\tSYS\tSYS\t X \tSYS\tSYS
            NIC2\tSYS\tSYS\tPIX\tSYS\tSYS\tSYS\t X \tSYS
            NIC3\tSYS\tSYS\tSYS\tPIX\tSYS\tSYS\tSYS\t X

            NIC Legend:

              NIC0: mlx5_0
              NIC1: mlx5_1
              NIC2: mlx5_2
              NIC3: mlx5_3
            """;

    /** ibstat of the same board, pasted without indentation after a prompt, GUIDs redacted. */
    static final String IBSTAT_X4;

    static {
        StringBuilder sb = new StringBuilder("user@h100x4:~$ ibstat\n");
        for (int i = 0; i < 4; i++) {
            sb.append("CA 'mlx5_").append(i).append("'\nCA type: MT4129\nNumber of ports: 1\nNode GUID: ...\nPort 1:\nState: Active\n")
              .append("Physical state: LinkUp\nRate: 400\nBase lid: ").append(100 + i).append("\nPort GUID: ...\nLink layer: InfiniBand\n");
        }
        IBSTAT_X4 = sb.toString();
    }

    static final String SMI_Q = """
            ==============NVSMI LOG==============

            Timestamp                                 : Thu Nov 28 09:12:44 2024
            Driver Version                            : 550.90.07
            CUDA Version                              : 12.4

            Attached GPUs                             : 4
            GPU 00000000:18:00.0
                Product Name                          : NVIDIA H100 80GB HBM3
                Product Brand                         : NVIDIA
            """;

    static final String BRIDGED_PAIRS = """
            \tGPU0\tGPU1\tGPU2\tGPU3\tCPU Affinity\tNUMA Affinity
            GPU0\t X \tNV4\tSYS\tSYS\t0-15\t0
            GPU1\tNV4\t X \tSYS\tSYS\t0-15\t0
            GPU2\tSYS\tSYS\t X \tNV4\t16-31\t1
            GPU3\tSYS\tSYS\tNV4\t X \t16-31\t1
            """;

    static final String PCIE_ONLY = """
            \tGPU0\tGPU1\tCPU Affinity\tNUMA Affinity
            GPU0\t X \tPHB\t0-11\t\tN/A
            GPU1\tPHB\t X \t0-11\t\tN/A
            """;

    private static List<Evidence> read(String... nameAndText) {
        List<Evidence> out = new ArrayList<>();
        for (int i = 0; i < nameAndText.length; i += 2) {
            out.addAll(EvidenceReader.read(SourceFile.of(nameAndText[i], nameAndText[i + 1])).evidence());
        }
        return out;
    }

    private static String discover(boolean topo, String... nameAndText) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < nameAndText.length; i += 2) names.add(nameAndText[i]);
        return DiscoverManifest.write(Catalog.builtIn(), read(nameAndText), names, "lab", "node", topo, s -> { });
    }

    /** Lints the manifest with the captures linked to its node group, as configuration evidence: would. */
    private static List<Finding> lint(String manifestName, String manifest, String... captures) {
        List<SourceFile> files = new ArrayList<>();
        files.add(SourceFile.of(manifestName, manifest));
        for (int i = 0; i < captures.length; i += 2) files.add(SourceFile.of(captures[i], captures[i + 1]));
        Linter linter = new Linter().serial().evidenceLinks(f -> f.equals(manifestName) ? Optional.empty()
                : Optional.of(new EvidenceLink("lab", "node", null, dev.gpulint.core.Span.at(f, 1, 1))));
        return linter.lint(files).findings();
    }

    private static List<String> ids(List<Finding> fs) {
        return fs.stream().map(f -> f.ruleId() + "@" + f.span().file() + ":" + f.span().startLine()).toList();
    }

    @Test
    void aGb200TrayIsFourGpusThroughNvswitchesWithTheRackAsItsDomain() {
        String y = discover(false, "tray.topo-m.txt", GB200_TRAY);
        assertTrue(y.contains("      switch: true"), y);
        assertTrue(y.contains("# tray.topo-m.txt:3 every GPU pair NV18: more links than a GPU has, so through NVSwitches"), y);
        assertTrue(y.contains("NVLink domain is the rack"), y);
        assertTrue(y.contains("      count: 4 "), y);
        assertTrue(y.contains("GB200 or GB300 tray of an NVL72 rack"), y);
        assertFalse(y.contains("nics:"), "no NIC columns, no ibstat: no NICs are declared\n" + y);
        assertFalse(y.contains("fabric:"), y);
    }

    @Test
    void aFourGpuH100BoardWithNv6OnEveryPairHasNoNvswitchAndItsIbstatGivesTheNics() {
        String y = discover(false, "h100x4.topo-m.txt", H100_X4, "h100x4.ibstat.txt", IBSTAT_X4, "h100x4.smi-q.txt", SMI_Q);
        assertTrue(y.contains("      switch: false                         # h100x4.topo-m.txt:2 every GPU pair NV6: direct links, no NVSwitch"), y);
        assertTrue(y.contains("      model: H100-SXM5-80GB                 # h100x4.smi-q.txt:9 NVIDIA H100 80GB HBM3"), y);
        assertTrue(y.contains("      - count: 4                            # h100x4.ibstat.txt:6 4 port(s): mlx5_0, mlx5_1, mlx5_2, mlx5_3"), y);
        assertTrue(y.contains("        speed: 400 Gb/s                     # h100x4.ibstat.txt:9 Rate 400"), y);
        assertTrue(y.contains("        protocol: infiniband                # h100x4.ibstat.txt:12 link layer InfiniBand"), y);
        assertTrue(y.contains("  type: infiniband"), y);
        assertTrue(y.contains("  topology: \"<fill in: rail-optimized, fat-tree or other>\""), y);
    }

    @Test
    void bridgedPairsAndAPcieOnlyBoxAreToldApart() {
        String pairs = discover(false, "p.topo-m.txt", BRIDGED_PAIRS);
        assertTrue(pairs.contains("      switch: false") && pairs.contains("      bridge: pairs"), pairs);
        String pcie = discover(false, "w.topo-m.txt", PCIE_ONLY);
        assertTrue(pcie.contains("      bridge: none                          # w.topo-m.txt:2 the GPUs talk over PCIe"), pcie);
        assertTrue(pcie.contains("no NVLink between GPUs (PHB)"), pcie);
    }

    @Test
    void theWrittenManifestLintsWithoutErrorItsPlaceholdersReportedAndItsCapturesRaiseNoEvid003() {
        for (boolean topo : List.of(false, true)) {
            String name = topo ? "lab.topo" : "lab.yaml";
            String m = discover(topo, "h100x4.topo-m.txt", H100_X4, "h100x4.ibstat.txt", IBSTAT_X4, "h100x4.smi-q.txt", SMI_Q);
            List<Finding> fs = lint(name, m, "h100x4.topo-m.txt", H100_X4, "h100x4.ibstat.txt", IBSTAT_X4, "h100x4.smi-q.txt", SMI_Q);
            assertTrue(fs.stream().noneMatch(f -> f.level() == Level.ERROR), ids(fs) + "\n" + m);
            assertTrue(fs.stream().noneMatch(f -> f.ruleId().equals("EVID003")), ids(fs) + "\n" + m);
            // the node count and the fabric's topology: the two things one node's captures cannot tell
            assertEquals(List.of("SYN008@" + name + ":" + (topo ? 7 : 8), "SYN008@" + name + ":" + (topo ? 10 : 11)),
                    ids(fs.stream().filter(f -> f.ruleId().equals("SYN008")).toList()), m);
        }
    }

    @Test
    void theLinkIsRealAWrongGpuCountInTheManifestIsAnEvid003() {
        String m = discover(false, "h100x4.topo-m.txt", H100_X4).replace("      count: 4 ", "      count: 8 ");
        List<Finding> fs = lint("lab.yaml", m, "h100x4.topo-m.txt", H100_X4);
        assertTrue(ids(fs).contains("EVID003@h100x4.topo-m.txt:5"), ids(fs) + "\n" + m);
    }

    @Test
    void aGb200TrayFilledInLintsCleanWithItsMatrixLinked() {
        String m = discover(false, "tray.topo-m.txt", GB200_TRAY).replaceAll("model: \"<fill in:[^\"]*\"", "model: GB200")
                .replace("count: \"<fill in: how many nodes like this one>\"", "count: 18");
        List<Finding> fs = lint("lab.yaml", m, "tray.topo-m.txt", GB200_TRAY);
        assertEquals(List.of(), ids(fs), m);
    }

    /** A DGX H100's ibstat: 8 InfiniBand compute ports, and 4 Ethernet storage and in-band ports (mlx5_1, 2, 7, 8). */
    private static String dgxIbstat() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 12; i++) {
            boolean storage = i == 1 || i == 2 || i == 7 || i == 8;
            sb.append("CA 'mlx5_").append(i).append("'\n\tCA type: MT4129\n\tNumber of ports: 1\n\tPort 1:\n")
                    .append("\t\tState: Active\n\t\tPhysical state: LinkUp\n\t\tRate: ").append(i >= 7 && storage ? 200 : 400)
                    .append("\n\t\tBase lid: ").append(storage ? 0 : 40 + i)
                    .append("\n\t\tLink layer: ").append(storage ? "Ethernet" : "InfiniBand").append('\n');
        }
        return sb.toString();
    }

    @Test
    void aDgxH100WritesItsEightInfinibandComputeNicsAndListsItsStoragePortsInAComment() {
        String ib = dgxIbstat();
        String y = discover(false, "dgx.ibstat.txt", ib);
        assertTrue(y.contains("      - count: 8                            # dgx.ibstat.txt:4 8 port(s): mlx5_0, mlx5_3, mlx5_4, mlx5_5, ..."), y);
        assertTrue(y.contains("  type: infiniband "), y);
        assertFalse(y.contains("roce"), "the Ethernet storage ports are no second, RoCE NIC: " + y);
        assertTrue(y.contains("        # not written: mlx5_1, mlx5_2 (Ethernet, 400 Gb/s); mlx5_7, mlx5_8 (Ethernet, 200 Gb/s): "
                + "other networks than the compute NICs"), y);
        List<Finding> fs = lint("lab.yaml", y, "dgx.ibstat.txt", ib);
        assertTrue(fs.stream().noneMatch(f -> f.level() == Level.ERROR), ids(fs) + "\n" + y);
        assertEquals(List.of("EVID015@dgx.ibstat.txt:13"), ids(fs.stream().filter(f -> f.ruleId().startsWith("EVID")
                || f.ruleId().startsWith("NET")).toList()), "no NET001, no EVID006/EVID007: one note names the other ports");
    }

    @Test
    void aComputePortThatIsDownStaysAmongTheComputeNics() {
        String ib = dgxIbstat().replaceFirst("State: Active\n\t\tPhysical state: LinkUp\n\t\tRate: 400",
                "State: Down\n\t\tPhysical state: Polling\n\t\tRate: 10");
        String y = discover(false, "dgx.ibstat.txt", ib);
        assertTrue(y.contains("      - count: 8 "), "mlx5_0 is down, still one of the 8 InfiniBand ports: " + y);
        assertTrue(y.contains("        speed: 400 Gb/s                     # dgx.ibstat.txt:34 Rate 400"), "the rate of mlx5_3, the first Active port: " + y);
    }

    @Test
    void aRoceNodeLeavesPfcAndEcnToFillInAndLintsWithoutError() {
        String ib = """
                CA 'mlx5_0'
                \tCA type: MT4125
                \tPort 1:
                \t\tState: Active
                \t\tPhysical state: LinkUp
                \t\tRate: 200
                \t\tLink layer: Ethernet
                CA 'mlx5_1'
                \tCA type: MT4125
                \tPort 1:
                \t\tState: Active
                \t\tPhysical state: LinkUp
                \t\tRate: 200
                \t\tLink layer: Ethernet
                """;
        String y = discover(false, "r.topo-m.txt", PCIE_ONLY, "r.ibstat.txt", ib);
        assertTrue(y.contains("  type: roce                                # r.ibstat.txt:7 link layer Ethernet"), y);
        assertTrue(y.contains("      enabled: \"<fill in: true or false>\"   # a switch and NIC setting; no capture shows it"), y);
        List<Finding> fs = lint("lab.yaml", y, "r.ibstat.txt", ib);
        assertTrue(fs.stream().noneMatch(f -> f.level() == Level.ERROR), ids(fs) + "\n" + y);
        assertEquals(List.of("SYN008@lab.yaml:8", "SYN008@lab.yaml:11", "SYN008@lab.yaml:13", "SYN008@lab.yaml:16",
                "SYN008@lab.yaml:18"),
                ids(fs.stream().filter(f -> f.ruleId().startsWith("SYN") || f.ruleId().startsWith("NET")).toList()), y);
    }

    /** Issue #37: with nccl-tests over two hosts, discover said "the captures are of one node". */
    @Test
    void theNodeCountsPlaceholderSaysWhatTheCapturesShow() {
        String tests = String.join("\n",
                "# nThread 1 nGpus 1 minBytes 8 maxBytes 1073741824 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0",
                "#",
                "# Using devices",
                "#  Rank  0 Group  0 Pid   1001 on      hostA device  0 [0x18] NVIDIA H100 80GB HBM3",
                "#  Rank  1 Group  0 Pid   1002 on      hostB device  0 [0x18] NVIDIA H100 80GB HBM3",
                "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong",
                "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)       ",
                "  1073741824     268435456     float     sum      -1  9000.00  119.30  119.30      0  9100.00  118.00  118.00      0",
                "# Avg bus bandwidth    : 119.3 ",
                "");
        String y = discover(false, "h100x4.topo-m.txt", H100_X4, "all_reduce_perf.txt", tests);
        assertTrue(y.contains("count: \"<fill in: how many nodes like this one: the captures show at least 2>\""), y);
        assertTrue(y.contains("# all_reduce_perf.txt:4 nccl-tests ranks on 2 hosts: hostA, hostB"), y);
        assertFalse(y.contains("the captures are of one node"), y);
        String one = discover(false, "h100x4.topo-m.txt", H100_X4);
        assertTrue(one.contains("count: \"<fill in: how many nodes like this one>\""), one);
        assertTrue(one.contains("# no capture shows how many nodes there are"), one);
        assertFalse(one.contains("the captures are of one node"), one);
    }

    @Test
    void theSameCapturesGiveTheSameBytes() {
        assertEquals(discover(true, "h100x4.topo-m.txt", H100_X4, "h100x4.ibstat.txt", IBSTAT_X4),
                discover(true, "h100x4.topo-m.txt", H100_X4, "h100x4.ibstat.txt", IBSTAT_X4));
    }

    /**
     * A capture's name is written into the manifest's comments (issue 40, item 8): a line feed, CR, NEL, U+2028 or an
     * escape sequence in it ended the comment and wrote "name: evil" as YAML (YAML 1.1 readers end a line at NEL and
     * U+2028 too). Each is shown as the text report shows it.
     */
    @Test
    void whatACommentQuotesCannotEndTheComment() {
        String name = "n1\nname: evil\rx\u2028y: 1\u0085z\u2029\u001b[2J.topo-m.txt";
        for (boolean topo : new boolean[] {false, true}) {
            String m = discover(topo, name, PCIE_ONLY);
            assertTrue(m.contains("# Written by gpulint discover from n1\\nname: evil\\rx\\u2028y: 1\\x85z\\u2029\\x1b[2J.topo-m.txt."), m);
            for (String line : m.split("\n", -1)) assertTrue(!line.startsWith("name: evil") && !line.startsWith("y: 1"), line);
            for (char c : new char[] {'\r', '\u2028', '\u2029', '\u0085', '\u001b'}) assertTrue(m.indexOf(c) < 0, topo + " " + (int) c);
        }
    }
}
