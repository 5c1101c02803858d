package dev.gpulint.plan;

import dev.gpulint.derive.estimate.UnstatedSize;

import dev.gpulint.catalog.Catalog;
import dev.gpulint.core.Finding;
import dev.gpulint.derive.estimate.JobEstimate;
import dev.gpulint.derive.estimate.Tier;
import dev.gpulint.derive.estimate.TierTable;
import dev.gpulint.derive.estimate.Collective;
import dev.gpulint.core.LintResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import dev.gpulint.derive.estimate.Layout;
import dev.gpulint.derive.Resolved;
import dev.gpulint.spec.Format;
import dev.gpulint.spec.Specs;
import dev.gpulint.meta.RuleCatalog;
import dev.gpulint.plan.search.Candidate;

/**
 * `gpulint plan` (../spec/PLAN.md): from the jobs' estimates and the facts of a lint run, the job to plan, priced as written ("current"),
 * with the nccl-tests measurements linked to its node group replacing the catalog's bus bandwidth of their tier.
 * Then every candidate layout, checked by the built-in rules and ranked by the estimate ({@link PlanSearch}).
 */
public final class Planner {
    private Planner() {}

    /** A plan, or why none could be made ({@code problem}, exit 2). */
    public record Outcome(Plan plan, String problem) {}

    /**
     * The plan of one job: the job as written and, in {@code ranking}, every candidate layout checked and ranked;
     * {@code collectives}: what its data-parallel all-reduce (and a collective the user names) costs on each tier.
     */
    public record Plan(JobEstimate current, List<String> findings, List<String> assumptions, String cluster, String nodeGroup,
                       PlanSearch.Ranking ranking, List<TierTable> collectives) {
        /** The best valid layout of the job (the first candidate), if any is valid. */
        public Optional<Layout> best() { return ranking == null ? Optional.empty() : ranking.best().map(Candidate::layout); }
    }

    /**
     * The best valid layout of a job (#28's fix model asks this): the first candidate of its plan, by the estimate's
     * tokens/s/GPU, among the layouts gpulint's rules pass; empty when the job cannot be planned or nothing is valid.
     */
    public static Optional<Layout> best(List<JobEstimate> estimates, List<Object> facts, LintResult result, Catalog catalog, String job) {
        Outcome o = plan(estimates, facts, result, catalog, job, 0, 0, Map.of(), false);
        return o.plan() == null ? Optional.empty() : o.plan().best();
    }

    /**
     * @param estimates the jobs' estimates of the lint run (derive makes them beside the facts: dev.gpulint.derive.Derived)
     * @param facts     the derived facts of the lint run (the nccl-tests measurements, the jobs that cannot be estimated)
     * @param result    the lint run's findings (the current layout's rule IDs are those about the job: {@link #about})
     * @param job       --job, or null
     * @param gpus      --gpus (0: as written); --nodes is converted by the caller
     * @param overrides .gpulint.yaml plan: efficiencies
     */
    public static Outcome plan(List<JobEstimate> estimates, List<Object> facts, LintResult result, Catalog catalog, String job,
                               long gpus, long nodes, Map<String, Double> overrides) {
        return plan(estimates, facts, result, catalog, job, gpus, nodes, overrides, true, true);
    }

    /**
     * As above; {@code advise} false leaves out what would make an infeasible job valid (the searches over more GPUs
     * and ZeRO): a caller that wants only the best valid layout (the layout fixes, run by `check`) does not pay for them.
     */
    public static Outcome plan(List<JobEstimate> estimates, List<Object> facts, LintResult result, Catalog catalog, String job,
                               long gpus, long nodes, Map<String, Double> overrides, boolean advise) {
        return plan(estimates, facts, result, catalog, job, gpus, nodes, overrides, advise, false);
    }

