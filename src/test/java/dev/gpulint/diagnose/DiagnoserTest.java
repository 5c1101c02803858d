package dev.gpulint.diagnose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.app.Checks;
import dev.gpulint.app.Project;
import dev.gpulint.core.Span;
import dev.gpulint.derive.evid.Captured;
import dev.gpulint.diagnose.Diagnosis.Verdict;
import dev.gpulint.lint.RunOutcome;
import dev.gpulint.read.evidence.Evidence;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The attribution on each case of issue #39, from captures in the tools' shapes (Fixtures) and, for what only a
 * training log or telemetry shows, from records built here: each case fires, and its healthy twin stays quiet.
 */
class DiagnoserTest {
    private static final String IB = Fixtures.cluster("infiniband", "", true);

    /** The lint run of a project, its facts with the extra records (training log, telemetry) the readers would give. */
    private static Diagnosis diagnose(Path dir, String cluster, String[] captures, Evidence... extra) throws IOException {
        Fixtures.project(dir, cluster, captures);
        RunOutcome run = Checks.check(new Project(dir).paths(List.of(dir.toString())).request());
        List<Object> facts = new ArrayList<>(run.facts());
        for (Evidence e : extra) facts.add(new Captured(e, false, "", ""));
        Diagnoser.Outcome o = Diagnoser.diagnose(run.estimates(), facts, run.result().findings(), null);
        assertNull(o.problem());
        return o.diagnosis();
    }

    /** A Megatron-LM log of ten iterations at {@code seconds} each (the first one slower: warm-up). */
    private static Evidence.TrainingLog log(double seconds) {
        List<Evidence.TrainStep> steps = new ArrayList<>();
        for (int i = 1; i <= 10; i++) {
            double s = i == 1 ? seconds * 3 : seconds * (1 + 0.001 * (i % 3));
            steps.add(new Evidence.TrainStep(i * 10L, s, -1, -1, -1, -1, 64, Span.at("train.log", 40 + i, 1)));
        }
        return new Evidence.TrainingLog("train.log", "megatron", Span.at("train.log", 41, 1), steps, 0, 0);
    }

    /** 8 GPUs sampled once a second for {@code n} seconds by {@code at}(second, gpu) → values. */
    private static Evidence.GpuSamples samples(int n, java.util.function.BiFunction<Integer, Integer, Map<String, Double>> at) {
        List<Evidence.GpuSample> out = new ArrayList<>();
        int line = 2;
        for (int t = 0; t < n; t++) {
            for (int g = 0; g < 8; g++) out.add(new Evidence.GpuSample("", g, t, at.apply(t, g), Span.at("gpus.csv", line++, 1)));
        }
        return new Evidence.GpuSamples("gpus.csv", Evidence.Kind.SMI_CSV, out);
    }

    private static Diagnosis.Step step(Diagnosis d, String id) {
        return d.path().stream().filter(s -> s.id().equals(id)).findFirst().orElseThrow();
    }

    private static String[] with(String[] captures, String name, String text) {
        for (int i = 0; i < captures.length; i += 2) if (captures[i].equals(name)) captures[i + 1] = text;
        return captures;
    }

    /** The step the estimate gives on the healthy captures: what the cases scale their measured step from. */
    private static double healthyStep(Path dir) throws IOException {
        return diagnose(dir, IB, Fixtures.healthy()).expected().catalogStep();
    }

    @Test
    void aHealthyRunWithinTheEstimatesToleranceHasNothingToBlame(@TempDir Path dir) throws IOException {
        double e0 = healthyStep(dir.resolve("a"));
        Diagnosis d = diagnose(Files.createDirectories(dir.resolve("b")), IB, Fixtures.healthy(), log(e0 * 1.08));
        assertEquals("none", d.attribution().cause());
        assertFalse(d.attribution().found(), d.attribution().text());
        assertEquals(e0 * 1.08, d.measured().stepSeconds(), e0 * 0.01, "the median step, the warm-up left out");
        assertEquals(9, d.measured().steps());
        assertEquals("train.log", d.measured().where().file());
        for (Diagnosis.Step s : d.path()) {
            if (!s.id().equals("gpu-utilisation")) assertEquals(Verdict.OK, s.verdict(), s.id() + ": " + s.finding());
        }
        assertTrue(d.attribution().text().startsWith("nothing to blame: the step measured ("), d.attribution().text());
        assertTrue(d.attribution().text().contains("is within 20 % of the estimate's"), d.attribution().text());
        // the MFU the log does not state comes from the step: the estimate's model FLOPs over the measured time
        assertEquals(d.expected().catalogMfu() / 1.08, d.measured().mfu(), 0.01);
        assertFalse(d.measured().mfuStated());
    }

