package dev.gpulint.bind.adapt;

import dev.gpulint.read.SourceFile;
import dev.gpulint.tree.MappingNode;
import java.util.List;
import java.util.Optional;

/**
 * The formats the adapters bind, in the order they are tried: monitoring configuration first (a
 * ConfigMap or a PrometheusRule is a Kubernetes object, but not a job), then the job formats whose
 * detection is most specific. The first format that accepts a document binds it; a document no
 * format accepts is skipped quietly.
 */
final class FormatAdapters {

    static final List<FormatAdapter> ALL = List.of(
            new DcgmAdapter.CounterList(),
            new DcgmAdapter.ConfigMap(),
            new DcgmAdapter.PrometheusRules(),
            new LaunchScriptAdapter(),
            // torchtitan and NeMo 1 are still static utilities wrapped here (their adapters are being extended in parallel)
            FormatAdapter.of(TorchtitanAdapter.FORMAT, (root, f) -> TorchtitanAdapter.accepts(root),
                    (root, f, name, sink) -> sink.draft(TorchtitanAdapter.bind(root, f.displayPath(), name))),
            new KubernetesAdapter(),
            new ArgoWorkflowAdapter(),
            new NicConfigurationAdapter(),
            new SriovPolicyAdapter(),
            new NicClusterPolicyAdapter(),
            new AwsBatchAdapter(),
            new MegatronAdapter(),
            FormatAdapter.of(NemoAdapter.FORMAT, (root, f) -> NemoAdapter.accepts(root),
                    (root, f, name, sink) -> sink.draft(NemoAdapter.bind(root, f.displayPath(), name))),
            new Nemo2RecipeAdapter(),
            new HyperPodRecipeAdapter(),
            new SkyPilotAdapter(),
            new AccelerateAdapter(),
            new GptNeoxAdapter(),
            new DeepSpeedAdapter());

    private FormatAdapters() {}

    /** The first format that accepts the document, if any. */
    static Optional<FormatAdapter> find(MappingNode root, SourceFile file) {
        for (FormatAdapter a : ALL) if (a.accepts(root, file)) return Optional.of(a);
        return Optional.empty();
    }
}
