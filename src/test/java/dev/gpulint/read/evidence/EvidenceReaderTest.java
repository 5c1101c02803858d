package dev.gpulint.read.evidence;

import static dev.gpulint.read.evidence.EvidenceTexts.TOPO;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.read.ReadResult;
import dev.gpulint.read.Readers;
import dev.gpulint.read.SourceFile;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The evidence readers, each on shapes written after the tools' documented output. */
class EvidenceReaderTest {

    private static ReadResult read(String name, String text) { return Readers.read(SourceFile.of(name, text)); }

    @Test
    void theMatrixIsReadWithCellsAndSpans() {
        ReadResult r = read("n.topo-m.txt", TOPO);
        assertTrue(r.problems().isEmpty(), r.problems().toString());
        Evidence.Topology t = (Evidence.Topology) r.evidence().get(0);
        assertEquals(List.of("GPU0", "GPU1", "NIC0"), t.devices().stream().map(Evidence.Device::name).toList());
        assertEquals("NV12", t.cell(0, 1).text());
        assertEquals(2, t.cell(0, 1).span().startLine());
        assertEquals(10, t.cell(0, 1).span().startColumn());   // "GPU0", a tab, " X ", a tab
        assertEquals("SYS", t.cell(1, 2).text());
        assertEquals("32-63", t.devices().get(1).cpuAffinity());
        assertEquals("mlx5_0", t.nicNames().get("NIC0"));
    }

    @Test
    void aCaptureWhoseTabsBecameSpacesOrWithColourCodesReadsAlike() {
        String spaced = TOPO.replace("\t", "    ");
        Evidence.Topology t = (Evidence.Topology) read("n.txt", spaced).evidence().get(0);
        assertEquals("PXB", t.cell(0, 2).text());
        String coloured = "\u001B[4m" + TOPO.replaceFirst("\n", "\u001B[0m\n");
        assertEquals("NV12", ((Evidence.Topology) read("n.txt", coloured).evidence().get(0)).cell(1, 0).text());
    }

    @Test
    void linesEndAtLfCrLfAndALoneCrAsEverySpanOfGpulintCountsThem() {
        assertEquals(List.of("a", "b", "c", "", "d", ""), Text.lines("a\nb\r\nc\r\rd\n"));
        assertEquals(List.of(""), Text.lines(""));
        assertEquals(List.of("x", ""), Text.lines("x\r"));
        assertEquals(List.of("x", "y"), Text.lines("x\r\ny"));
        List<String> cut = Text.lines("y".repeat(Text.MAX_LINE + 10) + "\r\nz");
        assertEquals(List.of(Text.MAX_LINE, 1), cut.stream().map(String::length).toList(), "a long line is cut, the next one kept");
        for (String eol : List.of("\r\n", "\r")) {
            Evidence.Topology t = (Evidence.Topology) read("n.topo-m.txt", TOPO.replace("\n", eol)).evidence().get(0);
            assertEquals("NV12", t.cell(0, 1).text());
            assertEquals(2, t.cell(0, 1).span().startLine());
            assertEquals(10, t.cell(0, 1).span().startColumn());
            assertEquals(3, t.cell(1, 2).span().startLine());
            assertEquals("mlx5_0", t.nicNames().get("NIC0"));
        }
    }

    @Test
    void aShortRowIsSyn001AtItsLine() {
        ReadResult r = read("n.topo-m.txt", TOPO.replace("GPU1\tNV12\t X \tSYS\t32-63\t1\t\tN/A", "GPU1\tNV12"));
        assertEquals(1, r.problems().size());
        assertEquals("SYN001", r.problems().get(0).ruleId());
        assertEquals(3, r.problems().get(0).span().startLine());
        assertTrue(r.problems().get(0).message().contains("the row of GPU1 has 1 cells where the header names 3 devices"),
                r.problems().get(0).message());
    }

    @Test
    void aFileNamedAsEvidenceThatIsNoneIsANoteSayingWhatWasExpected() {
        ReadResult r = read("n.ibstat.txt", "ibstat: command not found\n");
        assertEquals("SYN006", r.problems().get(0).ruleId());
        assertTrue(r.problems().get(0).message().startsWith("'n.ibstat.txt' is named as ibstat output but does not look like it: expected ibstat"));
        assertFalse(r.failed());
    }