    /** As above; {@code sizeUnstated}: a job that states no GPU count is planned on its node group ({@link UnstatedSize}). */
    private static Outcome plan(List<JobEstimate> jobs, List<Object> facts, LintResult result, Catalog catalog, String job,
                                long gpus, long nodes, Map<String, Double> overrides, boolean advise, boolean sizeUnstated) {
        if (jobs.isEmpty()) return new Outcome(null, nothingToPlan(facts));
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
        long perNode = chosen.job().gpusPerNode() > 0 ? chosen.job().gpusPerNode()
                : chosen.job().group() == null ? 0 : chosen.job().group().gpusPerNode();
        long size = gpus > 0 ? gpus : nodes > 0 && perNode > 0 ? nodes * perNode : 0;
        UnstatedSize.Size unstated = size == 0 && sizeUnstated ? UnstatedSize.of(chosen.job()) : null;
        if (unstated != null) size = unstated.gpus();
        String tooBig = size(chosen, gpus, nodes, perNode, size);
        if (tooBig != null) return new Outcome(null, tooBig);
        Map<Tier, Double> measured = measured(facts, chosen, catalog);
        JobEstimate current = JobEstimate.of(chosen.job(), catalog, size, measured, overrides);
        if (current.estimate() == null) {
            return new Outcome(null, "job '" + chosen.job().name() + "' cannot be estimated: it does not say "
                    + String.join(", ", current.inputs().missing()));
        }
        String unpriced = noWholeMicroBatches(current.estimate().layout(), chosen.job(), result);
        if (unpriced != null) return new Outcome(null, unpriced);
        TreeSet<String> ids = new TreeSet<>();
        for (Finding f : result.findings()) if (about(f, chosen.job().name())) ids.add(f.ruleId());
        String cluster = chosen.job().cluster() == null ? null : chosen.job().cluster().name();
        String group = chosen.job().group() == null ? null : chosen.job().group().name();
        Map<String, Double> params = ruleParams(facts);
        PlanSearch.Ranking ranking = PlanSearch.rank(current, catalog, RuleCatalog.builtIn(), params, size, perNode, advise);
        List<String> assumptions = new ArrayList<>();
        if (unstated != null) assumptions.add(unstated.assumption());
        assumptions.addAll(current.inputs().assumptions());
        if (ranking.narrowed() != null) assumptions.add(ranking.narrowed());
        assumptions.add("a candidate layout fits when its fullest stage's model states and activations are within the GPU's memory "
                + "(MEM003) and its model states leave at least the share MEM002 keeps free (" + keptFree(params) + " for activations, NCCL "
                + "buffers, the CUDA context and fragmentation); a memory finding rejects a candidate whatever its level");
        List<TierTable> collectives = new ArrayList<>();
        TierTable dp = TierTable.dataParallel(current.estimate(), current.inputs().hardware(), current.inputs().order());
        if (dp != null) collectives.add(dp);
        return new Outcome(new Plan(current, List.copyOf(ids), List.copyOf(assumptions), cluster, group, ranking, List.copyOf(collectives)), null);
    }

    /**
     * The rule parameters the lint run inserted ({@code "MEM002.warn_at" → 0.85}: every rule's default, or the value the
     * project's .gpulint.yaml {@code params:} sets), the candidates judged by the same: a candidate the job's own check
     * would flag is not proposed, nor one it accepts dropped.
     */
    static Map<String, Double> ruleParams(List<Object> facts) {
        Map<String, Double> params = new java.util.TreeMap<>();
        for (Object f : facts) if (f instanceof dev.gpulint.facts.RuleParam p) params.put(p.rule() + "." + p.name(), p.value());
        return params;
    }

    /** MEM002's warn_at and the share it keeps free: "warn_at 0.9: a tenth" by default, else "20% (warn_at 0.8, .gpulint.yaml params:)". */
    static String keptFree(Map<String, Double> params) {
        double at = PlanSearch.warnAt(params);
        return at == 0.9 ? "warn_at 0.9: a tenth" : PlanSearch.keptShare(at);
    }

    /**
     * The plan with one more collective priced on every tier (--collective): {@code kind} of {@code bytes} per GPU
     * (≤ 0: the data-parallel gradients), or the plan unchanged when the job has no such group.
     */
    public static Plan withCollective(Plan p, Collective kind, double bytes) {
        JobEstimate c = p.current();
        TierTable t = TierTable.named(c.estimate(), c.inputs().hardware(), c.inputs().order(), c.inputs().variants().moe(), kind, bytes);
        if (t == null) return p;
        List<TierTable> all = new ArrayList<>(p.collectives());
        all.add(t);
        return new Plan(p.current(), p.findings(), p.assumptions(), p.cluster(), p.nodeGroup(), p.ranking(), List.copyOf(all));
    }

    /**
     * A finding of `check` about the job named {@code job}: its identity names the job ("training_job:NAME" or
     * "job:NAME", alone or followed by "/aspect"), whichever file it points at; findings about other jobs of the same
     * files, or about the cluster, are not the job's.
     */
    static boolean about(Finding f, String job) {
        String id = f.identity();
        if (id == null) return false;
        for (String kind : new String[] {"training_job:", "job:"}) {
            String head = kind + job;
            if (id.equals(head) || id.startsWith(head + "/")) return true;
        }
        return false;
    }

    /** The most GPUs a plan searches ({@link UnstatedSize#MAX_GPUS}, where the size of a job that states none is capped too). */
    public static final long MAX_GPUS = UnstatedSize.MAX_GPUS;