    @Test
    void aTorchtitanLogsTokensPerSecondGiveTheStep(@TempDir Path dir) throws IOException {
        double e0 = healthyStep(dir.resolve("a"));
        double tps = 64.0 * 4096 / (e0 * 1.05 * 16);           // the global batch's tokens over 16 GPUs in 1.05 × e0
        List<Evidence.TrainStep> steps = new ArrayList<>();
        for (int i = 1; i <= 5; i++) steps.add(new Evidence.TrainStep(i, -1, tps, -1, 38.5, 61.2, -1, Span.at("titan.log", 10 + i, 1)));
        Evidence.TrainingLog titan = new Evidence.TrainingLog("titan.log", "torchtitan", Span.at("titan.log", 11, 1), steps, 0, 0);
        Diagnosis d = diagnose(Files.createDirectories(dir.resolve("b")), IB, Fixtures.healthy(), titan);
        assertEquals(e0 * 1.05, d.measured().stepSeconds(), e0 * 1e-6);
        assertEquals(0.385, d.measured().mfu(), 1e-9, "the log's MFU, as printed");
        assertTrue(d.measured().mfuStated());
        assertEquals("torchtitan, step from tokens/s per GPU", d.measured().framework());
        assertEquals("none", d.attribution().cause());
    }

    @Test
    void theConfigurationsEfficienciesPriceTheJobAsThePlanDoes(@TempDir Path dir) throws IOException {
        Fixtures.project(dir, IB, Fixtures.healthy());
        RunOutcome run = Checks.check(new Project(dir).paths(List.of(dir.toString())).request());
        double asCatalog = Diagnoser.diagnose(run.estimates(), run.facts(), run.result().findings(), null).diagnosis().expected().catalogStep();
        double slowGemm = Diagnoser.diagnose(run.estimates(), run.facts(), run.result().findings(), null, Map.of("gemm", 0.35)).diagnosis().expected().catalogStep();
        assertTrue(slowGemm > 1.3 * asCatalog, slowGemm + " vs " + asCatalog);
    }

    @Test
    void aSlowRunNoCaptureExplainsSaysSoAndNamesWhatToCapture(@TempDir Path dir) throws IOException {
        double e0 = healthyStep(dir.resolve("a"));
        Diagnosis d = diagnose(Files.createDirectories(dir.resolve("b")), IB, Fixtures.healthy(), log(e0 * 2));
        assertEquals("unknown", d.attribution().cause());
        assertTrue(d.attribution().found());
        assertEquals(Verdict.SUSPECT, step(d, "bottleneck").verdict());
        assertTrue(d.captures().stream().anyMatch(c -> c.startsWith("nvidia-smi --query-gpu=timestamp,index,utilization.gpu,clocks.sm")),
                "utilisation and clocks were not captured: " + d.captures());
    }