    @Test
    void otherTextIsNotEvidenceAndAFolderWalkSkipsIt() {
        assertFalse(Readers.isEvidence("requirements.txt", "torch==2.3\nnumpy\n"));
        assertFalse(Readers.isCandidate("requirements.txt"));
        assertTrue(Readers.isCandidate("n.topo-m.txt"));
        assertTrue(Readers.isEvidence("x.log", "a\nnode1:12:34 [0] NCCL INFO Using network IB\n"));
        assertEquals(Optional.empty(), EvidenceReader.sniff("GPU0 is fine\n"));
    }

    @Test
    void ncclTestsRowsWrongCountsAndTheAverage() {
        String text = String.join("\n",
                "# nThread 1 nGpus 1 minBytes 8 maxBytes 1073741824 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0",
                "#",
                "# Using devices",
                "#  Rank  0 Group  0 Pid   1001 on      hostA device  0 [0x18] NVIDIA H100 80GB HBM3",
                "#  Rank  1 Group  0 Pid   1002 on      hostB device  0 [0x18] NVIDIA H100 80GB HBM3",
                "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong",
                "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)       ",
                "     1048576        262144     float     sum      -1    50.00   20.97   20.97      0    51.00   20.56   20.56    N/A",
                "  1073741824     268435456     float     sum      -1  9000.00  119.30  119.30      3  9100.00  118.00  118.00      0",
                "# Out of bounds values : 0 OK",
                "# Avg bus bandwidth    : 69.8 ",
                "");
        Evidence.NcclTests t = (Evidence.NcclTests) read("burn.all_reduce_perf.txt", text).evidence().get(0);
        assertEquals("all_reduce", t.test());
        assertEquals(2, t.ranks().size());
        assertEquals("hostB", t.ranks().get(1).host());
        assertEquals(2, t.rows().size());
        assertEquals(-1, t.rows().get(0).wrongIn());
        assertEquals(3, t.rows().get(1).wrongOut());
        assertEquals(9, t.rows().get(1).wrongOutSpan().startLine());
        assertEquals(119.30, t.rows().get(1).busbwOut(), 1e-9);
        assertEquals(69.8, t.avgBusbw(), 1e-9);
    }

    @Test
    void ncclLogLinesAreKeptByKind() {
        String text = String.join("\n",
                "step 1 loss 2.3",
                "[1,0]<stdout>:gpu01:201:301 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/RoCE [1]mlx5_1:1/RoCE",
                "gpu01:201:301 [0] NCCL INFO comm 0x1 rank 0 nRanks 16 nNodes 2 localRanks 8 localRank 0 MNNVL 0",
                "gpu01:201:301 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC",
                "gpu01:201:301 [0] NCCL INFO Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/1/GDRDMA",
                "gpu01:201:301 [0] NCCL INFO Channel 01/0 : 0[0] -> 8[0] [send] via NET/IB/1",
                "gpu01:201:302 [0] NCCL WARN Cuda failure 'out of memory'",
                "");
        Evidence.NcclLog l = (Evidence.NcclLog) read("job.log", text).evidence().get(0);
        assertEquals(1, l.counts().get("NET_IB"));
        assertEquals("RoCE", l.lines().get(0).detail());
        assertEquals(1, l.counts().get("CHANNEL:P2P"));
        assertEquals(1, l.counts().get("CHANNEL:NET/IB/GDRDMA"));
        assertEquals(1, l.counts().get("CHANNEL:NET/IB"));
        assertEquals(2, l.maxNodes());
        Evidence.LogLine warn = l.lines().stream().filter(x -> x.what().equals("WARN")).findFirst().orElseThrow();
        assertEquals("Cuda failure 'out of memory'", warn.detail());
        assertEquals(7, warn.span().startLine());
    }