    /** Why the plan's size cannot be planned (more than {@link #MAX_GPUS}, or not a multiple of tp × pp × cp), or null. */
    private static String size(JobEstimate chosen, long gpus, long nodes, long perNode, long size) {
        long planned = size > 0 ? size : chosen.job().totalGpus();
        String given = gpus > 0 ? "--gpus " + gpus : nodes > 0 ? "--nodes " + nodes + " × " + perNode + " GPUs per node = " + size
                : "job '" + chosen.job().name() + "' asks for " + planned + " GPUs, which";
        if (planned > MAX_GPUS) {
            return String.format("%s is more than the %,d GPUs plan searches (the ranking checks every layout with the rules, "
                    + "in time growing with the GPUs); plan a part of the job that repeats, with --gpus or --nodes", given, MAX_GPUS);
        }
        long grid = Math.max(1, chosen.job().tp()) * Math.max(1, chosen.job().pp()) * Math.max(1, chosen.job().cp());
        if (size > 0 && size % grid != 0) {
            return given + " is not a multiple of the job's tp × pp × cp = " + chosen.job().tp() + " × " + chosen.job().pp() + " × "
                    + Math.max(1, chosen.job().cp()) + " = " + grid + ", so no data-parallel size fills it; give a multiple of " + grid;
        }
        return null;
    }

    /**
     * Why the layout as written cannot be priced: its global batch is not a whole number of micro batch × dp
     * ({@link Layout#microBatches()} is 0, the one home of the count), a layout the job's framework refuses (PAR007); null
     * when it is or when check does not raise PAR007 (dp comes from --gpus/--nodes, not the files: the ranking at that size
     * is what the user asked for, and the report says the count is no whole number). A step of 1 ÷ 24 micro-batches has
     * no time, so the plan says who stops the job ({@link #refusal}), states PAR007's finding and names a size of the same
     * job where the batch divides ({@link #dividingSize}).
     */
    static String noWholeMicroBatches(Layout l, Resolved.Job job, LintResult result) {
        if (l.microBatches() > 0) return null;
        for (Finding f : result.findings()) {
            if ("PAR007".equals(f.ruleId()) && about(f, job.name())) {
                Specs.Origin origin = job.spec() == null ? null : job.spec().origin();
                String message = f.message().endsWith(".") ? f.message() : f.message() + ".";
                Layout fits = dividingSize(l);
                return "job '" + job.name() + "' is not priced: " + refusal(origin == null ? null : Format.of(origin.format()))
                        + "; check raises PAR007 at " + f.span() + ": " + message
                        + (fits == null ? "" : " To plan the job at a size where its batch divides, give --gpus " + fits.gpus() + " (dp "
                        + fits.dp() + ": " + fits.microBatches() + " micro-batch" + (fits.microBatches() == 1 ? "" : "es") + " per step).");
            }
        }
        return null;     // only --gpus/--nodes make dp not divide the batch: the ranking at that size still helps (PlanReport says it)
    }

    /**
     * Who stops a job whose global batch is no whole number of micro batch × dp, and when. Megatron-Core's micro-batch
     * calculator (megatron/core/num_microbatches_calculator.py, ConstantNumMicroBatchesCalculator) asserts
     * global % (micro × dp) == 0 unless decrease_batch_size_if_needed is set, which it is not by default; Megatron-LM sets it
     * only from --decrease-batch-size-if-needed, NeMo's initialize_model_parallel_for_nemo passes False (nemo/collections/
     * nlp/modules/common/megatron/megatron_init.py; at NVIDIA/NeMo dc1cce0e apex's ConstantNumMicroBatches asserts the same),
     * Megatron-Bridge's and NeMo 2's default is off. DeepSpeed's config asserts train_batch_size = micro batch × gradient
     * accumulation × world size in deepspeed.initialize (runtime/config.py, _batch_assertion); gpt-neox asserts the same
     * earlier, when NeoXArgs derives its batch parameters (megatron/neox_arguments/arguments.py, check_batch_parameters, at
     * EleutherAI/gpt-neox 0097a39e). torchtitan's Trainer asserts global_batch_size % (local_batch_size × dp_degree) == 0
     * before it builds the model (torchtitan/train.py at pytorch/torchtitan 000204a4). Other formats: no claim about their
     * framework, only that such a step has no time.
     */
    static String refusal(Format format) {
        if (format == null) return "a step of no whole number of micro-batches per data-parallel rank has no time to price";
        return switch (format) {
            case MEGATRON, NEMO, NEMO2_RECIPE, MEGATRON_BRIDGE -> format.display() + " stops it at start-up, before its first step, so it"
                    + " has no step to price (Megatron-Core's micro-batch calculator asserts global % (micro × dp) == 0: "
                    + "num_microbatches_calculator.py, decrease_batch_size_if_needed off)";
            case DEEPSPEED -> format.display() + " stops it at start-up, before its first step, so it has no step to price"
                    + " (deepspeed.initialize asserts train_batch_size == micro batch × gradient accumulation × world size: runtime/"
                    + "config.py, _batch_assertion)";
            case GPT_NEOX -> format.display() + " stops it at start-up, before its first step, so it has no step to price"
                    + " (NeoXArgs asserts train_batch_size == micro batch × gradient accumulation × dp world size as it reads its"
                    + " arguments, before DeepSpeed's own check: megatron/neox_arguments/arguments.py, calculate_derived → check_batch_parameters)";
            case TORCHTITAN -> format.display() + " stops it at start-up, before its first step, so it has no step to price"
                    + " (its Trainer asserts global_batch_size % (local_batch_size × dp) == 0: torchtitan/train.py at 000204a4)";
            default -> "a step of no whole number of micro-batches per data-parallel rank has no time to price";
        };
    }

