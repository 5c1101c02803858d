package dev.gpulint.diagnose;

import dev.gpulint.catalog.Catalog;
import dev.gpulint.catalog.Compute;
import dev.gpulint.core.Finding;
import dev.gpulint.core.Span;
import dev.gpulint.derive.evid.Captured;
import dev.gpulint.derive.estimate.Estimate;
import dev.gpulint.derive.estimate.Estimator;
import dev.gpulint.derive.estimate.GpuClock;
import dev.gpulint.derive.estimate.Hardware;
import dev.gpulint.derive.estimate.JobEstimate;
import dev.gpulint.derive.estimate.JobInputs;
import dev.gpulint.derive.estimate.Links;
import dev.gpulint.derive.estimate.MeasuredLinks;
import dev.gpulint.derive.estimate.ModelShape;
import dev.gpulint.derive.estimate.Tier;
import dev.gpulint.diagnose.Diagnosis.Verdict;
import dev.gpulint.facts.ClusterFact;
import dev.gpulint.facts.EvidenceLineFact;
import dev.gpulint.facts.IbPortFact;
import dev.gpulint.facts.LineKind;
import dev.gpulint.facts.NcclLogFact;
import dev.gpulint.facts.NcclTestsFact;
import dev.gpulint.facts.TopoGpuFact;
import dev.gpulint.facts.TopoNicFact;
import dev.gpulint.facts.TopoPath;
import dev.gpulint.read.evidence.Evidence;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.UnaryOperator;

/**
 * `gpulint diagnose` (docs/diagnose.md): from a lint run's facts and findings, one job's measured step beside the
 * plan's estimate of it on the catalog's links and on the links its captures measured ({@link MeasuredLinks}), the
 * troubleshooting path step by step, and what explains the gap. The EVID rules judge the captures; this reads their
 * facts for the figures and cites their findings, and prices every measured figure through the one estimate.
 */
public final class Diagnoser {
    private Diagnoser() {}

    /**
     * A measured step within this share of the estimate is healthy: the estimate's spread on the runs it is validated
     * against (docs/plan.md, "Validation": small models up to +20 %, from 7.5B up within 7 %).
     */
    public static final double TOLERANCE = 0.20;

    /** A busy GPU whose SM clock runs below this share of its maximum computes slower than the estimate assumes. */
    public static final double LOW_CLOCK = 0.90;

    /** A diagnosis, or why none could be made ({@code problem}: exit 2). */
    public record Outcome(Diagnosis diagnosis, String problem) {}

    /**
     * @param estimates the lint run's estimates of its jobs (derive makes them beside the facts: dev.gpulint.derive.Derived)
     * @param facts     the lint run's facts
     * @param findings  the lint run's findings
     * @param job       --job, or null for the only job
     */
    public static Outcome diagnose(List<JobEstimate> estimates, List<Object> facts, List<Finding> findings, String job) {
        return diagnose(estimates, facts, findings, job, Map.of());
    }

    /**
     * As above, with the efficiencies `.gpulint.yaml`'s plan: overrides ({@code overrides}), as `gpulint plan` prices
     * the job.
     */
    public static Outcome diagnose(List<JobEstimate> jobs, List<Object> facts, List<Finding> findings, String job,
                                   Map<String, Double> overrides) {
        if (jobs.isEmpty()) return new Outcome(null, "nothing to diagnose: no training job with a model and a cluster node group");
        JobEstimate chosen = null;
        if (job == null) {
            if (jobs.size() > 1) {
                TreeSet<String> names = new TreeSet<>();
                for (JobEstimate e : jobs) names.add(e.job().name());
                return new Outcome(null, "more than one job: choose one with --job (" + String.join(", ", names) + ")");
            }
            chosen = jobs.get(0);
        } else {
            for (JobEstimate e : jobs) if (e.job().name().equals(job)) chosen = e;
            if (chosen == null) return new Outcome(null, "no job named '" + job + "' with a model and a cluster node group");
        }
        // the catalog's links, which the captures' measurements (MeasuredLinks) then replace: check's estimate takes the
        // nccl-tests runs linked to the node group as the plan does, so diagnose prices its baseline without them
        if (!overrides.isEmpty() || chosen.estimate() != null && !chosen.inputs().hardware().measured().isEmpty())
            chosen = JobEstimate.of(chosen.job(), Catalog.builtIn(), 0, Map.of(), overrides);
        if (chosen.estimate() == null) {
            return new Outcome(null, "job '" + chosen.job().name() + "' cannot be estimated: it does not say "
                    + String.join(", ", chosen.inputs().missing()));
        }
        return new Outcome(new Diagnoser.Run(chosen, facts, findings).diagnosis(), null);
    }

    /** One diagnosis being made. */
    private static final class Run {
        private final JobEstimate job;
        private final JobInputs in;
        private final Estimate catalog;
        private final String cluster, group;
        private final List<Object> facts;
        private final List<Finding> findings;
        private final List<UnaryOperator<MeasuredLinks>> replacements = new ArrayList<>();
        private final List<String> captures = new ArrayList<>();
        private final List<String> causes = new ArrayList<>();
        private Telemetry telemetry = Telemetry.NONE;

        Run(JobEstimate job, List<Object> facts, List<Finding> findings) {
            this.job = job;
            this.in = job.inputs();
            this.catalog = job.estimate();
            this.cluster = job.job().cluster() == null ? "" : job.job().cluster().name();
            this.group = job.job().group() == null ? "" : job.job().group().name();
            this.facts = facts;
            this.findings = findings;
        }