    @Test
    void ncclOnSocketsIsPricedAtTheMeasuredBusBandwidthAndExplainsTheStep(@TempDir Path dir) throws IOException {
        String[] c = with(Fixtures.healthyBut("train.nccl.log", Fixtures.ncclLog("Socket", false, null)),
                "burnin.all_reduce_perf.txt", Fixtures.allReduce(2.9));
        Diagnosis probe = diagnose(dir.resolve("a"), IB, c);
        double e1 = probe.expected().measuredStep(), e0 = probe.expected().catalogStep();
        assertTrue(e1 > 2 * e0, "2.9 GB/s across nodes slows the step: " + e1 + " vs " + e0);
        Diagnosis d = diagnose(Files.createDirectories(dir.resolve("b")), IB, c, log(e1 * 1.05));
        assertEquals("network", d.attribution().cause());
        assertEquals(Verdict.BAD, step(d, "nccl").verdict());
        assertTrue(step(d, "nccl").where().file().endsWith("evidence/train.nccl.log"));
        assertEquals(4, step(d, "nccl").where().startLine(), "the NET/Socket line");
        assertTrue(step(d, "nccl").rules().contains("EVID010"), step(d, "nccl").rules().toString());
        assertEquals(List.of("sockets", "busbw-network"), d.expected().changes().stream().map(p -> p.change().id()).toList());
        assertEquals(e1 - e0, d.attribution().explained(), 1e-9);
        String t = d.attribution().text();
        assertEquals("NCCL's TCP socket transport (NET/Socket) (evidence/train.nccl.log:4), at the 2.90 GB/s bus bandwidth nccl-tests measured"
                + " (evidence/burnin.all_reduce_perf.txt:30): on the links as measured the step takes " + Diagnoser.secs(e1) + " of the "
                + Diagnoser.secs(d.measured().stepSeconds()) + " seen; on NCCL's IB verbs transport over 8 × 400 Gb/s ConnectX-7 per node (RDMA) as the cluster declares it would take "
                + Diagnoser.secs(e0) + " (" + Math.round(100 * (e1 - e0) / (d.measured().stepSeconds() - e0)) + " % of the gap explained)", t);
    }

    @Test
    void ncclOverIbIsQuiet(@TempDir Path dir) throws IOException {
        Diagnosis d = diagnose(dir, IB, Fixtures.healthy());
        assertEquals(Verdict.OK, step(d, "nccl").verdict());
        assertTrue(step(d, "nccl").finding().startsWith("NCCL uses its IB verbs transport (NET/IB), 2 of 2 network channels with GPUDirect RDMA"),
                step(d, "nccl").finding());
        assertTrue(d.expected().changes().stream().noneMatch(p -> p.change().id().equals("sockets")));
    }

    @Test
    void aPortAtAQuarterOfItsRateIsPricedAtItsRate(@TempDir Path dir) throws IOException {
        String[] c = Fixtures.healthyBut("dgx-01.ibstat.txt", Fixtures.ibstat(100, "InfiniBand"));
        c = java.util.Arrays.copyOf(c, 8);                                          // no nccl-tests: the ports price it alone
        Diagnosis probe = diagnose(dir.resolve("a"), IB, c);
        double e1 = probe.expected().measuredStep(), e0 = probe.expected().catalogStep();
        assertTrue(e1 > e0, e1 + " vs " + e0);
        Diagnosis d = diagnose(Files.createDirectories(dir.resolve("b")), IB, c, log(e0 * 1.25));
        Diagnosis.Step n = step(d, "network");
        assertEquals(Verdict.BAD, n.verdict());
        assertEquals("the slowest node's compute ports: 8 up at 800 Gb/s together of the 3200 Gb/s declared (8 × 400 Gb/s ConnectX-7 per node (RDMA))",
                n.finding());
        assertEquals(11, n.where().startLine(), "mlx5_0's Rate line");
        assertTrue(n.rules().contains("EVID006"));
        assertEquals(List.of("port-rate"), d.expected().changes().stream().map(p -> p.change().id()).toList());
        assertEquals("network", d.attribution().cause());
        assertTrue(d.attribution().text().startsWith("8 ports up at 800 Gb/s together ("), d.attribution().text());
    }

    /** A node group that declares no NIC is priced on an assumed one; with no ibstat either, the network is not known to be OK. */
    @Test
    void anAssumedNicWithoutPortsIsNotCapturedNotOk(@TempDir Path dir) throws IOException {
        String noNics = IB.replaceAll("(?m)^\\s*nics:\\n.*\\n", "");
        assertTrue(!noNics.contains("nics") && noNics.contains("pcie"), noNics);
        Diagnosis d = diagnose(dir, noNics, new String[0]);
        Diagnosis.Step n = step(d, "network");
        assertEquals(Verdict.NOT_CAPTURED, n.verdict(), n.finding());
        assertTrue(n.finding().startsWith("no ibstat or ibv_devinfo of the job's nodes, and the cluster declares no NIC: one 400 Gb/s NIC per GPU (assumed"),
                n.finding());
        assertTrue(d.captures().stream().anyMatch(c -> c.contains("ibstat")), d.captures().toString());
    }

