package dev.gpulint.read.evidence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.read.ReadResult;
import dev.gpulint.read.Readers;
import dev.gpulint.read.SourceFile;
import java.util.List;
import org.junit.jupiter.api.Test;

/** ibstatus, dcgmi nvlink --link-status and dcgmi diag (fixtures written after the tools' printed output). */
class DcgmiAndIbstatusReaderTest {

    static final String IBSTATUS = String.join("\n",
            "$ ibstatus",
            "Infiniband device 'mlx5_0' port 1 status:",
            "\tdefault gid:\t fe80:0000:0000:0000:a088:c203:0000:1000",
            "\tbase lid:\t 0x1a",
            "\tsm lid:\t\t 0x1",
            "\tstate:\t\t 4: ACTIVE",
            "\tphys state:\t 5: LinkUp",
            "\trate:\t\t 400 Gb/sec (4X NDR)",
            "\tlink_layer:\t InfiniBand",
            "",
            "Infiniband device 'mlx5_1' port 1 status:",
            "\tdefault gid:\t fe80:0000:0000:0000:a288:c2ff:fe00:1001",
            "\tbase lid:\t 0x0",
            "\tsm lid:\t\t 0x0",
            "\tstate:\t\t 1: DOWN",
            "\tphys state:\t 3: Disabled",
            "\trate:\t\t 40 Gb/sec (4X QDR)",
            "\tlink_layer:\t Ethernet",
            "");

    static final String NVLINK = String.join("\n",
            "+----------------------+",
            "|  NvLink Link Status  |",
            "+----------------------+",
            "GPUs:",
            "    gpuId 0:",
            "        U U U D U U",
            "    gpuId 1:",
            "        _ _ _ _ _ _",
            "NvSwitches:",
            "    physicalId 8:",
            "        U X U U",
            "",
            "Key: Up=U, Down=D, Disabled=X, Not Supported=_",
            "");

    static final String DIAG = String.join("\n",
            "Successfully ran diagnostic for group.",
            "+---------------------------+------------------------------------------------+",
            "| Diagnostic                | Result                                         |",
            "+===========================+================================================+",
            "|-----  Metadata  ----------+------------------------------------------------|",
            "| DCGM Version              | 3.3.5                                          |",
            "|-----  Deployment  --------+------------------------------------------------|",
            "| Denylist                  | Pass                                           |",
            "| Persistence Mode          | Warn                                           |",
            "| Warning                   | Persistence mode for GPU 0 is disabled.        |",
            "+-----  Stress  ------------+------------------------------------------------+",
            "| Memory Bandwidth          | Fail - GPU: 5                                  |",
            "| Warning                   | GPU 5 only achieved 1310.42 GB/s               |",
            "|                           | when 2600.00 GB/s was required.                |",
            "|                           | Pass - GPUs: 0, 1, 2, 3, 4, 6, 7               |",
            "+---------------------------+------------------------------------------------+",
            "");

    private static ReadResult read(String name, String text) { return Readers.read(SourceFile.of(name, text)); }

    private static <T extends Evidence> T only(String name, String text, Class<T> type) {
        ReadResult r = read(name, text);
        assertTrue(r.problems().isEmpty(), r.problems().toString());
        assertEquals(1, r.evidence().size(), r.evidence().toString());
        return type.cast(r.evidence().get(0));
    }

    @Test
    void ibstatusPortsReadIntoTheSamePortsAsIbstatWithTheStateNameAfterItsNumber() {
        Evidence.IbPorts p = only("node03.txt", IBSTATUS, Evidence.IbPorts.class);
        assertEquals(Evidence.Kind.IBSTATUS, p.kind());
        assertEquals(2, p.ports().size());
        Evidence.IbPort a = p.ports().get(0);
        assertEquals("mlx5_0", a.adapter());
        assertEquals(1, a.port());
        assertEquals(2, a.span().startLine());
        assertEquals("ACTIVE", a.state().text());
        assertEquals(6, a.state().span().startLine());
        assertEquals(14, a.state().span().startColumn());
        assertEquals("LinkUp", a.physicalState().text());
        assertEquals(400, a.rateGbps());
        assertEquals(8, a.rateSpan().startLine());
        assertEquals("InfiniBand", a.linkLayer().text());
        assertTrue(ComputePorts.active(a));
        Evidence.IbPort b = p.ports().get(1);
        assertEquals("DOWN", b.state().text());
        assertEquals("Disabled", b.physicalState().text());
        assertEquals(40, b.rateGbps());
        assertEquals("Ethernet", b.linkLayer().text());
        assertEquals(false, ComputePorts.active(b));
        assertEquals(false, ComputePorts.linkUp(b.physicalState().text()));
        ReadResult named = read("n.ibstatus.txt", "ibstatus: command not found\n");
        assertEquals(List.of("SYN006"), named.problems().stream().map(f -> f.ruleId()).toList());
    }

