package dev.gpulint.bind.adapt;

import dev.gpulint.catalog.Catalog;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Model;
import dev.gpulint.spec.ModelSink;
import dev.gpulint.spec.Specs;
import dev.gpulint.read.SourceFile;
import dev.gpulint.tree.Document;
import dev.gpulint.core.Span;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The adapters: they bind the configurations teams already have to the same facts as a native
 * manifest, each format detected by its content (kind and apiVersion, or its telltale keys), so
 * that the same rules run on them. The formats and their order are {@link FormatAdapters#ALL};
 * a document no format accepts is skipped quietly. Every job bound goes through the schema's
 * bounds ({@link DraftBounds}).
 */
public final class Adapters {

    /** One file's documents that are not native manifests, and its text (to place words inside scripts). */
    public record Input(SourceFile file, List<Document> documents) {}

    private Adapters() {}

    /**
     * What the adapters bound from {@code inputs}: their jobs (each checked against the schema's bounds, a launch
     * script joined with the configuration it names), monitoring configuration and NIC settings, the files they
     * recognised, and the findings met binding (SYN002 for a value out of the schema's bounds).
     */
    public static Model bind(List<Input> inputs) {
        ModelSink out = new ModelSink();
        List<JobDraft> all = new ArrayList<>();
        java.util.Map<String, dev.gpulint.catalog.Models.Entry> modelConfigs = new java.util.LinkedHashMap<>();
        java.util.Map<String, dev.gpulint.catalog.Models.Hybrid> hybridConfigs = new java.util.HashMap<>();
        java.util.Map<String, java.nio.file.Path> folders = new java.util.HashMap<>();
        java.util.Map<String, java.util.Set<String>> refusedConfigs = new java.util.HashMap<>();
        for (Input in : inputs) {
            String file = in.file().displayPath();
            DraftSink sink = new DraftSink();
            for (Document d : in.documents()) {
                String name = in.documents().size() > 1 ? file + "#" + (d.index() + 1) : file;
                ForeignDocument doc = new ForeignDocument(d, in.file(), name);
                int before = sink.drafts().size();
                FormatAdapters.find(doc).ifPresent(a -> a.bind(doc, sink));
                for (JobDraft j : sink.drafts().subList(before, sink.drafts().size())) ModelNames.fromTree(j, doc.root());
            }
            // a Helm template a job was bound from: say what of it was not read (its expressions, its directives)
            if (!sink.drafts().isEmpty() && dev.gpulint.read.yaml.Templates.looksLikeTemplate(in.file())) {
                for (dev.gpulint.core.Finding note : TemplateNote.of(in.file())) sink.finding(note);
            }
            all.addAll(sink.drafts());
            modelConfigs.putAll(sink.modelConfigs());
            hybridConfigs.putAll(sink.hybridConfigs());
            refusedConfigs.putAll(sink.refusedConfigs());
            java.nio.file.Path path = in.file().path();
            if (path != null && path.toAbsolutePath().getParent() != null) folders.put(file, path.toAbsolutePath().getParent());
            out.addAll(sink.build());
            if (!sink.bindsNothing()) out.file(file);
        }
        // the schema's bounds first, so that a DeepSpeed configuration's triple is judged once, where it is written
        java.util.Map<String, String> texts = new java.util.HashMap<>();
        for (Input in : inputs) texts.put(in.file().displayPath(), in.file().text());
        for (JobDraft j : all) out.findings(DraftBounds.check(j, texts));
        Set<JobDraft> merged = ScriptLinks.link(all);
        deepspeedReferences(all);
        List<JobDraft> jobs = all.stream().filter(j -> !merged.contains(j)).toList();
        ModelNames.fillAll(jobs, modelConfigs, hybridConfigs, refusedConfigs, folders);
        for (JobDraft j : jobs) TorchtitanPipeline.generate(j, out::finding);     // its default split needs the layers
        for (JobDraft j : jobs) out.job(j.build());
        return out.build();
    }

    /**
     * A job whose launch names a DeepSpeed configuration linted in the same run takes over its batch
     * triple and ZeRO stage: the job knows the GPU count, so dp is known, and the triple is checked
     * against it there (once, not also on the configuration's own).
     */
    private static void deepspeedReferences(List<JobDraft> all) {
        for (JobDraft j : all) {
            if (j.deepspeedRef == null || j.deepspeed != null) continue;      // a configuration the script writes itself wins
            String ref = j.deepspeedRef.value();
            String base = ref.substring(ref.lastIndexOf('/') + 1);
            JobDraft found = null;
            int matches = 0;
            for (JobDraft d : all) {
                if (!d.format.equals(DeepSpeedAdapter.FORMAT)) continue;
                if (d.file.equals(ref) || d.file.endsWith("/" + ref) || d.file.equals(base) || d.file.endsWith("/" + base)) {
                    found = d;
                    matches++;
                }
            }
            if (matches != 1 || found.deepspeed == null) continue;
            j.deepspeed = found.deepspeed;
            if (j.zeroStage == null) j.zeroStage = found.zeroStage;
            j.unpriced.addAll(found.unpriced);      // its unpriced settings and its offload are the launched job's
            if (j.offloadOptimizer == null && found.offloadOptimizer != null) j.offloadOptimizer = j.key(found.keys.get(found.offloadOptimizer), found.offloadOptimizer);
            if (j.offloadParameters == null && found.offloadParameters != null) j.offloadParameters = j.key(found.keys.get(found.offloadParameters), found.offloadParameters);
            DeepSpeedHeredoc.batchStatements(j, found.deepspeed.trainBatchSize(), found.deepspeed.microBatchPerGpu(),
                    "the DeepSpeed configuration " + found.file);
            found.deepspeed = null;
        }
    }

    /**
     * Gives each job of another format its cluster: the one configuration names for its file, else
     * the one cluster of the run whose node group has the GPU model the job's node selector (or
     * SkyPilot accelerator) names, else, when the model is in the catalog, a cluster of such nodes
     * made for it alone, so that placement and memory rules can run; such a cluster takes the fabric
     * of the run's one network-operator NIC configuration, when there is one.
     *
     * @return the jobs, in order, each with its cluster where one was found, and the clusters made for them
     */
    public static Model link(List<Specs.Job> jobs, List<Specs.Cluster> clusters, Catalog catalog,
                             Function<String, Optional<dev.gpulint.spec.JobPlacement>> configured) {
        List<Specs.Job> out = new ArrayList<>();
        List<Specs.Cluster> implicit = new ArrayList<>();
        Specs.Fabric nicFabric = null;      // the run's one network-operator fabric, for the clusters made here
        int nicFabrics = 0;
        for (Specs.Cluster c : clusters) {
            if (operatorFabric(c)) { nicFabric = c.fabric(); nicFabrics++; }
        }
        if (nicFabrics != 1) nicFabric = null;
        for (Specs.Job j : jobs) {
            Specs.Origin o = j.origin();
            Optional<dev.gpulint.spec.JobPlacement> p = configured.apply(j.file());
            if (p.isPresent()) {
                Span at = p.get().at();
                out.add(j.onCluster(new Located<>(p.get().cluster(), at),
                        p.get().nodeGroup() == null ? null : new Located<>(p.get().nodeGroup(), at)));
                continue;
            }
            Catalog.Gpu gpu = o == null || o.gpuModel() == null ? null : catalog.gpu(o.gpuModel().value()).orElse(null);
            if (gpu == null) { out.add(j); continue; }
            List<String[]> matches = new ArrayList<>();
            for (Specs.Cluster c : clusters) {
                if (c.name() == null) continue;
                for (Specs.NodeGroup g : c.nodeGroups()) {
                    if (g.name() == null || g.gpu() == null || g.gpu().model() == null) continue;
                    Optional<Catalog.Gpu> m = catalog.gpu(g.gpu().model().value());
                    if (!m.isPresent() || !m.get().name().equals(gpu.name())) continue;
                    // a folded node group is as many matches as it has members: two are enough to be ambiguous
                    if (g.fold() == null) matches.add(new String[] {c.name().value(), g.name().value()});
                    else for (int i = 0; i < Math.min(2, g.fold().size()); i++) matches.add(new String[] {c.name().value(), g.fold().name(i)});
                }
            }
            Span at = o.gpuModel().span();
            if (matches.size() == 1) {
                out.add(j.onCluster(new Located<>(matches.get(0)[0], at), new Located<>(matches.get(0)[1], at)));
            } else if (matches.isEmpty() && j.gpusPerNode() != null) {
                String name = gpu.name() + " nodes of " + j.name().value();
                Specs.NodeGroup g = new Specs.NodeGroup(new Located<>("nodes", at), j.nodes(),
                        new Specs.Gpu(new Located<>(gpu.name(), at), j.gpusPerNode(), null), null, null, List.of(), at);
                implicit.add(new Specs.Cluster(new Located<>(name, at), j.file(), nicFabric, List.of(g), at,
                        nicFabric == null ? null : nicFabricOrigin(clusters)));
                out.add(j.onCluster(new Located<>(name, at), new Located<>("nodes", at)));
            } else {
                out.add(j);
            }
        }
        return Model.of(implicit, out);
    }

    private static String nicFabricOrigin(List<Specs.Cluster> clusters) {
        for (Specs.Cluster c : clusters) if (operatorFabric(c)) return c.origin();
        return null;
    }

    /**
     * A network-operator object's fabric (NicConfigurationTemplate, SriovNetworkNodePolicy...): not a script's
     * mlnx_qos lines, which set the hosts that run that script (storage servers, say), not every job's nodes.
     */
    private static boolean operatorFabric(Specs.Cluster c) {
        return c.origin() != null && !c.origin().equals(MlnxQos.ORIGIN) && c.nodeGroups().isEmpty() && c.fabric() != null;
    }
}
