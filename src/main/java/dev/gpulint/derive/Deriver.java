package dev.gpulint.derive;

import dev.gpulint.catalog.Catalog;
import dev.gpulint.derive.consist.GroupFitAnalysis;
import dev.gpulint.derive.consist.MachinesAnalysis;
import dev.gpulint.derive.consist.OriginAnalysis;
import dev.gpulint.derive.estimate.JobEstimate;
import dev.gpulint.derive.env.AttentionBackendAnalysis;
import dev.gpulint.derive.estimate.StageMemory;
import dev.gpulint.derive.estimate.UnstatedSize;
import dev.gpulint.derive.hw.NodeGroupAnalysis;
import dev.gpulint.derive.mem.MemoryAnalysis;
import dev.gpulint.derive.nccl.EnvAnalysis;
import dev.gpulint.derive.net.AllReduceAnalysis;
import dev.gpulint.derive.net.ClusterAnalysis;
import dev.gpulint.derive.net.NcclMeasured;
import dev.gpulint.derive.net.NicPolicyAnalysis;
import dev.gpulint.derive.ops.DcgmAnalysis;
import dev.gpulint.derive.par.Bf16LayersAnalysis;
import dev.gpulint.derive.par.HybridLayersAnalysis;
import dev.gpulint.derive.par.StepGatherAnalysis;
import dev.gpulint.derive.par.BubbleAnalysis;
import dev.gpulint.derive.par.FlexBackendAnalysis;
import dev.gpulint.derive.par.LinearLossAnalysis;
import dev.gpulint.derive.par.JobAnalysis;
import dev.gpulint.derive.par.TpPlacementAnalysis;
import dev.gpulint.derive.unit.BandwidthReadings;
import dev.gpulint.spec.Model;
import dev.gpulint.spec.Specs;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The derive stage: resolves the bound specs once ({@link Resolver}), then runs each rule
 * family's analysis over the resolved records. The analyses compute quantities and emit the
 * facts the rules match; none reads a fact back.
 */
public final class Deriver {

    private final Catalog catalog;
    private final boolean estimates;
    private final boolean environmentOnce;
    private final EnvAnalysis.Readings readings;
    private List<?> evidence = List.of();
    private Map<String, Double> overrides = Map.of();

    public Deriver(Catalog catalog) { this(catalog, true); }

    /**
     * @param estimates false: no {@code JobEstimate} and no {@code StageMemoryFact} per job (the first is no fact: see
     *                  {@link Derived}; the plan's candidate search brings its own memory facts, per recompute choice, in place of the
     *                  second), so checking thousands of candidate layouts does not price each one's step
     */
    public Deriver(Catalog catalog, boolean estimates) { this(catalog, estimates, false); }

    /**
     * @param environmentOnce true: jobs that share one environment map, cluster, node group, node count and file get the
     *                        environment's facts once, as the first of them ({@link EnvAnalysis#EnvAnalysis(boolean)}): for
     *                        the plan's candidate search, whose candidate jobs all share the job's environment
     */
    public Deriver(Catalog catalog, boolean estimates, boolean environmentOnce) { this(catalog, estimates, environmentOnce, null); }

    /** As above, the environments read once for every derive run that shares {@code readings} (null: for this run alone). */
    public Deriver(Catalog catalog, boolean estimates, boolean environmentOnce, EnvAnalysis.Readings readings) {
        this.catalog = catalog;
        this.estimates = estimates;
        this.environmentOnce = environmentOnce;
        this.readings = readings;
    }

    /**
     * What `gpulint plan` prices the job's collectives with besides the catalog, for NET003 to price its all-reduce and
     * check's estimate of each job ({@link JobEstimate}: the layout fixes' and diagnose's start) to price the job as the plan does: the evidence stage's facts (the nccl-tests runs linked to a node group: derive/net/NcclMeasured) and a
     * project's {@code plan:} efficiencies.
     */
    public Deriver pricedAsPlanned(List<?> evidence, Map<String, Double> overrides) {
        this.evidence = List.copyOf(evidence);
        this.overrides = Map.copyOf(overrides);
        return this;
    }

