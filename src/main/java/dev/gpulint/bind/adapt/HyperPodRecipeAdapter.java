package dev.gpulint.bind.adapt;

import dev.gpulint.spec.ParallelDim;
import static dev.gpulint.bind.adapt.TreeValues.map;
import static dev.gpulint.bind.adapt.TreeValues.scalar;

import dev.gpulint.spec.Format;
import dev.gpulint.spec.Located;
import dev.gpulint.tree.MappingNode;

/**
 * Amazon SageMaker HyperPod recipes (the SageMaker model parallelism library, SMP v2):
 * {@code trainer.num_nodes × trainer.devices} GPUs, and in {@code model} the
 * {@code *_degree} keys ({@code tensor_model_parallel_degree}, {@code expert_model_parallel_degree},
 * {@code context_parallel_degree}), the per-GPU {@code train_batch_size}, and the model's shape
 * ({@code num_hidden_layers}, {@code num_attention_heads}, {@code num_key_value_heads},
 * {@code hidden_size}, {@code max_context_width}, {@code num_experts}). The data-parallel size is
 * what is left (FSDP's {@code shard_degree} shards within it): it is not bound, so PAR001 checks
 * that tp × cp divides the GPU count.
 */
final class HyperPodRecipeAdapter implements FormatAdapter {
    static final String FORMAT = Format.HYPERPOD_RECIPE.display();

    @Override public String id() { return "hyperpod-recipe"; }

    @Override public String displayName() { return FORMAT; }

    @Override public boolean accepts(ForeignDocument doc) {
        MappingNode root = doc.root();
        MappingNode trainer = map(root, "trainer");
        MappingNode model = map(root, "model");
        if (trainer == null || model == null) return false;
        return (trainer.get("num_nodes").isPresent() || trainer.get("devices").isPresent())
                && (model.get("tensor_model_parallel_degree").isPresent() || model.get("expert_model_parallel_degree").isPresent()
                    || model.get("context_parallel_degree").isPresent() || model.get("shard_degree").isPresent());
    }

    @Override public void bind(ForeignDocument doc, DraftSink sink) {
        MappingNode root = doc.root();
        JobDraft j = Recipes.start(FORMAT, doc);
        MappingNode model = map(root, "model");
        j.tp = size(j, model, ParallelDim.TP, "tensor_model_parallel_degree");
        j.ep = size(j, model, ParallelDim.EP, "expert_model_parallel_degree");
        j.cp = size(j, model, ParallelDim.CP, "context_parallel_degree");
        j.micro = j.key("train_batch_size", TreeValues.whole(scalar(model, "train_batch_size")));
        j.layers = j.key("num_hidden_layers", TreeValues.whole(scalar(model, "num_hidden_layers")));
        j.heads = j.key("num_attention_heads", TreeValues.whole(scalar(model, "num_attention_heads")));
        j.kvHeads = j.key("num_key_value_heads", TreeValues.whole(scalar(model, "num_key_value_heads")));
        j.hidden = j.key("hidden_size", TreeValues.whole(scalar(model, "hidden_size")));
        j.seqLength = j.key("max_context_width", TreeValues.whole(scalar(model, "max_context_width")));
        Located<Boolean> moe = TreeValues.bool(scalar(model, "moe"));
        if (moe != null && moe.value()) j.experts = j.key("num_experts", TreeValues.whole(scalar(model, "num_experts")));
        Recipes.finish(j, sink);
    }

    /** A {@code *_degree}: its number; written as a placeholder (${...}, ???): unknown. */
    private static Located<Long> size(JobDraft j, MappingNode model, ParallelDim size, String key) {
        return j.size(size, scalar(model, key), key, JobDraft.Unwritten.ABSENT_OR_NULL, false);
    }
}