    /**
     * The same layout on fewer GPUs where the global batch is a whole number of micro-batches: the largest dp below the
     * layout's whose count {@link Layout#microBatches()} divides (and that holds ep within dp × cp); null when none does
     * (a global batch below one micro batch). At most dp layouts are tried, each in constant time.
     */
    static Layout dividingSize(Layout l) {
        for (int dp = l.dp() - 1; dp >= 1; dp--) {
            if ((long) dp * l.cp() % Math.max(1, l.ep()) != 0) continue;
            Layout smaller = l.withSizes(l.tp(), l.pp(), dp, l.cp(), l.ep(), l.virtualPp());
            if (smaller.microBatches() > 0) return smaller;
        }
        return null;
    }

    /** Why no job can be planned: none was found, or what the jobs found lack (a cluster node group, a model shape). */
    static String nothingToPlan(List<Object> facts) {
        TreeSet<String> noGroup = new TreeSet<>(), noModel = new TreeSet<>(), serving = new TreeSet<>();
        for (Object f : facts) {
            if (!(f instanceof dev.gpulint.facts.JobFact j)) continue;
            if (j.getServing() != null) serving.add("'" + j.getName() + "' (" + j.getServing() + ")");
            else (j.isGroupResolved() ? noModel : noGroup).add("'" + j.getName() + "'");
        }
        if (noGroup.isEmpty() && noModel.isEmpty() && serving.isEmpty()) {
            return "no training job in the files given; plan reads the jobs check reads (" + readableFormats() + ": docs/other-formats.md)";
        }
        List<String> out = new ArrayList<>();
        if (!noGroup.isEmpty()) {
            out.add("job " + String.join(", ", noGroup) + " runs on no cluster node group gpulint knows: lint it with its cluster "
                    + "(a kind: cluster manifest among the files, or job_clusters in .gpulint.yaml, docs/other-formats.md)");
        }
        if (!noModel.isEmpty()) {
            out.add("job " + String.join(", ", noModel) + " states no model shape: give its layers, hidden size and attention "
                    + "heads (docs/plan.md, Inputs)");
        }
        if (!serving.isEmpty()) {
            out.add("job " + String.join(", ", serving) + " starts an inference server: plan prices a training step (forward, backward,"
                    + " gradient reduction and optimizer), not serving, so it has nothing to price there");
        }
        return "nothing to plan: " + String.join("; ", out);
    }

    /**
     * The job formats the adapters read, from the format registry ({@link dev.gpulint.spec.Format}) so that a new adapter's
     * format is named without editing this text: "gpulint manifests, Megatron-LM, NeMo, ..., launch scripts, Kubernetes jobs".
     */
    static String readableFormats() {
        List<String> names = new ArrayList<>();
        for (dev.gpulint.spec.Format f : dev.gpulint.spec.Format.values()) {
            switch (f) {
                case OTHER -> { }                                   // a team's own name, no adapter writes it
                case NATIVE -> names.add("gpulint manifests");
                case LAUNCH_SCRIPT -> names.add("Slurm and bash launch scripts");
                case KUBERNETES -> names.add("Kubernetes jobs");
                default -> names.add(f.display());
            }
        }
        return String.join(", ", names);
    }

    /**
     * nccl-tests runs linked to the job's cluster and node group: one host measures the tier inside its node (NVLink, or
     * PCIe on a node without it), several hosts the network (both as busbw of the run's largest row, GB/s).
     */
    static Map<Tier, Double> measured(List<Object> facts, JobEstimate e, Catalog catalog) {
        return dev.gpulint.derive.net.NcclMeasured.of(facts, e.job(), catalog);
    }
}
