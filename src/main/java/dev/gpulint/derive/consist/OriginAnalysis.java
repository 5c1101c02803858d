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

/** The CONSIST family's analysis: the places of a job read from another format that state one number. */
public final class OriginAnalysis {
    private OriginAnalysis() {}

    private static final Map<String, String> LABELS = Map.ofEntries(
            Map.entry("world", "the number of ranks (GPUs) of the job"), Map.entry("per_node", "the number of ranks (GPUs) per node"),
            Map.entry("nodes", "the number of nodes"), Map.entry("tp", "tp (tensor-parallel size)"),
            Map.entry("pp", "pp (pipeline-parallel size)"), Map.entry("cp", "cp (context-parallel size)"),
            Map.entry("ep", "ep (expert-parallel size)"), Map.entry("etp", "etp (expert tensor-parallel size)"),
            Map.entry("vpp", "vpp (virtual pipeline stages)"), Map.entry("app_gpus_per_node", "GPUs per node"),
            Map.entry("comm_backend", "the communication backend"),
            Map.entry("global_batch", "the global batch size (samples per optimizer step)"),
            Map.entry("micro_batch", "the micro batch size (samples per GPU per forward pass)"));

    /**
     * The statements of a job read from another format: every place that states one of its
     * numbers or settings with another value than the place that binds it (the pods' resources,
     * else the configuration, else the launcher), each such place once; the GPUs the program asks
     * for against what a pod gets; the pods' RDMA access; DeepSpeed's batch triple.
     */
    public static void job(Resolved.Job r, Facts facts) {
        Specs.Job j = r.spec();
        if (j.origin() == null) return;
        Specs.Origin o = j.origin();
        String job = j.name().value();
        Map<String, List<Specs.Stated>> by = new LinkedHashMap<>();
        for (Specs.Stated s : o.stated()) by.computeIfAbsent(s.quantity(), k -> new ArrayList<>()).add(s);
        Set<String> seen = new HashSet<>();
        for (Map.Entry<String, List<Specs.Stated>> e : by.entrySet()) {
            String q = e.getKey();
            List<Specs.Stated> all = e.getValue();
            if (q.equals("app_gpus_per_node")) continue;      // compared with the pod's GPUs below
            Specs.Stated ref = reference(all);
            if (ref == null) continue;
            for (Specs.Stated s : all) {
                if (s == ref || s.value().equals(ref.value())) continue;
                if (!seen.add(q + "|" + s.where() + "|" + s.value())) continue;
                facts.add(new ConsistencyFact(job, o.format(), q, label(q), place(s, s.span() != null ? s.span() : ref.span()),
                        place(ref, ref.span())));
            }
        }
        // GPUs the program itself asks for, against what a pod gets
        Specs.Stated pod = null;
        for (Specs.Stated s : by.getOrDefault("per_node", List.of())) if (s.kind() == Specs.StatedKind.RESOURCE) { pod = s; break; }
        if (pod != null) {
            for (Specs.Stated s : by.getOrDefault("app_gpus_per_node", List.of())) {
                if (s.value().equals(pod.value())) continue;
                facts.add(new ConsistencyFact(job, o.format(), "app_gpus_per_node", label("app_gpus_per_node"),
                        place(s, s.span()), place(pod, pod.span())));
            }
        }
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

    /** The quantity as a noun phrase for messages; a variable's name for env:NAME. */
    static String label(String quantity) {
        return LABELS.getOrDefault(quantity, quantity.startsWith("env:") ? quantity.substring(4) : quantity);
    }

    private static ConsistencyFact.Place place(Specs.Stated s, Span span) {
        return new ConsistencyFact.Place(s.value(), s.number(), s.where(), s.kind().name(), span);
    }

    /** The statement the others are compared with: the pods' resources, else the configuration, else the first. */
    private static Specs.Stated reference(List<Specs.Stated> all) {
        for (Specs.StatedKind k : List.of(Specs.StatedKind.RESOURCE, Specs.StatedKind.CONFIG, Specs.StatedKind.LAUNCHER)) {
            for (Specs.Stated s : all) if (s.kind() == k) return s;
        }
        return null;
    }

}