    /**
     * The facts of what binding made: clusters and jobs, the GPU-monitoring configuration the adapters read
     * (counter lists and PromQL uses of DCGM fields) and the NIC policies of the network operators
     * (SriovNetworkNodePolicy, NicConfigurationTemplate); and beside the facts each job's estimate, which no rule
     * matches (the plan, diagnose and the layout fixes read it from {@link Derived#estimates}).
     */
    public Derived derive(Model model) {
        List<Specs.Cluster> clusters = model.clusters();
        List<Specs.Job> jobs = model.jobs();
        Facts out = new Facts();
        List<JobEstimate> estimated = new ArrayList<>();
        JobAnalysis.reset();
        Resolver resolver = new Resolver(catalog);
        BandwidthReadings bandwidths = new BandwidthReadings(catalog, out);
        NodeGroupAnalysis groups = new NodeGroupAnalysis(catalog, out);
        EnvAnalysis env = new EnvAnalysis(environmentOnce, readings);
        OriginAnalysis origins = new OriginAnalysis();
        HybridLayersAnalysis hybrid = new HybridLayersAnalysis();     // counts a pattern's M places once per run
        List<Resolved.Cluster> resolved = resolver.clusters(clusters);
        for (Resolved.Cluster c : resolved) {
            ClusterAnalysis.cluster(c, out);
            bandwidths.fabric(c);
            for (Resolved.Group g : c.groups()) {
                groups.group(g, c.fabric());
                bandwidths.group(g, c.fabric());
            }
        }
        for (Specs.Job spec : jobs) {
            if (spec.name() == null) continue;
            Resolved.Job j = resolver.job(spec);
            JobAnalysis.job(j, out);
            TpPlacementAnalysis.job(j, catalog, out);
            bandwidths.job(j);
            env.analyse(j, out);
            BubbleAnalysis.job(j, out);
            Bf16LayersAnalysis.job(j, out);
            hybrid.job(j, out);
            StepGatherAnalysis.job(j, out);
            AttentionBackendAnalysis.job(j, out);
            FlexBackendAnalysis.job(j, catalog, out);
            FlexBackendAnalysis.refusedSwitch(j, out);
            LinearLossAnalysis.job(j, out);
            // what the plan prices the job with besides the catalog (nccl-tests runs linked to its node group, plan:
            // efficiencies): check's estimate and NET003's all-reduce take them as `gpulint plan` does
            Map<dev.gpulint.derive.estimate.Tier, Double> measured = NcclMeasured.of(evidence, j, catalog);
            JobEstimate e = estimates && j.group() != null && j.spec().model() != null
                    ? JobEstimate.of(j, catalog, 0, measured, overrides) : null;
            // a job whose files state no GPU count (nor dp) is held to its node group's size, the one `gpulint plan` prices it
            // at (UnstatedSize: the most it can be given there, where its states per GPU are the least), and the memory
            // findings say so; the estimate the plan, diagnose and the layout fixes start from stays the job as written
            UnstatedSize.Size sized = e == null ? null : UnstatedSize.of(j);
            JobEstimate memory = sized == null ? e : JobEstimate.of(j, catalog, sized.gpus(), measured, overrides);
            // a torchtitan job naming its flavor gets MEM001's states from this estimate, the plan's (MemoryAnalysis#named)
            MemoryAnalysis.job(j, catalog, memory, sized, out);
            if (e != null) {
                estimated.add(e);
                StageMemory.fact(memory, sized).ifPresent(out::add);
            }
            AllReduceAnalysis.job(j, catalog, measured, overrides, out);
            origins.analyse(j, out);
            MachinesAnalysis.job(j, out);
            GroupFitAnalysis.job(j, out);
        }
        bandwidths.finish();
        JobAnalysis.reset();
        DcgmAnalysis.fields(model.counters(), model.queries(), out);
        for (Specs.NicPolicy p : model.nicPolicies()) NicPolicyAnalysis.policy(p, resolved, out);
        return new Derived(out.list(), estimated);
    }
}
