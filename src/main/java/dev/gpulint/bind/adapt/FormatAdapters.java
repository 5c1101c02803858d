package dev.gpulint.bind.adapt;

import dev.gpulint.read.SourceFile;
import dev.gpulint.tree.MappingNode;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The formats the adapters bind, in the order they are tried: monitoring configuration first (a
 * ConfigMap or a PrometheusRule is a Kubernetes object, but not a job), then the job formats whose
 * detection is most specific. The first format that accepts a document binds it; a document no
 * format accepts is skipped quietly.
 */
final class FormatAdapters {

    static final List<FormatAdapter> ALL = List.of(
            FormatAdapter.of("DCGM counter list", (root, f) -> DcgmAdapter.isCounterList(root),
                    (root, f, name, sink) -> DcgmAdapter.counters(root, f.displayPath(), sink.counters)),
            FormatAdapter.of("DCGM ConfigMap", (root, f) -> DcgmAdapter.isConfigMapWithCounters(root),
                    (root, f, name, sink) -> DcgmAdapter.configMap(root, f.displayPath(), f.text(), sink.counters)),
            FormatAdapter.of("Prometheus rules", (root, f) -> DcgmAdapter.isRuleFile(root),
                    (root, f, name, sink) -> DcgmAdapter.rules(root, f.displayPath(), f.text(), sink.queries)),
            FormatAdapter.of(LaunchScriptAdapter.FORMAT, (root, f) -> LaunchScriptAdapter.accepts(root),
                    (root, f, name, sink) -> LaunchScriptAdapter.bind(root, f.displayPath(), name, f.text(), sink)),
            FormatAdapter.of(TorchtitanAdapter.FORMAT, (root, f) -> TorchtitanAdapter.accepts(root),
                    (root, f, name, sink) -> sink.drafts.add(TorchtitanAdapter.bind(root, f.displayPath(), name))),
            FormatAdapter.of("Kubernetes", (root, f) -> KubernetesAdapter.accepts(root),
                    (root, f, name, sink) -> sink.drafts.add(KubernetesAdapter.bind(root, f.displayPath(), name, f.text()))),
            new ArgoWorkflowAdapter(),
            new NicConfigurationAdapter(),
            new SriovPolicyAdapter(),
            new NicClusterPolicyAdapter(),
            FormatAdapter.of(AwsBatchAdapter.FORMAT, (root, f) -> AwsBatchAdapter.accepts(root), (root, f, name, sink) -> {
                for (MappingNode.Entry def : AwsBatchAdapter.definitions(root)) {
                    sink.drafts.add(AwsBatchAdapter.bind(def, f.displayPath(), name + "#" + def.key().text(), f.text()));
                }
            }),
            FormatAdapter.of(MegatronAdapter.FORMAT, (root, f) -> MegatronAdapter.accepts(root),
                    (root, f, name, sink) -> sink.drafts.add(MegatronAdapter.bind(root, f.displayPath(), name, f.text()))),
            FormatAdapter.of(NemoAdapter.FORMAT, (root, f) -> NemoAdapter.accepts(root),
                    (root, f, name, sink) -> sink.drafts.add(NemoAdapter.bind(root, f.displayPath(), name))),
            new Nemo2RecipeAdapter(),
            new HyperPodRecipeAdapter(),
            FormatAdapter.of(SkyPilotAdapter.FORMAT, (root, f) -> SkyPilotAdapter.accepts(root),
                    (root, f, name, sink) -> sink.drafts.add(SkyPilotAdapter.bind(root, f.displayPath(), name, f.text()))),
            new AccelerateAdapter(),
            new GptNeoxAdapter(),
            // DeepSpeed's keys are plain words: only a JSON file is taken for a DeepSpeed configuration
            FormatAdapter.of(DeepSpeedAdapter.FORMAT,
                    (root, f) -> f.displayPath().toLowerCase(Locale.ROOT).endsWith(".json") && DeepSpeedAdapter.accepts(root),
                    (root, f, name, sink) -> sink.drafts.add(DeepSpeedAdapter.bind(root, f.displayPath(), name))));

    private FormatAdapters() {}

    /** The first format that accepts the document, if any. */
    static Optional<FormatAdapter> find(MappingNode root, SourceFile file) {
        for (FormatAdapter a : ALL) if (a.accepts(root, file)) return Optional.of(a);
        return Optional.empty();
    }
}
