package dev.gpulint.read.evidence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.read.ReadResult;
import dev.gpulint.read.Readers;
import dev.gpulint.read.SourceFile;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The plain nvidia-smi table, in the layouts of drivers 535+ and before (fixtures written after the tool's output). */
class SmiTableReaderTest {

    static final String NEW = """
            Tue Mar  4 09:12:44 2025
            +-----------------------------------------------------------------------------------------+
            | NVIDIA-SMI 550.90.07              Driver Version: 550.90.07      CUDA Version: 12.4     |
            |-----------------------------------------+------------------------+----------------------+
            | GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |
            | Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | GPU-Util  Compute M. |
            |                                         |                        |               MIG M. |
            |=========================================+========================+======================|
            |   0  NVIDIA H100 80GB HBM3          On  |   00000000:19:00.0 Off |                    0 |
            | N/A   31C    P0            118W /  700W |   70212MiB /  81559MiB |     97%      Default |
            |                                         |                        |             Disabled |
            +-----------------------------------------+------------------------+----------------------+
            |   1  NVIDIA H100 80GB HBM3          On  |   00000000:3B:00.0 Off |                    0 |
            | N/A   29C    P0             69W /  700W |       4MiB /  81559MiB |      0%      Default |
            |                                         |                        |             Disabled |
            +-----------------------------------------+------------------------+----------------------+

            +-----------------------------------------------------------------------------------------+
            | Processes:                                                                              |
            |  GPU   GI   CI        PID   Type   Process name                              GPU Memory |
            |        ID   ID                                                               Usage      |
            |=========================================================================================|
            |    0   N/A  N/A    418822      C   /usr/bin/python3                            70202MiB |
            +-----------------------------------------------------------------------------------------+
            """;

    static final String OLD = """
            +-----------------------------------------------------------------------------+
            | NVIDIA-SMI 470.82.01    Driver Version: 470.82.01    CUDA Version: 11.4     |
            |-------------------------------+----------------------+----------------------+
            | GPU  Name        Persistence-M| Bus-Id        Disp.A | Volatile Uncorr. ECC |
            | Fan  Temp  Perf  Pwr:Usage/Cap|         Memory-Usage | GPU-Util  Compute M. |
            |                               |                      |               MIG M. |
            |===============================+======================+======================|
            |   0  Tesla V100-SXM2...  On   | 00000000:06:00.0 Off |                    0 |
            | N/A   36C    P0    57W / 300W |  15871MiB / 32510MiB |     41%      Default |
            |                               |                      |                  N/A |
            +-------------------------------+----------------------+----------------------+

            +-----------------------------------------------------------------------------+
            | Processes:                                                                  |
            |  GPU   GI   CI        PID   Type   Process name                  GPU Memory |
            |        ID   ID                                                   Usage      |
            |=============================================================================|
            |  No running processes found                                                 |
            +-----------------------------------------------------------------------------+
            """;

    /** Drivers before 410 print no CUDA version, and before 450 no GI/CI columns. */
    static final String OLDEST = """
            +-----------------------------------------------------------------------------+
            | NVIDIA-SMI 396.54                 Driver Version: 396.54                    |
            |-------------------------------+----------------------+----------------------+
            | GPU  Name        Persistence-M| Bus-Id        Disp.A | Volatile Uncorr. ECC |
            | Fan  Temp  Perf  Pwr:Usage/Cap|         Memory-Usage | GPU-Util  Compute M. |
            |===============================+======================+======================|
            |   0  Tesla P100-PCIE...  Off  | 00000000:04:00.0 Off |                    0 |
            | N/A   27C    P0    32W / 250W |   1203MiB / 16280MiB |      3%      Default |
            +-------------------------------+----------------------+----------------------+
            | Processes:                                                       GPU Memory |
            |  GPU       PID   Type   Process name                             Usage      |
            |=============================================================================|
            |    0     23114      C   python                                      1193MiB |
            +-----------------------------------------------------------------------------+
            """;

    private static ReadResult read(String name, String text) { return Readers.read(SourceFile.of(name, text)); }

    private static Evidence.SmiTable table(String name, String text) {
        ReadResult r = read(name, text);
        assertTrue(r.problems().isEmpty(), r.problems().toString());
        return (Evidence.SmiTable) r.evidence().get(0);
    }

    @Test
    void theDriverCudaGpusMemoryUtilisationAndProcessesAreReadWithTheirPlaces() {
        Evidence.SmiTable t = table("node07.txt", NEW);
        assertEquals("550.90.07", t.driver().text());
        assertEquals(3, t.driver().span().startLine());
        assertEquals(53, t.driver().span().startColumn());
        assertEquals("12.4", t.cuda().text());
        assertEquals(2, t.gpus().size());
        Evidence.SmiGpu g0 = t.gpus().get(0);
        assertEquals("NVIDIA H100 80GB HBM3", g0.name().text());
        assertEquals(9, g0.name().span().startLine());
        assertEquals(8, g0.name().span().startColumn());
        assertEquals("00000000:19:00.0", g0.busId());
        assertEquals(70212, g0.memoryUsedMiB());
        assertEquals(81559, g0.memoryTotalMiB());
        assertEquals(97, g0.utilizationPercent());
        assertEquals(0, t.gpus().get(1).utilizationPercent());
        assertEquals(List.of(418822L), t.processes().stream().map(Evidence.SmiProcess::pid).toList());
        assertEquals("/usr/bin/python3", t.processes().get(0).name());
        assertEquals(70202, t.processes().get(0).memoryMiB());
    }

    @Test
    void olderDriversLayoutsAreReadACutNameKeptAsPrinted() {
        Evidence.SmiTable old = table("a.txt", OLD);
        assertEquals("Tesla V100-SXM2...", old.gpus().get(0).name().text());
        assertEquals(15871, old.gpus().get(0).memoryUsedMiB());
        assertEquals(41, old.gpus().get(0).utilizationPercent());
        assertEquals(List.of(), old.processes(), "No running processes found");
        Evidence.SmiTable oldest = table("b.txt", OLDEST);
        assertNull(oldest.cuda(), "driver 396 prints no CUDA version");
        assertEquals("396.54", oldest.driver().text());
        assertEquals(List.of(23114L), oldest.processes().stream().map(Evidence.SmiProcess::pid).toList());
        assertEquals(1193, oldest.processes().get(0).memoryMiB());
    }

    @Test
    void aTableAmongOtherToolsOutputIsItsOwnSectionAndANamedFileThatIsNoTableIsSaidSo() {
        ReadResult r = read("node.txt", "$ nvidia-smi\n" + NEW + "$ ibstat\nCA 'mlx5_0'\n\tPort 1:\n\t\tState: Active\n\t\tRate: 400\n"
                + "\t\tLink layer: InfiniBand\n");
        assertEquals(List.of(Evidence.Kind.SMI_TABLE, Evidence.Kind.IBSTAT), r.evidence().stream().map(Evidence::kind).toList());
        assertEquals(2, ((Evidence.SmiTable) r.evidence().get(0)).gpus().size());
        ReadResult named = read("n07.nvidia-smi.txt", "No devices were found\n");
        assertEquals(List.of("SYN006"), named.problems().stream().map(f -> f.ruleId()).toList());
        assertTrue(named.problems().get(0).message().contains("named as nvidia-smi output"), named.problems().get(0).message());
    }
}
