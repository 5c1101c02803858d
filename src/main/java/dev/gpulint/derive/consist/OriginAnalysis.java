package dev.gpulint.derive.consist;

import dev.gpulint.core.Span;
import dev.gpulint.derive.Facts;
import dev.gpulint.derive.Resolved;
import dev.gpulint.facts.ConsistencyFact;
import dev.gpulint.facts.DeepSpeedBatchFact;
import dev.gpulint.facts.OriginFact;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The CONSIST family's analysis: the places of a job read from another format that state one number. One instance per
 * derive run remembers the comparisons of the last origin it read: the plan's candidate jobs share their job's origin
 * (one object, the layout's own statements left out), so a run of a thousand candidates compares it once.
 */
public final class OriginAnalysis {

    /** A place that states a quantity with another value than its reference. */
    private record Differs(String quantity, ConsistencyFact.Place found, ConsistencyFact.Place reference, ConsistencyFact.Place launch) {}

    private Specs.Origin last;
    private List<Differs> lastDiffers;

    /**
     * The statements of a job read from another format: every place that states one of its
     * numbers or settings with another value than the place that binds it (the pods' resources,
     * else the configuration, else the launcher), each such place once; the GPUs the program asks
     * for against what a pod gets; the pods' RDMA access; DeepSpeed's batch triple.
     */
    public void analyse(Resolved.Job r, Facts facts) {
        Specs.Job j = r.spec();
        if (j.origin() == null) return;
        Specs.Origin o = j.origin();
        String job = j.name().value();
        if (o != last) {                    // an origin is a record of immutable lists: the same object compares the same
            lastDiffers = differs(o, j.env());
            last = o;
        }
        for (Differs d : lastDiffers) facts.add(new ConsistencyFact(job, o.format(), d.quantity(), d.found(), d.reference(), d.launch()));
        Located<String> hca = j.env().get("NCCL_IB_HCA");
        facts.add(new OriginFact(job, o.format(), o.podsVisible(), o.rdmaResources().size(), o.rdmaByAccess(),
                hca == null ? null : hca.value(), hca == null ? null : hca.span()));
        Specs.DeepSpeedBatch ds = o.deepspeed();
        if (ds != null && ds.trainBatchSize() != null && ds.microBatchPerGpu() != null && ds.microBatchPerGpu().value() > 0
                && (ds.gradientAccumulation() == null || ds.gradientAccumulation().value() > 0)) {
            facts.add(new DeepSpeedBatchFact(job, ds.trainBatchSize().value(), ds.trainBatchSize().span(),
                    ds.microBatchPerGpu().value(), ds.microBatchPerGpu().span(),
                    ds.gradientAccumulation() == null ? 0 : ds.gradientAccumulation().value(),
                    ds.gradientAccumulation() == null ? null : ds.gradientAccumulation().span(), r.dpEffective()));
        }
    }

    /** The places of an origin that differ from their quantity's reference, in the order the facts are made. */
    private static List<Differs> differs(Specs.Origin o, Map<String, Located<String>> env) {
        List<Differs> out = new ArrayList<>();
        Map<String, List<Specs.Stated>> by = new LinkedHashMap<>();
        for (Specs.Stated s : o.stated()) by.computeIfAbsent(s.quantity(), k -> new ArrayList<>()).add(s);
        Set<String> seen = new HashSet<>();
        for (Map.Entry<String, List<Specs.Stated>> e : by.entrySet()) {
            String q = e.getKey();
            List<Specs.Stated> all = e.getValue();
            if (q.equals("app_gpus_per_node") || q.equals("step_gpus_per_node") || q.equals("step_gpu_type") || STEP_PAIRED.contains(q)) continue;   // below
            if (q.equals("launch_config") || q.equals("serving")) continue;     // what the plan says of the launch, no count
            Specs.Stated ref = reference(all);
            if (ref == null) continue;
            for (Specs.Stated s : all) {
                if (s == ref || s.value().equals(ref.value())) continue;
                if (!seen.add(q + "|" + s.where() + "|" + s.value())) continue;
                out.add(new Differs(q, place(s, s.span() != null ? s.span() : ref.span()), place(ref, ref.span()), launch(o, q, all, env)));
            }
        }
        // GPUs the program itself asks for, and those a Slurm step asks for, against what a pod (a node of the allocation) gets
        Specs.Stated pod = null;
        for (Specs.Stated s : by.getOrDefault("per_node", List.of())) if (s.kind() == Specs.StatedKind.RESOURCE) { pod = s; break; }
        if (pod != null) {
            for (String q : List.of("app_gpus_per_node", "step_gpus_per_node")) {
                for (Specs.Stated s : by.getOrDefault(q, List.of())) {
                    if (s.value().equals(pod.value())) continue;
                    out.add(new Differs(q, place(s, s.span()), place(pod, pod.span()), null));
                }
            }
        }
        // the GPU type a Slurm step asks for (srun --gres=gpu:TYPE:N), against the type of the job's GPU request
        Specs.Stated jobType = by.getOrDefault("gpu_type", List.of()).stream().findFirst().orElse(null);
        if (jobType != null) {
            for (Specs.Stated s : by.getOrDefault("step_gpu_type", List.of())) {
                if (!s.value().equals(jobType.value())) out.add(new Differs("step_gpu_type", place(s, s.span()), place(jobType, jobType.span()), null));
            }
        }
        // a Slurm step's tasks per node, each against what the step itself has (its GPUs, its launcher's ranks): stated in pairs
        for (int p = 0; p < STEP_PAIRED.size(); p += 2) {
            String q = STEP_PAIRED.get(p);
            List<Specs.Stated> found = by.getOrDefault(q, List.of()), against = by.getOrDefault(STEP_PAIRED.get(p + 1), List.of());
            for (int i = 0; i < found.size() && i < against.size(); i++) {
                Specs.Stated f = found.get(i), r = against.get(i);
                out.add(new Differs(q, place(f, f.span()), place(r, r.span()), null));
            }
        }
        return List.copyOf(out);
    }

    /**
     * The per-step quantities a launch script states in pairs, each with what it is compared with (the next statement): an srun's
     * tasks per node starting Python with the step's GPUs per node; its tasks per node starting a launcher with the launcher's
     * ranks per node (or its name, when this command does not write them). In order: quantity, what it is compared with.
     */
    private static final List<String> STEP_PAIRED = List.of("step_tasks_per_node", "step_task_gpus",
            "step_launchers_per_node", "step_launcher_ranks");

    /**
     * For a variable whose value at the launch a launcher's known precedence decided (LaunchEnvironment: the shell, srun
     * --export, mpirun -x), the statement the launch's value comes from, found by where its value is written; a place with
     * no value when the launch gets none. Null for a size, where the precedence is not known, or where the bound value is
     * none of the statements (gpulint does not claim a place it cannot name).
     */
    private static ConsistencyFact.Place launch(Specs.Origin o, String q, List<Specs.Stated> all, Map<String, Located<String>> env) {
        if (!q.startsWith("env:") || !o.isLaunchDecided(q.substring(4))) return null;
        Located<String> bound = env.get(q.substring(4));
        if (bound == null) return new ConsistencyFact.Place(null, -1, null, null, null);
        for (Specs.Stated s : all) {
            if (s.span() != null && s.span().equals(bound.span()) && s.value().equals(bound.value())) return place(s, s.span());
        }
        return null;
    }

    private static ConsistencyFact.Place place(Specs.Stated s, Span span) {
        return new ConsistencyFact.Place(s.value(), s.number(), s.where(), s.kind(), span);
    }

    /** The statement the others are compared with: the pods' resources, else the configuration, else the first. */
    private static Specs.Stated reference(List<Specs.Stated> all) {
        for (Specs.StatedKind k : List.of(Specs.StatedKind.RESOURCE, Specs.StatedKind.CONFIG, Specs.StatedKind.LAUNCHER)) {
            for (Specs.Stated s : all) if (s.kind() == k) return s;
        }
        return null;
    }

}
