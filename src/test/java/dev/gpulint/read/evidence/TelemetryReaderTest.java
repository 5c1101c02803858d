package dev.gpulint.read.evidence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.read.ReadResult;
import dev.gpulint.read.Readers;
import dev.gpulint.read.SourceFile;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** GPU telemetry: nvidia-smi dmon, nvidia-smi --query-gpu CSV and dcgm-exporter scrapes (fixtures after the tools' output). */
class TelemetryReaderTest {

    static final String DMON = String.join("\n",
            "$ nvidia-smi dmon -d 5",
            "# gpu    pwr  gtemp  mtemp     sm    mem    enc    dec    jpg    ofa   mclk   pclk",
            "# Idx      W      C      C      %      %      %      %      %      %    MHz    MHz",
            "    0    412     52     61     98     41      0      0      0      0   2619   1980",
            "    1    405     50      -     97     40      0      0      0      0   2619   1980",
            "    0    120     48     57     12      3      0      0      0      0   2619   1410",
            "    1    118     47     56     11      3      0      0      0      0   2619   1410",
            "");

    static final String DMON_ALL = String.join("\n",
            "#Time        gpu    pwr  gtemp  mtemp     sm    mem    enc    dec    jpg    ofa   mclk   pclk  pviol  tviol     fb   bar1   ccpm"
                    + "  sbecc  dbecc    pci  rxpci  txpci",
            "#HH:MM:SS    Idx      W      C      C      %      %      %      %      %      %    MHz    MHz      %   bool     MB     MB     MB"
                    + "   errs   errs   errs   MB/s   MB/s",
            " 10:21:33      0    698     71     80    100     62      0      0      0      0   2619   1755      3      0  71234      5      0"
                    + "      0      0      0  11520  10980",
            " 10:21:35      0    702     72     81    100     63      0      0      0      0   2619   1740      4      0  71234      5      0"
                    + "      0      0      0  11604  11012",
            "");

    static final String CSV = String.join("\n",
            "$ nvidia-smi --query-gpu=timestamp,index,utilization.gpu,clocks.sm,clocks.max.sm,power.draw,power.limit,memory.used --format=csv -l 1",
            "timestamp, index, utilization.gpu [%], clocks.sm [MHz], clocks.max.sm [MHz], power.draw [W], power.limit [W], memory.used [MiB]",
            "2024/05/14 10:21:33.120, 0, 100 %, 1980 MHz, 1980 MHz, 688.12 W, 700.00 W, 71234 MiB",
            "2024/05/14 10:21:33.125, 1, 31 %, 1410 MHz, 1980 MHz, [N/A], 700.00 W, 71230 MiB",
            "2024/05/14 10:21:34.121, 0, 99 %, 1980 MHz, 1980 MHz, 690.50 W, 700.00 W, 71234 MiB",
            "");

    private static final String LABELS0 = "{gpu=\"0\",UUID=\"GPU-5a1c0d2e\",pci_bus_id=\"00000000:18:00.0\",device=\"nvidia0\","
            + "modelName=\"NVIDIA H100 80GB HBM3\",Hostname=\"node07\",DCGM_FI_DRIVER_VERSION=\"550.54.15\"}";
    private static final String LABELS1 = LABELS0.replace("gpu=\"0\"", "gpu=\"1\"").replace("nvidia0", "nvidia1");

    /** Two scrapes, each after the time `date` printed (while true; do date; curl -s node07:9400/metrics; sleep 15; done). */
    static final String DCGM = String.join("\n",
            "Sat Dec  5 13:00:00 UTC 2026",
            "# HELP DCGM_FI_DEV_SM_CLOCK SM clock frequency (in MHz).",
            "# TYPE DCGM_FI_DEV_SM_CLOCK gauge",
            "DCGM_FI_DEV_SM_CLOCK" + LABELS0 + " 1980",
            "DCGM_FI_DEV_SM_CLOCK" + LABELS1 + " 1410",
            "# HELP DCGM_FI_DEV_GPU_UTIL GPU utilization (in %).",
            "# TYPE DCGM_FI_DEV_GPU_UTIL gauge",
            "DCGM_FI_DEV_GPU_UTIL" + LABELS0 + " 100",
            "DCGM_FI_DEV_GPU_UTIL" + LABELS1 + " 31",
            "# HELP DCGM_FI_PROF_PCIE_TX_BYTES The rate of data transmitted over the PCIe bus - including both protocol headers and data payloads - in bytes per second.",
            "# TYPE DCGM_FI_PROF_PCIE_TX_BYTES gauge",
            "DCGM_FI_PROF_PCIE_TX_BYTES" + LABELS0 + " 1.25e+09",
            "# TYPE DCGM_FI_DEV_XID_ERRORS gauge",
            "DCGM_FI_DEV_XID_ERRORS" + LABELS1 + " 79",
            "# TYPE DCGM_FI_DEV_PCIE_REPLAY_COUNTER counter",
            "DCGM_FI_DEV_PCIE_REPLAY_COUNTER" + LABELS0 + " 12",
            "# TYPE DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION counter",
            "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION" + LABELS0 + " 98123456",
            "Sat Dec  5 13:00:15 UTC 2026",
            "DCGM_FI_DEV_SM_CLOCK" + LABELS0 + " 1965",
            "DCGM_FI_DEV_SM_CLOCK" + LABELS1 + " 1410",
            "DCGM_FI_DEV_GPU_UTIL" + LABELS0 + " 99",
            "DCGM_FI_DEV_GPU_UTIL" + LABELS1 + " 28",
            "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION" + LABELS0 + " 108573456",
            "");

    private static ReadResult read(String name, String text) { return Readers.read(SourceFile.of(name, text)); }

    private static Evidence.GpuSamples samples(String name, String text) {
        ReadResult r = read(name, text);
        assertTrue(r.problems().isEmpty(), r.problems().toString());
        assertEquals(1, r.evidence().size(), r.evidence().toString());
        return (Evidence.GpuSamples) r.evidence().get(0);
    }

    @Test
    void dmonRowsAreOneSamplePerGpuPerInstantTimedByTheCapturedInterval() {
        Evidence.GpuSamples g = samples("node07.txt", DMON);
        assertEquals(Evidence.Kind.SMI_DMON, g.kind());
        assertEquals(List.of(0, 1, 0, 1), g.samples().stream().map(Evidence.GpuSample::gpu).toList());
        assertEquals(List.of(0.0, 0.0, 5.0, 5.0), g.samples().stream().map(Evidence.GpuSample::seconds).toList(), "nvidia-smi dmon -d 5");
        Evidence.GpuSample s = g.samples().get(0);
        assertEquals(98.0, s.values().get("gpu_util_percent"));
        assertEquals(1980.0, s.values().get("sm_clock_mhz"));
        assertEquals(2619.0, s.values().get("mem_clock_mhz"));
        assertEquals(412.0, s.values().get("power_w"));
        assertEquals(52.0, s.values().get("temp_c"));
        assertEquals(4, s.span().startLine());
        assertEquals(5, s.span().startColumn());
        assertFalse(g.samples().get(1).values().containsKey("mem_temp_c"), "'-' is no value");
        assertEquals(1410.0, g.samples().get(2).values().get("sm_clock_mhz"));
        // without the command, the interval is not known
        assertEquals(-1.0, samples("a.txt", DMON.substring(DMON.indexOf('\n') + 1)).samples().get(2).seconds());
    }

    @Test
    void dmonOfEverySelectionWithItsTimeColumn() {
        Evidence.GpuSamples g = samples("n.dmon.txt", DMON_ALL);
        assertEquals(2, g.samples().size());
        assertEquals(List.of(0.0, 2.0), g.samples().stream().map(Evidence.GpuSample::seconds).toList());
        Map<String, Double> v = g.samples().get(0).values();
        assertEquals(11520.0, v.get("pcie_rx_mb_per_s"));
        assertEquals(10980.0, v.get("pcie_tx_mb_per_s"));
        assertEquals(71234.0, v.get("memory_used_mib"));
        assertEquals(1755.0, v.get("sm_clock_mhz"));
        assertEquals(3.0, v.get("power_violation_percent"));
        assertEquals(0.0, v.get("thermal_violation_flag"));
    }

    @Test
    void aDmonRowShortOfItsHeaderIsSyn001AtItsLine() {
        ReadResult r = read("n.txt", DMON.replace("    1    118     47     56     11      3      0      0      0      0   2619   1410",
                "    1    118     47     56"));
        assertEquals(List.of("SYN001"), r.problems().stream().map(f -> f.ruleId()).toList());
        assertEquals(7, r.problems().get(0).span().startLine());
        assertTrue(r.problems().get(0).message().contains("the row has 4 values where the header names 12 columns"), r.problems().get(0).message());
    }

    @Test
    void samplesPastTheBoundAreASyntaxFindingAtTheLine() {
        Unreadable e = assertThrows(Unreadable.class, () -> TelemetryReader.dmon("d.txt", Text.lines(DMON), 3));
        assertEquals(7, e.span.startLine());
        assertEquals("more than 3 samples", e.getMessage());
    }

    @Test
    void queryCsvWithUnitsNotApplicableAndItsTimestamps() {
        Evidence.GpuSamples g = samples("util.txt", CSV);
        assertEquals(Evidence.Kind.SMI_CSV, g.kind());
        assertEquals(List.of(0, 1, 0), g.samples().stream().map(Evidence.GpuSample::gpu).toList());
        assertEquals(List.of(0.0, 0.005, 1.001), g.samples().stream().map(Evidence.GpuSample::seconds).toList());
        Map<String, Double> v = g.samples().get(0).values();
        assertEquals(100.0, v.get("gpu_util_percent"));
        assertEquals(1980.0, v.get("sm_clock_mhz"));
        assertEquals(1980.0, v.get("sm_clock_max_mhz"));
        assertEquals(688.12, v.get("power_w"));
        assertEquals(700.0, v.get("power_limit_w"));
        assertEquals(71234.0, v.get("memory_used_mib"));
        assertFalse(g.samples().get(1).values().containsKey("power_w"), "[N/A]");
        assertEquals(4, g.samples().get(1).span().startLine());
        // the same capture saved as .csv is read as telemetry, not skipped as another CSV
        assertEquals(3, samples("util.csv", CSV).samples().size());
    }

    @Test
    void noheaderNounitsTakesItsFieldsFromTheCapturedCommand() {
        Evidence.GpuSamples g = samples("u.txt", "$ nvidia-smi --query-gpu=index,utilization.gpu,clocks.sm --format=csv,noheader,nounits -l 1\n"
                + "0, 87, 1980\n1, 12, 1410\n");
        assertEquals(List.of(0, 1), g.samples().stream().map(Evidence.GpuSample::gpu).toList());
        assertEquals(12.0, g.samples().get(1).values().get("gpu_util_percent"));
        assertEquals(1410.0, g.samples().get(1).values().get("sm_clock_mhz"));
        assertEquals(-1.0, g.samples().get(1).seconds());
    }

    @Test
    void aCsvRowOfTheWrongWidthIsSyn001AtItsLine() {
        ReadResult r = read("u.csv", CSV.replace("2024/05/14 10:21:34.121, 0, 99 %, 1980 MHz, 1980 MHz, 690.50 W, 700.00 W, 71234 MiB",
                "2024/05/14 10:21:34.121, 0, 99 %"));
        assertEquals(List.of("SYN001"), r.problems().stream().map(f -> f.ruleId()).toList());
        assertEquals(5, r.problems().get(0).span().startLine());
        assertTrue(r.problems().get(0).message().contains("the row has 3 values where the query names 8 fields"), r.problems().get(0).message());
    }

    @Test
    void dcgmScrapesTimedByTheirDateLinesGaugesRatesAndCountersKeptApart() {
        Evidence.GpuSamples g = samples("node07.metrics.txt", DCGM);
        assertEquals(Evidence.Kind.DCGM_METRICS, g.kind());
        assertEquals(4, g.samples().size());
        assertEquals(List.of(0, 1, 0, 1), g.samples().stream().map(Evidence.GpuSample::gpu).toList());
        assertEquals(List.of(0.0, 0.0, 15.0, 15.0), g.samples().stream().map(Evidence.GpuSample::seconds).toList());
        Evidence.GpuSample s0 = g.samples().get(0);
        assertEquals("node07", s0.host());
        assertEquals(4, s0.span().startLine());
        assertEquals(Map.of("sm_clock_mhz", 1980.0, "gpu_util_percent", 100.0, "pcie_tx_bytes_per_s", 1.25e9, "pcie_replay_total", 12.0,
                "energy_mj_total", 98123456.0), s0.values());
        assertEquals(Map.of("sm_clock_mhz", 1410.0, "gpu_util_percent", 31.0, "xid_last", 79.0), g.samples().get(1).values());
        assertEquals(108573456.0, g.samples().get(2).values().get("energy_mj_total"));
        assertEquals(20, g.samples().get(2).span().startLine());
    }

    @Test
    void dcgmScrapesWithoutTimeLinesAreToldApartByARepeatedSeriesAndTimedByPrometheusTimestamps() {
        String text = "DCGM_FI_DEV_GPU_UTIL" + LABELS0 + " 87 1733403600000\nDCGM_FI_DEV_GPU_UTIL" + LABELS0 + " 91 1733403605500\n";
        Evidence.GpuSamples g = samples("m.txt", text);
        assertEquals(List.of(0.0, 5.5), g.samples().stream().map(Evidence.GpuSample::seconds).toList());
        Evidence.GpuSamples untimed = samples("m.txt", text.replace(" 1733403600000", "").replace(" 1733403605500", ""));
        assertEquals(List.of(-1.0, -1.0), untimed.samples().stream().map(Evidence.GpuSample::seconds).toList());
        assertEquals(List.of(87.0, 91.0), untimed.samples().stream().map(s -> s.values().get("gpu_util_percent")).toList());
    }

    @Test
    void aBrokenDcgmSampleIsSyn001AtItsLineAndACounterListIsNoScrape() {
        ReadResult r = read("m.txt", "# TYPE DCGM_FI_DEV_GPU_UTIL gauge\nDCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"GPU-1\" 87\n");
        assertEquals(List.of("SYN001"), r.problems().stream().map(f -> f.ruleId()).toList());
        assertEquals(2, r.problems().get(0).span().startLine());
        ReadResult value = read("m.txt", "DCGM_FI_DEV_GPU_UTIL" + LABELS0 + " high\n");
        assertEquals(1, value.problems().get(0).span().startLine());
        assertTrue(value.problems().get(0).message().contains("the value 'high' is not a number"), value.problems().get(0).message());
        assertEquals(Optional.empty(), EvidenceReader.sniff("DCGM_FI_DEV_SM_CLOCK,  gauge, SM clock frequency (in MHz).\n"));
    }
}