    @Test
    void portsAtTheirRateAreQuiet(@TempDir Path dir) throws IOException {
        Diagnosis d = diagnose(dir, IB, Fixtures.healthy());
        assertEquals(Verdict.OK, step(d, "network").verdict());
        assertTrue(d.expected().changes().stream().noneMatch(p -> p.change().id().equals("port-rate")));
    }

    @Test
    void nvlinksDownPutTheTrafficOnPcieAndExplainTheStep(@TempDir Path dir) throws IOException {
        String[] c = Fixtures.healthyBut("dgx-01.nvlink-s.txt", Fixtures.nvlinks(3, 18));
        Diagnosis probe = diagnose(dir.resolve("a"), IB, c);
        double e1 = probe.expected().measuredStep(), e0 = probe.expected().catalogStep();
        assertTrue(e1 > 1.5 * e0, "tp 8 on PCIe Gen5: " + e1 + " vs " + e0);
        Diagnosis d = diagnose(Files.createDirectories(dir.resolve("b")), IB, c, log(e1));
        Diagnosis.Step s = step(d, "nvlink");
        assertEquals(Verdict.BAD, s.verdict());
        assertEquals("18 links inactive on 1 of 8 GPUs; the worst GPU has 0 of 18 up: its traffic inside the node rides PCIe Gen5", s.finding());
        assertEquals(3 * 19 + 2, s.where().startLine(), "GPU 3's Link 0");
        assertEquals(List.of("EVID014"), s.rules());
        assertEquals("nvlink", d.attribution().cause());
        assertTrue(d.attribution().text().startsWith("a GPU with no NVLink up: traffic inside the node rides PCIe Gen5 at 63.0 GB/s per direction ("),
                d.attribution().text());
    }

    @Test
    void someNvlinksDownSlowTheRingToTheWorstGpusShare(@TempDir Path dir) throws IOException {
        Diagnosis d = diagnose(dir, IB, Fixtures.healthyBut("dgx-01.nvlink-s.txt", Fixtures.nvlinks(5, 6)));
        assertEquals("6 links inactive on 1 of 8 GPUs; the worst GPU has 12 of 18 up: a ring runs at its pace", step(d, "nvlink").finding());
        assertEquals("12 of 18 links up on the worst GPU: 300 GB/s per direction", d.expected().changes().get(0).change().measured());
    }

    @Test
    void nicsBehindTheOtherSocketWithoutGpuDirectAreNamedAndTheMeasuredBusBandwidthPricesThem(@TempDir Path dir) throws IOException {
        String noGdr = Fixtures.cluster("infiniband", "", false);
        String[] c = Fixtures.healthyBut("dgx-01.topo-m.txt", Fixtures.topo(true));
        c = with(c, "train.nccl.log", Fixtures.ncclLog("IB", false, null));
        c = with(c, "burnin.all_reduce_perf.txt", Fixtures.allReduce(12));
        Diagnosis probe = diagnose(dir.resolve("a"), noGdr, c);
        double e1 = probe.expected().measuredStep();
        Diagnosis d = diagnose(Files.createDirectories(dir.resolve("b")), noGdr, c, log(e1));
        Diagnosis.Step p = step(d, "pcie");
        assertEquals(Verdict.BAD, p.verdict());
        assertTrue(p.finding().startsWith("8 of 8 GPUs reach their nearest NIC only across the CPU sockets (SYS: GPU0 to mlx5_0); without GPUDirect"
                + " RDMA: no NCCL network channel ends in /GDRDMA ("), p.finding());
        assertEquals(2, p.where().startLine(), "GPU0's row");
        assertEquals("pcie", d.attribution().cause(), "the network measured slow has no cause of its own: the path to the NICs is");
        assertEquals("the PCIe path between GPUs and NICs, " + Diagnoser.secs(d.attribution().explained()) + " of the "
                + Diagnoser.secs(d.attribution().gap()) + " gap", step(d, "bottleneck").finding());
        assertTrue(d.attribution().text().contains("; the GPUs reach their NICs across the CPU sockets without GPUDirect RDMA, which the measured"
                + " bus bandwidth includes"), d.attribution().text());
    }