    @Test
    void ibstatAndIbvDevinfoPorts() {
        String ibstat = "CA 'mlx5_0'\n\tCA type: MT4129\n\tPort 1:\n\t\tState: Down\n\t\tPhysical state: Polling\n\t\tRate: 10\n\t\tLink layer: InfiniBand\n";
        Evidence.IbPorts p = (Evidence.IbPorts) read("a.ibstat.txt", ibstat).evidence().get(0);
        assertEquals(1, p.ports().size());
        assertEquals("Down", p.ports().get(0).state().text());
        assertEquals(4, p.ports().get(0).state().span().startLine());
        assertEquals(10, p.ports().get(0).rateGbps(), 1e-9);
        String ibv = "hca_id:\tmlx5_1\n\ttransport:\t\t\tInfiniBand (0)\n\t\tport:\t1\n\t\t\tstate:\t\t\tPORT_ACTIVE (4)\n"
                + "\t\t\tactive_width:\t\t4X (2)\n\t\t\tactive_speed:\t\t50.0 Gbps (64)\n\t\t\tlink_layer:\t\tEthernet\n";
        Evidence.IbPorts q = (Evidence.IbPorts) read("b.txt", ibv).evidence().get(0);
        assertEquals(Evidence.Kind.IBV_DEVINFO, q.kind());
        assertEquals(200, q.ports().get(0).rateGbps(), 1e-9);
        assertEquals("Ethernet", q.ports().get(0).linkLayer().text());
    }

    @Test
    void nvlinkStatusAndSmiQuery() {
        String s = "GPU 0: NVIDIA A100-SXM4-80GB (UUID: GPU-0000)\n\t Link 0: 25 GB/s\n\t Link 1: <inactive>\n";
        Evidence.NvlinkStatus n = (Evidence.NvlinkStatus) read("a.nvlink-s.txt", s).evidence().get(0);
        assertEquals("NVIDIA A100-SXM4-80GB", n.gpus().get(0).name());
        assertTrue(n.gpus().get(0).links().get(1).inactive());
        assertEquals(25, n.gpus().get(0).links().get(0).gigabytesPerSecond(), 1e-9);
        String q = "==============NVSMI LOG==============\n\nAttached GPUs                             : 2\n"
                + "GPU 00000000:18:00.0\n    Product Name                          : NVIDIA H100 80GB HBM3\n";
        Evidence.SmiQuery sq = (Evidence.SmiQuery) read("a.smi-q.txt", q).evidence().get(0);
        assertEquals(2, sq.attached());
        assertEquals("NVIDIA H100 80GB HBM3", sq.productNames().get(0).text());
    }

    @Test
    void aCaptureOfSeveralToolsIsReadSectionBySectionAtItsOwnLines() {
        String text = "$ nvidia-smi topo -m\n"
                + "GPU0\tGPU1\tCPU Affinity\tNUMA Affinity\n"          // the header lost its leading tab
                + "GPU0\t X \tNV4\t0-15\t0\n"
                + "GPU1\tNV4\t X \t0-15\t0\n"
                + "$ ibstat\n"
                + "CA 'mlx5_0'\n"
                + "Port 1:\n"
                + "State: Down\n"
                + "Physical state: Polling\n"
                + "$ ./build/all_gather_perf -g 2\n"
                + "# nThread 1 nGpus 2 minBytes 8 maxBytes 8 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0\n"
                + "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n"
                + "           8             1     float    none      -1     9.10    0.00    0.00      0     9.00    0.00    0.00      0\n";
        ReadResult r = read("node3-report.txt", text);
        assertTrue(r.problems().isEmpty(), r.problems().toString());
        assertEquals(List.of(Evidence.Kind.TOPOLOGY, Evidence.Kind.IBSTAT, Evidence.Kind.NCCL_TESTS),
                r.evidence().stream().map(Evidence::kind).toList());
        Evidence.Topology t = (Evidence.Topology) r.evidence().get(0);
        assertEquals(List.of("GPU0", "GPU1"), t.devices().stream().map(Evidence.Device::name).toList());
        Evidence.IbPorts p = (Evidence.IbPorts) r.evidence().get(1);
        assertEquals(1, p.ports().size());
        assertEquals(8, p.ports().get(0).state().span().startLine());
        Evidence.NcclTests n = (Evidence.NcclTests) r.evidence().get(2);
        assertEquals("all_gather", n.test(), "the command line before the run names the test");
        assertEquals(13, n.rows().get(0).span().startLine());
    }

    @Test
    void moreToolOutputsThanTheBoundIsASyntaxFindingNotAStall() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i <= Sections.MAX_SECTIONS; i++) sb.append(i % 2 == 0 ? "CA 'mlx5_0'\nPort 1:\nState: Active\n" : "hca_id: mlx5_0\n");
        ReadResult r = read("many.txt", sb.toString());
        assertEquals("SYN001", r.problems().get(0).ruleId(), r.problems().toString());
        assertTrue(r.problems().get(0).message().contains("more than 64 tool outputs in one file"), r.problems().get(0).message());
    }
}
