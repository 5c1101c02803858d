package dev.gpulint.bind.adapt;

import static dev.gpulint.bind.adapt.TreeValues.map;
import static dev.gpulint.bind.adapt.TreeValues.scalar;

import dev.gpulint.spec.Format;
import dev.gpulint.spec.Located;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.ScalarNode;
import java.util.Map;

/**
 * NeMo 2 recipes written as YAML (a recipe's configuration, serialised by NeMo-Run):
 * {@code trainer.num_nodes × trainer.devices}, the {@code trainer.strategy} (MegatronStrategy)
 * sizes {@code tensor_model_parallel_size}, {@code pipeline_model_parallel_size},
 * {@code virtual_pipeline_model_parallel_size}, {@code context_parallel_size},
 * {@code expert_model_parallel_size}, {@code sequence_parallel}; {@code data.micro_batch_size},
 * {@code data.global_batch_size}, {@code data.seq_length}; and {@code model.config}'s
 * {@code num_layers}, {@code hidden_size}, {@code num_attention_heads}, {@code num_query_groups},
 * {@code num_moe_experts}. {@code _target_} keys are ignored.
 */
final class Nemo2RecipeAdapter implements FormatAdapter {
    static final String FORMAT = Format.NEMO2_RECIPE.display();
    private static final Map<String, String> SIZES = Map.of("tp", "tensor_model_parallel_size", "pp", "pipeline_model_parallel_size",
            "virtual_pp", "virtual_pipeline_model_parallel_size", "cp", "context_parallel_size", "ep", "expert_model_parallel_size");

    @Override public String id() { return "nemo2-recipe"; }

    @Override public String displayName() { return FORMAT; }

    @Override public boolean accepts(ForeignDocument doc) {
        MappingNode root = doc.root();
        MappingNode strategy = map(root, "trainer", "strategy");
        if (strategy == null) return false;
        for (String k : SIZES.values()) if (strategy.get(k).isPresent()) return true;
        return false;
    }

    @Override public void bind(ForeignDocument doc, DraftSink sink) {
        MappingNode root = doc.root();
        JobDraft j = Recipes.start(FORMAT, doc);
        MappingNode trainer = map(root, "trainer");
        MappingNode strategy = map(trainer, "strategy");
        j.tp = size(j, strategy, "tp");
        j.pp = size(j, strategy, "pp");
        j.vpp = size(j, strategy, "virtual_pp");
        j.cp = size(j, strategy, "cp");
        j.ep = size(j, strategy, "ep");
        j.sequenceParallel = TreeValues.bool(scalar(strategy, "sequence_parallel"));
        MappingNode data = map(root, "data");
        j.micro = j.key("data.micro_batch_size", TreeValues.whole(scalar(data, "micro_batch_size")));
        j.global = j.key("data.global_batch_size", TreeValues.whole(scalar(data, "global_batch_size")));
        j.seqLength = j.key("data.seq_length", TreeValues.whole(scalar(data, "seq_length")));
        MappingNode config = map(root, "model", "config");
        j.layers = j.key("model.config.num_layers", TreeValues.whole(scalar(config, "num_layers")));
        j.hidden = j.key("model.config.hidden_size", TreeValues.whole(scalar(config, "hidden_size")));
        j.heads = j.key("model.config.num_attention_heads", TreeValues.whole(scalar(config, "num_attention_heads")));
        j.kvHeads = j.key("model.config.num_query_groups", TreeValues.whole(scalar(config, "num_query_groups")));
        j.experts = j.key("model.config.num_moe_experts", TreeValues.whole(scalar(config, "num_moe_experts")));
        Recipes.finish(j, sink);
    }

    /** A strategy size: its number; null ("not set") takes the default; a placeholder is unknown. */
    private static Located<Long> size(JobDraft j, MappingNode strategy, String size) {
        String key = SIZES.get(size);
        ScalarNode s = scalar(strategy, key);
        Located<Long> v = j.key("trainer.strategy." + key, TreeValues.whole(s));
        j.unknownIf(size, s != null && !s.isNull() && !s.text().strip().equalsIgnoreCase("null"), v);
        return v;
    }
}