    @Test
    void nicsOnTheGpusSwitchAreQuiet(@TempDir Path dir) throws IOException {
        Diagnosis d = diagnose(dir, IB, Fixtures.healthy());
        assertEquals(Verdict.OK, step(d, "pcie").verdict());
        assertEquals("each of 8 GPUs shares a PCIe switch with its NIC (PIX); NCCL's network channels use GPUDirect RDMA (/GDRDMA)",
                step(d, "pcie").finding());
    }

    @Test
    void roceWithoutPfcUnderLossIsBlamedOnTheNcclWarning(@TempDir Path dir) throws IOException {
        String roce = Fixtures.cluster("roce", "  roce:\n    pfc: { enabled: false }\n", true);
        String warn = "NET/IB : Got completion from peer 10.1.0.12<52310> with error 12, opcode 0, len 0, vendor err 129 (Send) hca mlx5_3";
        String[] c = Fixtures.healthyBut("train.nccl.log", Fixtures.ncclLog("IB", true, warn));
        c = with(c, "dgx-01.ibstat.txt", Fixtures.ibstat(400, "Ethernet"));
        c = with(c, "burnin.all_reduce_perf.txt", Fixtures.allReduce(6));
        Diagnosis probe = diagnose(dir.resolve("a"), roce, c);
        Diagnosis d = diagnose(Files.createDirectories(dir.resolve("b")), roce, c, log(probe.expected().measuredStep()));
        Diagnosis.Step n = step(d, "network");
        assertEquals(Verdict.BAD, n.verdict());
        assertTrue(n.finding().endsWith("; RoCE, PFC disabled (cluster.yaml:7); NCCL reports lost or retried RDMA"
                + " transfers: '" + warn + "'"), n.finding());
        assertEquals(9, n.where().startLine(), "the NCCL WARN line");
        assertEquals("network", d.attribution().cause());
        assertTrue(d.attribution().text().contains("the RoCE fabric drops and retries transfers without PFC: enable PFC on the RoCE priority"),
                d.attribution().text());
        assertTrue(d.captures().stream().anyMatch(x -> x.startsWith("the RoCE ports' counters: ethtool -S <netdev>")), d.captures().toString());
    }

    @Test
    void roceWithPfcAndNoLossIsQuietButSaysCountersWouldShowDrops(@TempDir Path dir) throws IOException {
        String roce = Fixtures.cluster("roce", "  roce:\n    pfc: { enabled: true, priority: 3 }\n", true);
        String[] c = Fixtures.healthyBut("dgx-01.ibstat.txt", Fixtures.ibstat(400, "Ethernet"));
        Diagnosis d = diagnose(dir, roce, c);
        Diagnosis.Step n = step(d, "network");
        assertEquals(Verdict.OK, n.verdict(), n.finding());
        assertTrue(n.finding().endsWith("; whether the fabric drops packets the captures cannot show"), n.finding());
        assertFalse(d.attribution().text().contains("drops and retries"));
    }

    private static Map<String, Double> busy(double clock, double power) {
        return Map.of("gpu_util_percent", 98.0, "sm_clock_mhz", clock, "sm_clock_max_mhz", 1980.0, "power_w", power, "power_limit_w", 700.0);
    }

    @Test
    void aComputeBoundJobWithLowClocksIsPricedAtItsClock(@TempDir Path dir) throws IOException {
        double e0 = healthyStep(dir.resolve("a"));
        Diagnosis d = diagnose(Files.createDirectories(dir.resolve("b")), IB, Fixtures.healthy(), log(e0 * 1.5),
                samples(30, (t, g) -> busy(1200, 698)));
        Diagnosis.Step u = step(d, "gpu-utilisation");
        assertEquals(Verdict.BAD, u.verdict());
        assertEquals("98 % mean over 30 instants; SM clock 1200 of 1980 MHz while busy (61 %), power at 100 % of its limit", u.finding());
        assertEquals("gpus.csv", u.where().file());
        assertEquals("compute", d.attribution().cause());
        assertTrue(d.attribution().explained() > 0.2 * e0, "compute at 61 % of its clock: " + d.attribution().explained());
        assertTrue(d.attribution().text().startsWith("compute-bound at low clocks: the busy GPUs run their SMs at 1200 of 1980 MHz (gpus.csv:2)"
                + " at 100 % of the power limit: power-capped; priced at that clock (peaks × 1200 ÷ the 1830 MHz they stand for) the step"
                + " takes "), d.attribution().text());
    }

