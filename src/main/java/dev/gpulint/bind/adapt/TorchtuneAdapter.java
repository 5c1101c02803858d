package dev.gpulint.bind.adapt;

import static dev.gpulint.bind.adapt.TreeValues.map;
import static dev.gpulint.bind.adapt.TreeValues.scalar;

import dev.gpulint.spec.Format;
import dev.gpulint.spec.Located;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.ScalarNode;
import java.util.Locale;

/**
 * torchtune recipe configurations (YAML, {@code tune run RECIPE --config FILE}): recognised by a {@code model} whose
 * {@code _component_} is one of torchtune's model builders ({@code torchtune.models.llama3_3.llama3_3_70b},
 * {@code torchtune.models.qwen2_5.lora_qwen2_5_7b_instruct}). The builder names the model (looked up in the model
 * catalog, bind.adapt.ModelNames); {@code tensor_parallel_dim} is tp; {@code data_parallel_shard_dim} and
 * {@code data_parallel_replicate_dim} give dp when neither is -1 ("the rest of the GPUs"); {@code batch_size} is the
 * micro batch per GPU; {@code tokenizer.max_seq_len} the sequence; {@code dtype} the precision;
 * {@code enable_activation_checkpointing} recompute (full: torchtune wraps every transformer block) or none; FSDP
 * (fully_shard over the shard dimension) is ZeRO-3 unless the shard dimension is 1. The file states no GPU count: the
 * launch does ({@code tune run --nnodes --nproc_per_node}), which is not among the file's keys.
 */
final class TorchtuneAdapter implements FormatAdapter {
    static final String FORMAT = Format.TORCHTUNE.display();

    /** The package of torchtune's model builders. */
    private static final String BUILDERS = "torchtune.models.";

    @Override public String id() { return "torchtune"; }

    @Override public String displayName() { return FORMAT; }

    @Override public boolean accepts(ForeignDocument doc) {
        ScalarNode c = scalar(map(doc.root(), "model"), "_component_");
        return c != null && !c.isNull() && c.text().strip().startsWith(BUILDERS);
    }

    @Override public void bind(ForeignDocument doc, DraftSink sink) {
        MappingNode root = doc.root();
        JobDraft j = new JobDraft(FORMAT, doc.file(), root.span());
        MappingNode.Entry modelEntry = root.entry("model").orElseThrow();
        j.name = new Located<>(doc.name(), modelEntry.key().span());
        ScalarNode builder = scalar(map(root, "model"), "_component_");
        String b = builder.text().strip();
        j.modelNames.add(j.key("model._component_", new Located<>(b.substring(b.lastIndexOf('.') + 1), builder.span())));
        j.tp = j.key("tensor_parallel_dim", TreeValues.whole(scalar(root, "tensor_parallel_dim")));
        Located<Long> shard = TreeValues.whole(scalar(root, "data_parallel_shard_dim"));
        Located<Long> replicate = TreeValues.whole(scalar(root, "data_parallel_replicate_dim"));
        long rep = replicate == null ? 1 : replicate.value();
        if (shard != null && shard.value() >= 1 && rep >= 1 && shard.value() <= Long.MAX_VALUE / rep) {
            j.dp = j.key("data_parallel_shard_dim", new Located<>(shard.value() * rep, shard.span()));
        }
        j.micro = j.key("batch_size", TreeValues.whole(scalar(root, "batch_size")));
        j.seqLength = j.key("tokenizer.max_seq_len", TreeValues.whole(scalar(map(root, "tokenizer"), "max_seq_len")));
        ScalarNode dtype = scalar(root, "dtype");
        if (dtype != null && !dtype.isNull() && !TreeValues.placeholder(dtype.text())) j.dtype = new Located<>(dtype.text().strip(), dtype.span());
        ScalarNode ac = scalar(root, "enable_activation_checkpointing");
        if (ac != null && !ac.isNull()) {
            String v = ac.text().strip().toLowerCase(Locale.ROOT);
            if (v.equals("true")) j.recompute = new Located<>("full", ac.span());
            else if (v.equals("false")) j.recompute = new Located<>("none", ac.span());
        }
        if (shard == null || shard.value() != 1) {
            j.zeroStage = j.key("data_parallel_shard_dim", new Located<>(3L, shard != null ? shard.span() : modelEntry.key().span()));
        }
        if (j.tp != null && j.tp.value() > 1) j.sequenceParallel = new Located<>(true, j.tp.span());
        sink.draft(j);
    }
}