    @Test
    void dcgmiLinkStatusGivesEachGpusLinksUpDownOrDisabledAndTheSwitchesPorts() {
        Evidence.DcgmNvlinkStatus s = only("node08.txt", NVLINK, Evidence.DcgmNvlinkStatus.class);
        assertEquals(2, s.gpus().size());
        Evidence.NvlinkGpu g0 = s.gpus().get(0);
        assertEquals(0, g0.index());
        assertEquals("", g0.name());
        assertEquals(5, g0.span().startLine());
        assertEquals(List.of(false, false, false, true, false, false), g0.links().stream().map(Evidence.NvlinkLink::inactive).toList());
        Evidence.NvlinkLink down = g0.links().get(3);
        assertEquals(3, down.link());
        assertEquals(6, down.span().startLine());
        assertEquals(15, down.span().startColumn());
        assertEquals(List.of(), s.gpus().get(1).links(), "Not Supported is no link");
        assertEquals(1, s.switches().size());
        Evidence.NvlinkGpu sw = s.switches().get(0);
        assertEquals(8, sw.index());
        assertEquals(List.of(false, true, false, false), sw.links().stream().map(Evidence.NvlinkLink::inactive).toList());
        assertTrue(s.disabled().contains(sw.links().get(1).span()), "X is disabled");
        assertTrue(!s.disabled().contains(down.span()), "D is down, not disabled");
    }

    @Test
    void dcgmiDiagResultsEachWithItsCategoryGpusAndTheWarningUnderIt() {
        Evidence.DcgmDiag d = only("node11.txt", DIAG, Evidence.DcgmDiag.class);
        assertEquals(List.of("Denylist", "Persistence Mode", "Memory Bandwidth", "Memory Bandwidth"),
                d.tests().stream().map(Evidence.DiagTest::name).toList(), "metadata rows are no tests");
        assertEquals(List.of("Pass", "Warn", "Fail", "Pass"), d.tests().stream().map(t -> t.result().text()).toList());
        Evidence.DiagTest fail = d.tests().get(2);
        assertEquals("Stress", fail.category());
        assertEquals("GPU: 5", fail.gpus());
        assertEquals("GPU 5 only achieved 1310.42 GB/s when 2600.00 GB/s was required.", fail.reason());
        assertEquals(12, fail.result().span().startLine());
        assertEquals(31, fail.result().span().startColumn());
        assertEquals("Persistence mode for GPU 0 is disabled.", d.tests().get(1).reason());
        assertEquals("Deployment", d.tests().get(0).category());
        assertEquals("GPUs: 0, 1, 2, 3, 4, 6, 7", d.tests().get(3).gpus());
        assertEquals("", d.tests().get(3).reason());
    }

    @Test
    void aDiagTableWithNoResultRowsIsANoteNotAPass() {
        ReadResult r = read("n.txt", "| Diagnostic                | Result                                         |\n"
                + "+===========================+================================================+\n");
        assertEquals(List.of("SYN006"), r.problems().stream().map(f -> f.ruleId()).toList());
        assertTrue(r.problems().get(0).message().contains("looks like dcgmi diag output from line 1 on, but gpulint found nothing"),
                r.problems().get(0).message());
    }

    @Test
    void ibstatusAndDcgmiAmongOtherToolsOutputAreSectionsOfTheirOwn() {
        ReadResult r = read("node.txt", IBSTATUS + "$ dcgmi nvlink -s\n" + NVLINK + "$ dcgmi diag -r 3\n" + DIAG);
        assertEquals(List.of(Evidence.Kind.IBSTATUS, Evidence.Kind.DCGMI_NVLINK, Evidence.Kind.DCGMI_DIAG),
                r.evidence().stream().map(Evidence::kind).toList());
        assertEquals(List.of(), r.problems());
    }
}