    @Test
    void aMeasuredClockIsPricedAsAStatedClockLimitOfTheSameValue(@TempDir Path dir) throws IOException {
        // one rule for a clock, stated (gpu.clock_limit_mhz) or captured under load: × clock ÷ the 1,830 MHz the H100's
        // datasheet peaks are computed at, not ÷ its 1,980 MHz maximum boost clock
        double e0 = healthyStep(dir.resolve("a"));
        String locked = IB.replace("gpu: { model: H100-SXM5-80GB, count: 8 }", "gpu: { model: H100-SXM5-80GB, count: 8, clock_limit_mhz: 1200 }");
        assertNotEquals(IB, locked);
        double e1200 = diagnose(Files.createDirectories(dir.resolve("c")), locked, Fixtures.healthy()).expected().catalogStep();
        assertTrue(e1200 > e0 * 1.2, e1200 + " vs " + e0);
        Diagnosis d = diagnose(Files.createDirectories(dir.resolve("b")), IB, Fixtures.healthy(), log(e1200 * 1.5),
                samples(30, (t, g) -> busy(1200, 698)));
        assertEquals("compute", d.attribution().cause());
        assertEquals(e1200 - e0, d.attribution().explained(), 1e-6 * e0, "the step a stated 1200 MHz limit is priced at");
    }

    @Test
    void aMeasuredClockUnderAStatedLimitIsPricedAgainstTheLimit(@TempDir Path dir) throws IOException {
        // the node group states 1500 MHz, the GPUs run at 1200: the estimate's peaks already stand for 1500, so × 1200 ÷ 1500
        String locked = IB.replace("gpu: { model: H100-SXM5-80GB, count: 8 }", "gpu: { model: H100-SXM5-80GB, count: 8, clock_limit_mhz: 1500 }");
        double e1500 = diagnose(Files.createDirectories(dir.resolve("a")), locked, Fixtures.healthy()).expected().catalogStep();
        double e1200 = diagnose(Files.createDirectories(dir.resolve("c")),
                IB.replace("gpu: { model: H100-SXM5-80GB, count: 8 }", "gpu: { model: H100-SXM5-80GB, count: 8, clock_limit_mhz: 1200 }"),
                Fixtures.healthy()).expected().catalogStep();
        Diagnosis d = diagnose(Files.createDirectories(dir.resolve("b")), locked, Fixtures.healthy(), log(e1200 * 1.5),
                samples(30, (t, g) -> busy(1200, 698)));
        assertEquals("compute", d.attribution().cause());
        assertEquals(e1200 - e1500, d.attribution().explained(), 1e-6 * e1500, "not scaled twice");
        assertTrue(d.attribution().text().contains("(peaks × 1200 ÷ the 1500 MHz they stand for)"), d.attribution().text());
    }

    @Test
    void fullClocksAreNotBlamed(@TempDir Path dir) throws IOException {
        double e0 = healthyStep(dir.resolve("a"));
        Diagnosis d = diagnose(Files.createDirectories(dir.resolve("b")), IB, Fixtures.healthy(), log(e0 * 1.5),
                samples(30, (t, g) -> busy(1975, 650)));
        assertEquals(Verdict.OK, step(d, "gpu-utilisation").verdict());
        assertNotEquals("compute", d.attribution().cause());
    }

    @Test
    void aClockWithoutItsMaximumIsNotJudgedAndTheCaptureThatWouldSayIsNamed(@TempDir Path dir) throws IOException {
        Diagnosis d = diagnose(dir, IB, Fixtures.healthy(), samples(5, (t, g) -> Map.of("gpu_util_percent", 96.0, "sm_clock_mhz", 1200.0)));
        Diagnosis.Step u = step(d, "gpu-utilisation");
        assertEquals(Verdict.OK, u.verdict());
        assertEquals("96 % mean over 5 instants; SM clock 1200 MHz while busy, its maximum not captured", u.finding());
        assertTrue(d.captures().get(0).startsWith("nvidia-smi --query-gpu=timestamp,index,utilization.gpu,clocks.sm,clocks.max.sm"), d.captures().toString());
    }