        Diagnosis diagnosis() {
            List<Diagnosis.Step> path = new ArrayList<>();
            path.add(utilisation());
            path.add(nvlink());
            path.add(pcie());
            path.add(nccl());
            path.add(network());
            Links links = in.hardware().links();
            MeasuredLinks all = MeasuredLinks.of(links);
            for (UnaryOperator<MeasuredLinks> r : replacements) all = r.apply(all);
            Estimate onMeasured = price(all.on(in.hardware()));
            List<Diagnosis.Priced> priced = new ArrayList<>();
            for (MeasuredLinks.Change c : all.changes()) {
                MeasuredLinks alone = MeasuredLinks.of(links);
                for (UnaryOperator<MeasuredLinks> r : replacements) {
                    MeasuredLinks next = r.apply(alone);
                    if (!next.changes().isEmpty() && next.changes().get(next.changes().size() - 1).id().equals(c.id())) alone = next;
                }
                priced.add(new Diagnosis.Priced(c, price(alone.on(in.hardware())).time().step()));
            }
            Diagnosis.Expected expected = new Diagnosis.Expected(catalog.time().step(), catalog.throughput().mfu(),
                    onMeasured.time().step(), onMeasured.throughput().mfu(), priced);
            Diagnosis.Measured measured = measured();
            Diagnosis.Attribution a = attribute(measured, expected, all);
            path.add(new Diagnosis.Step("bottleneck", "the bottleneck", a.cause().equals("none") ? Verdict.OK
                    : a.cause().equals("unknown") ? (a.found() ? Verdict.SUSPECT : Verdict.NOT_CAPTURED) : Verdict.BAD,
                    bottleneck(a, measured), null, List.of(), ""));
            boolean bad = path.stream().anyMatch(s -> s.verdict() == Verdict.BAD);
            Diagnosis.Attribution withExit = new Diagnosis.Attribution(a.cause(), a.explained(), a.gap(), a.text(), a.found() || bad);
            return new Diagnosis(job.job().name(), catalog.gpu(), catalog.layout().gpus(), measured, expected, path, withExit,
                    new ArrayList<>(new java.util.LinkedHashSet<>(captures)), !anyCapture());
        }

        private Estimate price(Hardware hw) {
            return Estimator.estimate(in.model(), in.layout(), hw, in.order(), in.bytes());
        }

        // ---- what the job measured

        private Diagnosis.Measured measured() {
            List<Evidence.TrainingLog> logs = captured(Evidence.TrainingLog.class);
            List<Evidence.TrainStep> steps = new ArrayList<>();
            String framework = "";
            boolean derived = false;
            for (Evidence.TrainingLog l : logs) {
                List<Evidence.TrainStep> timed = new ArrayList<>();
                for (Evidence.TrainStep s : l.steps()) {
                    if (s.stepSeconds() > 0) timed.add(s);
                    else if (s.tokensPerSecondPerGpu() > 0) {
                        // torchtitan prints tokens/s per GPU, not the step: the step is the global batch's tokens over
                        // the job's GPUs at that rate (the estimate's own definition of tokens/s/GPU)
                        double step = (double) catalog.layout().globalBatchSize() * catalog.model().seq()
                                / (s.tokensPerSecondPerGpu() * catalog.layout().gpus());
                        timed.add(new Evidence.TrainStep(s.iteration(), step, s.tokensPerSecondPerGpu(), s.tflopsPerGpu(), s.mfuPercent(),
                                s.memoryGib(), s.globalBatch(), s.span()));
                        derived = true;
                    }
                }
                if (timed.size() >= 3) timed = timed.subList(1, timed.size());     // the first step warms up
                if (!timed.isEmpty() && framework.isEmpty()) framework = l.framework();
                steps.addAll(timed);
            }
            if (steps.isEmpty()) {
                captures.add("the training log with its step lines (Megatron-LM's 'elapsed time per iteration (ms)', NeMo's "
                        + "'train_step_timing in s', torchtitan's 'step: .. tps: .. mfu:'): the measured step to compare with the estimate");
                return null;
            }
            List<Evidence.TrainStep> sorted = new ArrayList<>(steps);
            sorted.sort(java.util.Comparator.comparingDouble(Evidence.TrainStep::stepSeconds).thenComparingLong(Evidence.TrainStep::iteration));
            Evidence.TrainStep median = sorted.get((sorted.size() - 1) / 2);
            double step = median.stepSeconds();
            List<Double> mfus = steps.stream().map(Evidence.TrainStep::mfuPercent).filter(m -> m > 0).sorted().toList();
            boolean stated = !mfus.isEmpty();
            double mfu = stated ? mfus.get((mfus.size() - 1) / 2) / 100 : catalog.throughput().mfu() * catalog.time().step() / step;
            return new Diagnosis.Measured(step, mfu, stated, steps.size(), derived ? framework + ", step from tokens/s per GPU" : framework,
                    median.span());
        }

        // ---- the path

