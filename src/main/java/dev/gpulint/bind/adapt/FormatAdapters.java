package dev.gpulint.bind.adapt;

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
            new TorchtitanAdapter(),
            new KubernetesAdapter(),
            new ArgoWorkflowAdapter(),
            new NicConfigurationAdapter(),
            new SriovPolicyAdapter(),
            new NicClusterPolicyAdapter(),
            new AwsBatchAdapter(),
            new MegatronAdapter(),
            new NemoAdapter(),
            new Nemo2RecipeAdapter(),
            new HyperPodRecipeAdapter(),
            new BridgeAdapter(),
            new NemoRlAdapter(),
            new TorchtuneAdapter(),
            new FoundryAdapter(),
            new FinetuneConfigAdapter.Axolotl(),
            new FinetuneConfigAdapter.LlamaFactory(),
            new NanotronAdapter(),
            new FastLlmAdapter(),
            new LevanterAdapter(),
            new SkyPilotAdapter(),
            new AccelerateAdapter(),
            new GptNeoxAdapter(),
            new DeepSpeedAdapter(),
            new HfConfigAdapter());

    private FormatAdapters() {}

    /** The first format that accepts the document, if any. */
    static Optional<FormatAdapter> find(ForeignDocument doc) {
        for (FormatAdapter a : ALL) if (a.accepts(doc)) return Optional.of(a);
        return Optional.empty();
    }
}