    /** Every fourth second the GPUs idle; NVLink bytes grow 40 GB/s per GPU while busy and {@code idleRate} while idle. */
    private static Evidence.GpuSamples stalls(double idleRate) {
        double[] total = new double[8];
        return samples(40, (t, g) -> {
            boolean idle = t % 4 == 3;
            total[g] += idle ? idleRate : 40e9;
            return Map.of("gpu_util_percent", idle ? 4.0 : 97.0, "nvlink_tx_bytes_total", total[g]);
        });
    }

    @Test
    void aDataLoaderStallIsUtilisationDippingWithTheLinksIdle(@TempDir Path dir) throws IOException {
        double e0 = healthyStep(dir.resolve("a"));
        Diagnosis d = diagnose(Files.createDirectories(dir.resolve("b")), IB, Fixtures.healthy(), log(e0 * 1.35), stalls(0));
        Diagnosis.Step u = step(d, "gpu-utilisation");
        assertEquals(Verdict.BAD, u.verdict());
        assertEquals("74 % mean over 40 instants; 10 of them below 30 % (lowest 4 %) while the GPUs' NVLink and PCIe traffic falls to 0.00 GB/s"
                + " from 40.0 GB/s: the GPUs wait on neither another GPU nor the network", u.finding());
        assertEquals("data-loading", d.attribution().cause());
        assertEquals(0.25 * e0 * 1.35, d.attribution().explained(), e0 * 0.01);
        assertTrue(d.attribution().text().startsWith("the GPUs wait on their input: utilisation falls below 30 % at 10 of 40 instants (gpus.csv:"),
                d.attribution().text());
    }

    @Test
    void dipsWhileTheLinksAreBusyAreNotADataLoaderStall(@TempDir Path dir) throws IOException {
        double e0 = healthyStep(dir.resolve("a"));
        Diagnosis d = diagnose(Files.createDirectories(dir.resolve("b")), IB, Fixtures.healthy(), log(e0 * 1.35), stalls(38e9));
        assertNotEquals("data-loading", d.attribution().cause());
        assertTrue(step(d, "gpu-utilisation").finding().contains("with NVLink and PCIe traffic at 38.0 GB/s (busy instants 40.0 GB/s): the GPUs are"
                + " moving data"), step(d, "gpu-utilisation").finding());
    }

    @Test
    void dcgmsProfilingRatesShowTheStallAsTheCountersDo(@TempDir Path dir) throws IOException {
        // dcgm-exporter's DCGM_FI_PROF_NVLINK_TX_BYTES is a rate in bytes/s (TelemetryReader: nvlink_tx_bytes_per_s)
        double e0 = healthyStep(dir.resolve("a"));
        Evidence.GpuSamples rates = samples(40, (t, g) -> Map.of("gpu_util_percent", t % 4 == 3 ? 4.0 : 97.0,
                "nvlink_tx_bytes_per_s", t % 4 == 3 ? 0.0 : 40e9));
        Diagnosis d = diagnose(Files.createDirectories(dir.resolve("b")), IB, Fixtures.healthy(), log(e0 * 1.35), rates);
        assertEquals("data-loading", d.attribution().cause());
        assertTrue(step(d, "gpu-utilisation").finding().endsWith("while the GPUs' NVLink and PCIe traffic falls to 0.00 GB/s"
                + " from 40.0 GB/s: the GPUs wait on neither another GPU nor the network"), step(d, "gpu-utilisation").finding());
    }

    @Test
    void aByteCounterAloneIsNeverARate() {
        // one sample per GPU: a counter with nothing to difference against gives no traffic figure
        Evidence.GpuSamples one = samples(1, (t, g) -> Map.of("gpu_util_percent", 5.0, "nvlink_tx_bytes_total", 9e12));
        Telemetry t = Telemetry.of(List.of(one));
        assertEquals(-1, t.dipTraffic());
        assertFalse(t.idleAtDips());
        assertNotNull(t.lowest());
    }
}