        private Diagnosis.Step utilisation() {
            List<Evidence.GpuSamples> samples = captured(Evidence.GpuSamples.class);
            telemetry = Telemetry.of(samples);
            String dmon = "nvidia-smi --query-gpu=timestamp,index,utilization.gpu,clocks.sm,clocks.max.sm,power.draw,power.limit --format=csv -l 1"
                    + " on a node for a minute of training (or dcgm-exporter scrapes with DCGM_FI_PROF_NVLINK_TX_BYTES and the PCIe byte counters)";
            if (telemetry.instants() == 0) {
                List<Evidence.SmiTable> tables = captured(Evidence.SmiTable.class);
                double sum = 0;
                int n = 0;
                Span where = null;
                for (Evidence.SmiTable t : tables) {
                    for (Evidence.SmiGpu g : t.gpus()) {
                        if (g.utilizationPercent() < 0) continue;
                        sum += g.utilizationPercent();
                        n++;
                        if (where == null) where = g.span();
                    }
                }
                if (n == 0) {
                    captures.add(dmon);
                    return step("gpu-utilisation", "GPU utilisation", Verdict.NOT_CAPTURED, "no utilisation captured", null, List.of(), dmon);
                }
                double mean = sum / n;
                captures.add(dmon);
                return step("gpu-utilisation", "GPU utilisation", mean >= 80 ? Verdict.OK : Verdict.SUSPECT,
                        String.format(Locale.ROOT, "%.0f %% mean over %d GPUs in one nvidia-smi snapshot: one instant cannot show dips or clocks", mean, n),
                        where, List.of(), dmon);
            }
            Telemetry t = telemetry;
            StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "%.0f %% mean over %d instants", t.meanUtil(), t.instants()));
            Verdict v = t.meanUtil() >= 80 ? Verdict.OK : t.meanUtil() >= 50 ? Verdict.SUSPECT : Verdict.BAD;
            Span where = t.lowest();
            if (t.dips() > 0) {
                s.append(String.format(Locale.ROOT, "; %d of them below %.0f %% (lowest %.0f %%)", t.dips(), Telemetry.DIP, t.lowestUtil()));
                if (t.idleAtDips()) {
                    s.append(String.format(Locale.ROOT, " while the GPUs' NVLink and PCIe traffic falls to %s from %s: the GPUs wait on neither"
                            + " another GPU nor the network", gbs(t.dipTraffic()), gbs(t.busyTraffic())));
                } else if (t.trafficKnown()) {
                    s.append(String.format(Locale.ROOT, " with NVLink and PCIe traffic at %s (busy instants %s): the GPUs are moving data",
                            gbs(t.dipTraffic()), gbs(t.busyTraffic())));
                } else {
                    s.append(": the capture shows no NVLink or PCIe traffic to tell waiting on data from waiting on the network");
                    captures.add("dcgm-exporter scrapes every few seconds with DCGM_FI_PROF_NVLINK_TX_BYTES, DCGM_FI_PROF_PCIE_TX_BYTES and"
                            + " DCGM_FI_PROF_PCIE_RX_BYTES (or nvidia-smi dmon -s ut): whether the links are busy while utilisation dips");
                }
                if (t.dipShare() >= 0.1 && v == Verdict.OK) v = Verdict.SUSPECT;
                if (t.dipShare() >= 0.1 && t.idleAtDips()) v = Verdict.BAD;
            }
            if (t.clockRatio() > 0) {
                s.append(String.format(Locale.ROOT, "; SM clock %.0f of %.0f MHz while busy (%.0f %%)", t.clockMhz(), t.clockMaxMhz(), 100 * t.clockRatio()));
                if (t.clockRatio() < LOW_CLOCK) {
                    v = Verdict.BAD;
                    where = t.clockSpan();
                }
                if (t.powerRatio() > 0) s.append(String.format(Locale.ROOT, ", power at %.0f %% of its limit", 100 * t.powerRatio()));
            } else if (t.clockOnlyMhz() > 0) {
                s.append(String.format(Locale.ROOT, "; SM clock %.0f MHz while busy, its maximum not captured", t.clockOnlyMhz()));
                captures.add(dmon);
            }
            return step("gpu-utilisation", "GPU utilisation", v, s.toString(), where, List.of(), "");
        }

        private Diagnosis.Step nvlink() {
            Links k = in.hardware().links();
            String capture = "nvidia-smi nvlink -s on each node (and nvidia-smi topo -m)";
            Map<String, int[]> perGpu = new TreeMap<>();
            Span firstDown = null;
            for (EvidenceLineFact l : of(EvidenceLineFact.class)) {
                if (l.getKind() != LineKind.NVLINK || !mine(l.isLinked(), l.getFile())) continue;
                int[] c = perGpu.computeIfAbsent(l.getFile() + "|" + l.getGpu(), x -> new int[2]);
                c[1]++;
                if (!l.isInactive()) c[0]++;
                else if (firstDown == null || before(l.getSpan(), firstDown)) firstDown = l.getSpan();
            }
            List<String> rules = rules("EVID014", "EVID002");
            if (!perGpu.isEmpty()) {
                int worstActive = Integer.MAX_VALUE, worstTotal = 0, down = 0, downGpus = 0;
                for (int[] c : perGpu.values()) {
                    if (c[0] < c[1]) { down += c[1] - c[0]; downGpus++; }
                    if (worstTotal == 0 || (double) c[0] / c[1] < (double) worstActive / worstTotal) { worstActive = c[0]; worstTotal = c[1]; }
                }
                if (down == 0) {
                    return step("nvlink", "NVLink status", Verdict.OK, String.format(Locale.ROOT, "%d GPUs, every link active (%d each)",
                            perGpu.size(), worstTotal), firstNvlinkLine(), rules, "");
                }
                int a = worstActive, tot = worstTotal;
                Span w = firstDown;
                replacements.add(m -> m.scaleUpLinks(a, tot, w));
                String text = String.format(Locale.ROOT, "%d link%s inactive on %d of %d GPUs; the worst GPU has %d of %d up%s", down,
                        down == 1 ? "" : "s", downGpus, perGpu.size(), a, tot, a == 0 ? ": its traffic inside the node rides "
                                + k.tierName(Tier.PCIE) : ": a ring runs at its pace");
                causes.add("nvlink");
                return step("nvlink", "NVLink status", Verdict.BAD, text, w, rules, "");
            }
            List<TopoGpuFact> topo = of(TopoGpuFact.class).stream().filter(t -> mine(t.isLinked(), t.getFile())).toList();
            if (!topo.isEmpty()) {
                TopoGpuFact worst = topo.get(0);
                for (TopoGpuFact t : topo) if (t.getLinks() < worst.getLinks()) worst = t;
                int expected = worst.getExpectedLinks();
                if (expected > 0 && worst.getLinks() < expected) {
                    int a = worst.getLinks();
                    Span w = worst.getSpan();
                    replacements.add(m -> m.scaleUpLinks(a, expected, w));
                    causes.add("nvlink");
                    return step("nvlink", "NVLink status", Verdict.BAD, String.format(Locale.ROOT,
                            "%s shows NV%d where the NVSwitch gives NV%d (nvidia-smi topo -m)", worst.getGpuLabel(), a, expected), w, rules, capture);
                }
                return step("nvlink", "NVLink status", Verdict.OK, String.format(Locale.ROOT, "%d GPUs show NV%d to each other (nvidia-smi topo -m)",
                        topo.size(), worst.getLinks()), worst.getSpan(), rules, "");
            }
            if (!k.scaleUp()) {
                return step("nvlink", "NVLink status", Verdict.OK, "the node group declares no NVLink: traffic inside a node rides "
                        + k.tierName(Tier.PCIE), null, rules, "");
            }
            captures.add(capture);
            return step("nvlink", "NVLink status", Verdict.NOT_CAPTURED, "no nvidia-smi nvlink -s or topo -m of the job's nodes", null, rules, capture);
        }

        private Diagnosis.Step pcie() {
            String capture = "nvidia-smi topo -m on a node";
            List<TopoNicFact> nics = of(TopoNicFact.class).stream().filter(t -> mine(t.isLinked(), t.getFile())).toList();
            List<String> rules = rules("EVID004", "EVID012", "EVID011");
            if (nics.isEmpty()) {
                captures.add(capture);
                return step("pcie", "PCIe topology", Verdict.NOT_CAPTURED, "no nvidia-smi topo -m with the NICs", null, rules, capture);
            }
            TopoNicFact worst = nics.get(0);
            for (TopoNicFact t : nics) if (rank(t.getPath()) > rank(worst.getPath())) worst = t;
            long far = nics.stream().filter(t -> rank(t.getPath()) >= rank(TopoPath.SYS)).count();
            long host = nics.stream().filter(t -> rank(t.getPath()) >= rank(TopoPath.PHB)).count();
            String gdr = gdrSeen();
            if (far > 0) {
                causes.add("pcie");
                return step("pcie", "PCIe topology", Verdict.BAD, String.format(Locale.ROOT,
                        "%d of %d GPUs reach their nearest NIC only across the CPU sockets (%s: %s to %s)%s", far, nics.size(),
                        worst.getKind(), worst.getGpu(), worst.getNicName(), gdr), worst.getSpan(), rules, "");
            }
            if (host > 0) {
                return step("pcie", "PCIe topology", Verdict.SUSPECT, String.format(Locale.ROOT,
                        "%d of %d GPUs reach their nearest NIC through the CPU's host bridge (%s: %s to %s)%s", host, nics.size(),
                        worst.getKind(), worst.getGpu(), worst.getNicName(), gdr), worst.getSpan(), rules, "");
            }
            return step("pcie", "PCIe topology", Verdict.OK, String.format(Locale.ROOT, "each of %d GPUs shares a PCIe switch with its NIC (%s)%s",
                    nics.size(), worst.getKind(), gdr), worst.getSpan(), rules, "");
        }

        /** What the NCCL log says of GPUDirect RDMA, for the PCIe step. */
        private String gdrSeen() {
            for (NcclLogFact l : of(NcclLogFact.class)) {
                if (!mine(l.isLinked(), l.getFile())) continue;
                if (l.getNetChannels() > 0 && l.getGdrChannels() == 0) {
                    return "; without GPUDirect RDMA: no NCCL network channel ends in /GDRDMA (" + at(l.getNetSpan()) + "), so each"
                            + " transfer is staged through host memory across that path";
                }
                if (l.getGdrChannels() > 0) return "; NCCL's network channels use GPUDirect RDMA (/GDRDMA)";
            }
            return "";
        }

        private Diagnosis.Step nccl() {
            String capture = "all_reduce_perf -b 1G -e 1G -f 2 -g 1 with one rank per GPU across 2 of the job's nodes, and the job's"
                    + " log with NCCL_DEBUG=INFO";
            List<NcclLogFact> logs = of(NcclLogFact.class).stream().filter(l -> mine(l.isLinked(), l.getFile())).toList();
            List<NcclTestsFact> tests = of(NcclTestsFact.class).stream().filter(t -> mine(t.isLinked(), t.getFile()) && t.getPeakBusbw() > 0).toList();
            List<String> rules = rules("EVID010", "EVID009", "EVID013", "EVID008");
            if (logs.isEmpty() && tests.isEmpty()) {
                captures.add(capture);
                return step("nccl", "NCCL performance", Verdict.NOT_CAPTURED, "no NCCL log or nccl-tests output", null, rules, capture);
            }
            List<String> said = new ArrayList<>();
            Verdict v = Verdict.OK;
            Span where = null;
            Links k = in.hardware().links();
            for (NcclLogFact l : logs) {
                if (l.getSocketLines() > 0) {
                    v = Verdict.BAD;
                    where = l.getSocketSpan();
                    said.add("inter-node traffic runs over NCCL's TCP sockets (NET/Socket)" + (k.transport() == Links.Transport.TCP ? ", as declared"
                            : " where the cluster declares " + k.networkName()));
                    if (k.transport() != Links.Transport.TCP) {
                        Span w = where;
                        replacements.add(m -> m.sockets(w));
                        causes.add("sockets");
                    }
                } else if (l.getIbLines() > 0 || l.getNetChannels() > 0) {
                    said.add("NCCL uses its IB verbs transport (NET/IB)" + (l.getNetChannels() > 0
                            ? String.format(Locale.ROOT, ", %d of %d network channels with GPUDirect RDMA", l.getGdrChannels(), l.getNetChannels()) : ""));
                    if (where == null) where = l.getAnyNetSpan();
                }
            }
            for (NcclTestsFact t : tests) {
                Tier tier = dev.gpulint.derive.net.NcclMeasured.tier(t, k);      // one host: NVLink, or PCIe on a node without it
                double frac = t.getBusbwFraction();
                said.add(String.format(Locale.ROOT, "%s over %d host%s: bus bandwidth %.3g GB/s%s", t.getTest().isEmpty() ? "nccl-tests" : t.getTest(),
                        t.getHosts(), t.getHosts() == 1 ? "" : "s", t.getPeakBusbw(), frac > 0
                                ? String.format(Locale.ROOT, " of the %.3g GB/s the declared hardware allows (%.0f %%)", t.getExpectedBusbw(), 100 * frac) : ""));
                double bytes = t.getPeakBusbw() * 1e9;
                Span w = t.getPeakSpan();
                String cat = tier == Tier.NETWORK ? k.networkName() : tier == Tier.PCIE ? k.tierName(Tier.PCIE) : k.scaleUpName();
                replacements.add(m -> m.busbw(tier, bytes, cat, w));
                if (hasFinding("EVID009", t.getFile())) {
                    if (v != Verdict.BAD) where = w;
                    v = Verdict.BAD;
                    causes.add("busbw-" + tier.id());
                } else if (where == null) where = w;
            }
            if (hasAny("EVID013") && v == Verdict.OK) v = Verdict.SUSPECT;
            if (tests.stream().noneMatch(t -> t.getHosts() > 1)) captures.add(capture);
            return step("nccl", "NCCL performance", v, String.join("; ", said), where, rules, "");
        }

        private Diagnosis.Step network() {
            String capture = "ibstat on each node (and, for RoCE, mlnx_qos -i <netdev> for PFC and ethtool -S <netdev> for its"
                    + " rx_discards_phy, rx_prio3_pause and out_of_sequence counters)";
            List<IbPortFact> ports = of(IbPortFact.class).stream().filter(p -> mine(p.isLinked(), p.getFile()) && !p.isOtherNetwork()).toList();
            List<String> rules = rules("EVID005", "EVID006", "EVID007");
            Links k = in.hardware().links();
            boolean roce = false;
            ClusterFact c = of(ClusterFact.class).stream().filter(x -> x.getName().equals(cluster)).findFirst().orElse(null);
            if (c != null && c.isRoce()) roce = true;
            for (IbPortFact p : ports) if (p.getLinkLayer().equals("Ethernet")) roce = true;
            if (ports.isEmpty() && !roce) {
                // an assumed NIC is neither declared nor measured: nothing to call OK
                boolean unknown = k.transport() == Links.Transport.RDMA || k.transport() == Links.Transport.ASSUMED;
                if (unknown) captures.add(capture);
                return step("network", "InfiniBand/RoCE", unknown ? Verdict.NOT_CAPTURED : Verdict.OK,
                        k.transport() == Links.Transport.RDMA ? "no ibstat or ibv_devinfo of the job's nodes"
                                : k.transport() == Links.Transport.ASSUMED ? "no ibstat or ibv_devinfo of the job's nodes, and the cluster declares no NIC: "
                                + k.networkName() : "the cluster declares " + k.networkName(),
                        null, rules, unknown ? capture : "");
            }
            List<String> said = new ArrayList<>();
            Verdict v = Verdict.OK;
            Span where = ports.isEmpty() ? null : ports.get(0).getSpan();
            if (!ports.isEmpty()) {
                Map<String, List<IbPortFact>> byFile = new TreeMap<>();
                for (IbPortFact p : ports) byFile.computeIfAbsent(p.getFile(), x -> new ArrayList<>()).add(p);
                double worstGbps = Double.MAX_VALUE;
                long worstUp = 0;
                Span worstSpan = null;
                for (List<IbPortFact> node : byFile.values()) {
                    double sum = 0;
                    long up = 0;
                    Span slow = null;
                    for (IbPortFact p : node) {
                        boolean active = p.isActive() && p.isLinkUp() && p.getRateGbps() > 0;
                        if (active) { sum += p.getRateGbps(); up++; }
                        if ((!active || (p.getDeclaredGbps() > 0 && p.getRateGbps() < p.getDeclaredGbps())) && slow == null) {
                            slow = p.getRateSpan() != null && active ? p.getRateSpan() : p.getStateSpan();
                        }
                    }
                    if (sum < worstGbps) { worstGbps = sum; worstUp = up; worstSpan = slow != null ? slow : node.get(0).getSpan(); }
                }
                double declared = k.transport() == Links.Transport.ASSUMED ? -1 : k.nicPerNode() * 8 / 1e9;
                said.add(String.format(Locale.ROOT, "the slowest node's compute ports: %d up at %s Gb/s together%s", worstUp, num(worstGbps),
                        declared > 0 ? String.format(Locale.ROOT, " of the %s Gb/s declared (%s)", num(declared), k.networkName()) : ""));
                if (declared > 0 && worstGbps < 0.99 * declared) {
                    v = Verdict.BAD;
                    where = worstSpan;
                    double g = worstGbps;
                    long u = worstUp;
                    Span w = worstSpan;
                    replacements.add(m -> m.portRate(g, u, w));
                    causes.add("port-rate");
                }
                for (IbPortFact p : ports) {
                    if (p.isOtherLayer()) {
                        said.add(p.getAdapter() + " port " + p.getPort() + " runs " + p.getLinkLayer() + " where " + p.getDeclaredProtocol() + " is declared");
                        if (v == Verdict.OK) { v = Verdict.BAD; where = p.getLinkLayerSpan(); }
                        break;
                    }
                }
            }
            if (roce) {
                Boolean pfc = c == null ? null : c.getPfcEnabled();
                EvidenceLineFact loss = lossLine();
                String counters = "the RoCE ports' counters: ethtool -S <netdev> (rx_discards_phy, rx_prio3_pause, tx_prio3_pause) and"
                        + " /sys/class/infiniband/<hca>/ports/1/hw_counters (out_of_sequence, packet_seq_err, np_cnp_sent), twice a minute apart";
                String p = pfc == null ? "PFC not declared (fabric.roce.pfc)" : pfc ? "PFC enabled (" + at(c.getPfcSpan()) + ")"
                        : "PFC disabled (" + at(c.getPfcSpan()) + ")";
                if (loss != null) {
                    said.add("RoCE, " + p + "; NCCL reports lost or retried RDMA transfers: '" + loss.getText() + "'");
                    if (pfc == null || !pfc) {
                        v = Verdict.BAD;
                        where = loss.getSpan();
                        causes.add("roce-loss");
                    } else if (v == Verdict.OK) {
                        v = Verdict.SUSPECT;
                        where = loss.getSpan();
                    }
                    captures.add(counters);
                } else {
                    said.add("RoCE, " + p + "; whether the fabric drops packets the captures cannot show");
                    if (pfc != null && !pfc && v == Verdict.OK) v = Verdict.SUSPECT;
                    captures.add(counters);
                }
            }
            return step("network", "InfiniBand/RoCE", v, String.join("; ", said), where, rules, "");
        }

        /** An NCCL WARN line of the job's logs that says an RDMA transfer failed or was retried. */
        private EvidenceLineFact lossLine() {
            for (EvidenceLineFact l : of(EvidenceLineFact.class)) {
                if (l.getKind() != LineKind.NCCL_WARN || !mine(l.isLinked(), l.getFile())) continue;
                String t = l.getText().toLowerCase(Locale.ROOT);
                if (t.contains("retry") || t.contains("retries") || t.contains("timeout") || t.contains("timed out")
                        || t.contains("completion with error") || t.contains("error 12") || t.contains("out of sequence")) return l;
            }
            return null;
        }

        // ---- the attribution

        private Diagnosis.Attribution attribute(Diagnosis.Measured m, Diagnosis.Expected e, MeasuredLinks all) {
            double e0 = e.catalogStep(), e1 = e.measuredStep();
            Telemetry t = telemetry;
            double clockStep = -1;
            double f = t.clockRatio() > 0 && t.clockRatio() < LOW_CLOCK ? clockFactor(t) : 1;
            if (f < 1) clockStep = price(clocked(in.hardware(), f)).time().step();
            String linksText = linksText(e, all, m);
            if (m == null) {
                if (e1 > e0 * (1 + TOLERANCE)) {
                    return new Diagnosis.Attribution(cause(e), e1 - e0, 0, linksText
                            + "; no training log was given to show the step measured", true);
                }
                if (clockStep > e0 * (1 + TOLERANCE)) {
                    return new Diagnosis.Attribution("compute", clockStep - e0, 0, clockText(clockStep, t, null), true);
                }
                return new Diagnosis.Attribution("unknown", 0, 0, "without a training log the measured step is unknown; the estimate on the"
                        + (all.unchanged() ? " catalog's links" : " measured links") + " is " + secs(e1) + (all.unchanged() ? "" : " (catalog's: " + secs(e0) + ")"), false);
            }
            double step = m.stepSeconds(), gap = step - e0;
            if (step <= e0 * (1 + TOLERANCE)) {
                return new Diagnosis.Attribution("none", 0, gap, String.format(Locale.ROOT,
                        "nothing to blame: the step measured (%s, %s) is within %.0f %% of the estimate's %s", secs(step), at(m.where()),
                        100 * TOLERANCE, secs(e0)), false);
            }
            double links = e1 - e0;
            double clock = clockStep > 0 ? clockStep - e0 : 0;
            double stall = t.idleAtDips() && t.dipShare() >= 0.1 ? t.dipShare() * step : 0;
            if (links >= clock && links >= stall && links > 0.1 * gap) {
                return new Diagnosis.Attribution(cause(e), Math.min(links, gap), gap, linksText, true);
            }
            if (clock >= stall && clock > 0.1 * gap) {
                return new Diagnosis.Attribution("compute", Math.min(clock, gap), gap, clockText(clockStep, t, m), true);
            }
            if (stall > 0.1 * gap) {
                return new Diagnosis.Attribution("data-loading", Math.min(stall, gap), gap, String.format(Locale.ROOT,
                        "the GPUs wait on their input: utilisation falls below %.0f %% at %d of %d instants (%s) while their NVLink and PCIe"
                                + " traffic drops to %s from %s, so neither another GPU nor the network holds them; those instants are %s of the %s"
                                + " step (the estimate's %s has no input time): look at the data loader's workers, the storage it reads and the"
                                + " host's CPUs", Telemetry.DIP, t.dips(), t.instants(), at(t.lowest()), gbs(t.dipTraffic()), gbs(t.busyTraffic()),
                        secs(stall), secs(step), secs(e0)), true);
            }
            StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "the step measured (%s, %s) is %s above the estimate's %s,"
                    + " and no capture given explains it", secs(step), at(m.where()), secs(gap), secs(e0)));
            if (!all.unchanged()) s.append(String.format(Locale.ROOT, " (the measured links give %s)", secs(e1)));
            s.append(": the captures listed below would tell");
            return new Diagnosis.Attribution("unknown", 0, gap, s.toString(), true);
        }

        /** The bottleneck step's line: the cause and how much of the gap it explains; the attribution says the rest. */
        private static String bottleneck(Diagnosis.Attribution a, Diagnosis.Measured m) {
            String what = switch (a.cause()) {
                case "none" -> "nothing to blame: the step is within the estimate's tolerance";
                case "unknown" -> m == null ? "no measured step to explain (no training log)" : "not explained by the captures given";
                case "network" -> "the network between nodes";
                case "nvlink" -> "the NVLink inside the node";
                case "pcie" -> "the PCIe path between GPUs and NICs";
                case "compute" -> "compute: the GPUs run below their clock";
                case "data-loading" -> "input: the GPUs wait on the data loader";
                default -> a.cause();
            };
            if (a.explained() > 0 && a.gap() > 0) {
                what += String.format(Locale.ROOT, ", %s of the %s gap", secs(a.explained()), secs(a.gap()));
            } else if (a.explained() > 0) {
                what += String.format(Locale.ROOT, ", %s more per step than the catalog's links", secs(a.explained()));
            }
            return what;
        }

        /**
         * The cause the measured links name: the tier of the replacement that alone costs most; a network measured slow
         * whose only named cause is the GPUs' path to their NICs (across the CPU sockets) is that path's.
         */
        private String cause(Diagnosis.Expected e) {
            Diagnosis.Priced top = null;
            for (Diagnosis.Priced p : e.changes()) if (top == null || p.stepSeconds() > top.stepSeconds()) top = p;
            if (top == null) return "network";
            if (top.change().tier() == Tier.NETWORK && causes.contains("pcie")
                    && causes.stream().noneMatch(c -> List.of("sockets", "port-rate", "roce-loss").contains(c))) return "pcie";
            return switch (top.change().tier()) {
                case NVLINK -> "nvlink";
                case PCIE -> "pcie";
                case NETWORK -> "network";
            };
        }

        private String linksText(Diagnosis.Expected e, MeasuredLinks all, Diagnosis.Measured m) {
            if (all.unchanged()) return "the captures measure no link below the catalog's";
            // the lead: what is wrong (sockets, ports, NVLinks: the replacement that alone costs most), then the tier's
            // nccl-tests bus bandwidth when one measured it
            Diagnosis.Priced top = null, rate = null;
            for (Diagnosis.Priced p : e.changes()) {
                if (p.change().id().startsWith("busbw-")) continue;
                if (top == null || p.stepSeconds() > top.stepSeconds()) top = p;
            }
            for (Diagnosis.Priced p : e.changes()) {
                if (p.change().id().startsWith("busbw-") && (top == null || p.change().tier() == top.change().tier())) rate = p;
            }
            if (top == null) { top = rate; rate = null; }
            StringBuilder s = new StringBuilder();
            MeasuredLinks.Change c = top.change();
            s.append(c.measured()).append(c.where() == null ? "" : " (" + at(c.where()) + ")");
            if (rate != null) {
                s.append(", at the ").append(rate.change().measured().replace("nccl-tests bus bandwidth ", "")).append(" bus bandwidth nccl-tests measured")
                        .append(rate.change().where() == null ? "" : " (" + at(rate.change().where()) + ")");
            }
            if (m != null) {
                s.append(String.format(Locale.ROOT, ": on the links as measured the step takes %s of the %s seen; on %s as the cluster"
                        + " declares it would take %s", secs(e.measuredStep()), secs(m.stepSeconds()), c.catalog(), secs(e.catalogStep())));
                double gap = m.stepSeconds() - e.catalogStep();
                double share = gap > 0 ? Math.min(1, (e.measuredStep() - e.catalogStep()) / gap) : 0;
                s.append(String.format(Locale.ROOT, " (%.0f %% of the gap explained)", 100 * share));
            } else {
                s.append(String.format(Locale.ROOT, ": on the links as measured the step would take %s; on %s as the cluster declares, %s",
                        secs(e.measuredStep()), c.catalog(), secs(e.catalogStep())));
            }
            for (Diagnosis.Priced p : e.changes()) {
                if (p == top || p == rate) continue;
                s.append(String.format(Locale.ROOT, "; also %s%s: %s alone", p.change().measured(),
                        p.change().where() == null ? "" : " (" + at(p.change().where()) + ")", secs(p.stepSeconds())));
            }
            if (causes.contains("roce-loss")) s.append("; the RoCE fabric drops and retries transfers without PFC: enable PFC on the RoCE"
                    + " priority (3 by NVIDIA's convention) on the NICs and every switch hop, with ECN marking on that class");
            if (causes.contains("pcie") && gdrSeen().contains("without GPUDirect")) {
                s.append("; the GPUs reach their NICs across the CPU sockets without GPUDirect RDMA, which the measured bus bandwidth includes");
            }
            return s.toString();
        }

        private String clockText(double clockStep, Telemetry t, Diagnosis.Measured m) {
            String power = t.powerRatio() >= 0.95 ? String.format(Locale.ROOT, " at %.0f %% of the power limit: power-capped", 100 * t.powerRatio())
                    : t.powerRatio() > 0 ? String.format(Locale.ROOT, " at %.0f %% of the power limit: not power-capped, look at temperature and"
                    + " application clocks (nvidia-smi -q -d CLOCK,PERFORMANCE shows the throttle reasons)", 100 * t.powerRatio()) : "";
            double at = peakClockMhz();
            String basis = at > 0 ? String.format(Locale.ROOT, " (peaks × %.0f ÷ the %.0f MHz they stand for)", t.clockMhz(), at) : "";
            return String.format(Locale.ROOT, "compute-bound at low clocks: the busy GPUs run their SMs at %.0f of %.0f MHz (%s)%s; priced"
                    + " at that clock%s the step takes %s%s, against %s at full clock", t.clockMhz(), t.clockMaxMhz(), at(t.clockSpan()), power,
                    basis, secs(clockStep), m == null ? "" : " of the " + secs(m.stepSeconds()) + " seen", secs(catalog.time().step()));
        }

        /**
         * The factor on the estimate's peaks at the busy SM clock the telemetry shows, by the rule a stated
         * {@code gpu.clock_limit_mhz} is priced by ({@link GpuClock#factor}): that clock ÷ the clock the peaks stand for (the
         * node group's stated clock limit when it is below the datasheet's, else the clock the datasheet's peaks are computed
         * at), at most 1; the clock ÷ the captured maximum only where the catalog states no clock for the GPU.
         */
        private double clockFactor(Telemetry t) {
            double at = peakClockMhz();
            return at > 0 ? GpuClock.factor(t.clockMhz(), at) : t.clockRatio();
        }

        /** The SM clock the estimate's peaks stand for, 0 when the catalog states none for the GPU. */
        private double peakClockMhz() {
            double datasheet = Catalog.builtIn().compute().peaks(in.hardware().gpu()).map(Compute.Peaks::clockMhz).orElse(0.0);
            GpuClock stated = GpuClock.of(job.job().group());
            return datasheet > 0 && stated.scale(datasheet) < 1 ? stated.limitMhz() : datasheet;
        }

        /** The hardware with its tensor peaks at {@code ratio} of their clock: the estimate's compute at that clock. */
        private static Hardware clocked(Hardware hw, double ratio) {
            Map<ModelShape.Dtype, Double> peaks = new EnumMap<>(ModelShape.Dtype.class);
            for (Map.Entry<ModelShape.Dtype, Double> p : hw.peakFlops().entrySet()) peaks.put(p.getKey(), p.getValue() * ratio);
            return new Hardware(hw.gpu(), hw.memoryBytes(), peaks, hw.hbmBytesPerSecond(), hw.links(), hw.measured(), hw.efficiency());
        }

        // ---- helpers

        private Diagnosis.Step step(String id, String name, Verdict v, String text, Span where, List<String> rules, String capture) {
            return new Diagnosis.Step(id, name, v, text, where, rules, capture);
        }

        /** A capture belongs to the job: linked to its node group, or linked to none when one job is diagnosed. */
        private boolean mine(boolean linked, String file) {
            if (!linked) return true;
            for (Object f : facts) {
                if (f instanceof dev.gpulint.facts.EvidenceFact e && e.getFile().equals(file) && e.isLinked()) {
                    return e.getCluster().equals(cluster) && e.getNodeGroup().equals(group);
                }
            }
            return true;
        }

        /** Whether any capture of the job was read: one the EVID facts describe, or one kept whole ({@link Captured}). */
        private boolean anyCapture() {
            for (Object f : facts) {
                if (f instanceof dev.gpulint.facts.EvidenceFact e && (!e.isLinked() || (e.getCluster().equals(cluster) && e.getNodeGroup().equals(group)))) return true;
            }
            return !capturedAll().isEmpty();
        }

        private List<Evidence> capturedAll() {
            List<Evidence> out = new ArrayList<>();
            for (Object f : facts) if (f instanceof Captured c && (!c.linked() || (c.cluster().equals(cluster) && c.nodeGroup().equals(group)))) out.add(c.evidence());
            return out;
        }

        private <T> List<T> captured(Class<T> kind) {
            List<T> out = new ArrayList<>();
            for (Evidence e : capturedAll()) if (kind.isInstance(e)) out.add(kind.cast(e));
            return out;
        }

        private <T> List<T> of(Class<T> kind) {
            List<T> out = new ArrayList<>();
            for (Object f : facts) if (kind.isInstance(f)) out.add(kind.cast(f));
            return out;
        }

        private Span firstNvlinkLine() {
            for (Object f : facts) if (f instanceof EvidenceLineFact l && l.getKind() == LineKind.NVLINK) return l.getSpan();
            return null;
        }

        /** The rule IDs among {@code ids} that found something in the run. */
        private List<String> rules(String... ids) {
            Map<String, Boolean> seen = new LinkedHashMap<>();
            for (String id : ids) for (Finding f : findings) if (f.ruleId().equals(id)) seen.put(id, true);
            return List.copyOf(seen.keySet());
        }

        private boolean hasFinding(String id, String file) {
            for (Finding f : findings) if (f.ruleId().equals(id) && f.span() != null && f.span().file().equals(file)) return true;
            return false;
        }

        private boolean hasAny(String id) {
            for (Finding f : findings) if (f.ruleId().equals(id)) return true;
            return false;
        }

        private static boolean before(Span a, Span b) {
            return a.file().compareTo(b.file()) < 0 || (a.file().equals(b.file()) && a.startLine() < b.startLine());
        }

        private static int rank(TopoPath p) {
            return p == null ? 0 : p.distance();
        }
    }

    /** "file:line". */
    static String at(Span s) {
        return s == null ? "" : s.file() + ":" + s.startLine();
    }

    static String secs(double s) {
        if (s >= 10) return String.format(Locale.ROOT, "%.1f s", s);
        if (s >= 1) return String.format(Locale.ROOT, "%.2f s", s);
        return String.format(Locale.ROOT, "%.0f ms", s * 1000);
    }

    static String gbs(double bytesPerSecond) {
        return String.format(Locale.ROOT, "%.3g GB/s", bytesPerSecond / 1e9);
    }

    static String num(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.format(Locale.ROOT, "%.3g", v);
    }
}
