package dev.gpulint.bind.adapt;

import dev.gpulint.spec.ParallelDim;
import static dev.gpulint.bind.adapt.TreeValues.map;
import static dev.gpulint.bind.adapt.TreeValues.scalar;

import dev.gpulint.spec.Format;
import dev.gpulint.spec.Located;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.ScalarNode;
import java.util.Locale;

/**
 * ServiceNow Fast-LLM training configurations (YAML, {@code fast-llm train gpt --config FILE}): recognised by a
 * {@code model} holding Fast-LLM's {@code multi_stage} or {@code distributed} mapping, or a {@code base_model} with
 * its {@code transformer} (the layout before mid 2025) or {@code decoder}.
 * <p>
 * {@code model.distributed}: {@code tensor_parallel} (tp), {@code pipeline_parallel} (pp), {@code sequence_data_parallel}
 * (cp: Fast-LLM splits each sequence over that many of the data-parallel ranks; its data-parallel size is what tp × pp
 * leave, so gpulint's dp is that ÷ sequence_data_parallel and is not bound), {@code sequence_tensor_parallel} (sequence
 * parallelism, with tp &gt; 1), {@code compute_dtype} (before 2025 {@code training_dtype}; not written: not bound, since
 * Fast-LLM's default has moved between releases and a launcher may set it). {@code model.multi_stage.zero_stage} (1 to 3). The batch: {@code batch.micro_batch_size} (per
 * GPU), {@code batch.batch_size} (the global batch), {@code batch.sequence_length}; in the later layout
 * {@code data.micro_batch_size} counts tokens (documents packed into one sequence), read as a micro batch of one
 * sequence of that many tokens. The model's shape: {@code base_model.transformer.{num_layers, hidden_size,
 * num_attention_heads, head_groups, ffn_hidden_size, kv_channels, gated}}, {@code base_model.vocab_size} and
 * {@code tie_word_embeddings}, or the later {@code base_model.{hidden_size, tied_embedding_weight, embeddings.vocab_size,
 * decoder.num_blocks, decoder.block.mixer.{heads, head_groups, head_size}, decoder.block.mlp.{intermediate_size, gated}}};
 * else {@code pretrained.path} names the checkpoint whose config.json gives it. The file states no GPU count: the
 * launch does (torchrun's, linked by {@code --config} in ScriptLinks).
 */
final class FastLlmAdapter implements FormatAdapter {
    static final String FORMAT = Format.FAST_LLM.display();

    @Override public String id() { return "fast-llm"; }

    @Override public String displayName() { return FORMAT; }

    @Override public boolean accepts(ForeignDocument doc) {
        MappingNode model = map(doc.root(), "model");
        if (model == null) return false;
        if (map(model, "multi_stage") != null) return true;
        MappingNode d = map(model, "distributed");
        if (d != null && (d.get("tensor_parallel").isPresent() || d.get("pipeline_parallel").isPresent()
                || d.get("sequence_data_parallel").isPresent() || d.get("training_dtype").isPresent() || d.get("compute_dtype").isPresent())) {
            return true;
        }
        MappingNode base = map(model, "base_model");
        return base != null && (map(base, "transformer") != null || map(base, "decoder") != null);
    }

    @Override public void bind(ForeignDocument doc, DraftSink sink) {
        MappingNode root = doc.root();
        MappingNode model = map(root, "model");
        dev.gpulint.core.Span at = root.entry("model").orElseThrow().key().span();
        JobDraft j = new JobDraft(FORMAT, doc.file(), root.span());
        j.name = new Located<>(doc.name(), at);
        MappingNode dist = map(model, "distributed");
        j.tp = size(j, dist, ParallelDim.TP, "tensor_parallel");
        j.pp = size(j, dist, ParallelDim.PP, "pipeline_parallel");
        j.cp = size(j, dist, ParallelDim.CP, "sequence_data_parallel");
        Located<Boolean> stp = TreeValues.bool(scalar(dist, "sequence_tensor_parallel"));
        if (stp != null && stp.value() && j.tp != null && j.tp.value() > 1) j.sequenceParallel = j.key("model.distributed.sequence_tensor_parallel", stp);
        ScalarNode dtype = scalar(dist, "compute_dtype");
        String dtypeKey = "model.distributed.compute_dtype";
        if (dtype == null) { dtype = scalar(dist, "training_dtype"); dtypeKey = "model.distributed.training_dtype"; }
        if (dtype != null && !dtype.isNull() && !TreeValues.placeholder(dtype.text())) {
            j.dtype = j.key(dtypeKey, new Located<>(dtype.text().strip(), dtype.span()));
        }
        j.zeroStage = j.key("model.multi_stage.zero_stage", TreeValues.whole(scalar(map(model, "multi_stage"), "zero_stage")));
        batch(j, root);
        MappingNode base = map(model, "base_model");
        if (map(base, "transformer") != null) transformer(j, base);
        else if (map(base, "decoder") != null) decoder(j, base);
        ScalarNode path = scalar(map(root, "pretrained"), "path");
        if (path != null && !path.isNull() && !TreeValues.placeholder(path.text())) {
            j.modelNames.add(j.key("pretrained.path", new Located<>(path.text().strip(), path.span())));
        }
        sink.draft(j);
    }

    /** batch.{micro_batch_size, batch_size, sequence_length}; else data.micro_batch_size, tokens per micro batch. */
    private static void batch(JobDraft j, MappingNode root) {
        MappingNode batch = map(root, "batch");
        if (batch != null) {
            j.micro = j.key("batch.micro_batch_size", TreeValues.whole(scalar(batch, "micro_batch_size")));
            j.global = j.key("batch.batch_size", TreeValues.whole(scalar(batch, "batch_size")));
            j.seqLength = j.key("batch.sequence_length", TreeValues.whole(scalar(batch, "sequence_length")));
            return;
        }
        Located<Long> tokens = TreeValues.whole(scalar(map(root, "data"), "micro_batch_size"));
        if (tokens != null) {
            j.seqLength = j.key("data.micro_batch_size (tokens per micro batch)", tokens);
            j.micro = j.key("data.micro_batch_size (one packed sequence)", new Located<>(1L, tokens.span()));
        }
    }

    /** The layout before mid 2025: base_model.transformer. */
    private static void transformer(JobDraft j, MappingNode base) {
        MappingNode t = map(base, "transformer");
        j.layers = j.key("model.base_model.transformer.num_layers", TreeValues.whole(scalar(t, "num_layers")));
        j.hidden = j.key("model.base_model.transformer.hidden_size", TreeValues.whole(scalar(t, "hidden_size")));
        j.heads = j.key("model.base_model.transformer.num_attention_heads", TreeValues.whole(scalar(t, "num_attention_heads")));
        j.kvHeads = j.key("model.base_model.transformer.head_groups", TreeValues.whole(scalar(t, "head_groups")));
        j.ffn = j.key("model.base_model.transformer.ffn_hidden_size", TreeValues.whole(scalar(t, "ffn_hidden_size")));
        j.headDim = j.key("model.base_model.transformer.kv_channels", TreeValues.whole(scalar(t, "kv_channels")));
        j.vocab = j.key("model.base_model.vocab_size", TreeValues.whole(scalar(base, "vocab_size")));
        gated(j, scalar(t, "gated"), scalar(t, "activation_type"));
        Located<Boolean> tied = TreeValues.bool(scalar(base, "tie_word_embeddings"));
        if (tied != null) j.tied = tied;
    }

    /** The later layout: base_model.decoder.block.{mixer, mlp}. */
    private static void decoder(JobDraft j, MappingNode base) {
        MappingNode d = map(base, "decoder");
        MappingNode mixer = map(d, "block", "mixer"), mlp = map(d, "block", "mlp");
        j.layers = j.key("model.base_model.decoder.num_blocks", TreeValues.whole(scalar(d, "num_blocks")));
        j.hidden = j.key("model.base_model.hidden_size", TreeValues.whole(scalar(base, "hidden_size")));
        j.heads = j.key("model.base_model.decoder.block.mixer.heads", TreeValues.whole(scalar(mixer, "heads")));
        j.kvHeads = j.key("model.base_model.decoder.block.mixer.head_groups", TreeValues.whole(scalar(mixer, "head_groups")));
        j.headDim = j.key("model.base_model.decoder.block.mixer.head_size", TreeValues.whole(scalar(mixer, "head_size")));
        j.ffn = j.key("model.base_model.decoder.block.mlp.intermediate_size", TreeValues.whole(scalar(mlp, "intermediate_size")));
        j.vocab = j.key("model.base_model.embeddings.vocab_size", TreeValues.whole(scalar(map(base, "embeddings"), "vocab_size")));
        gated(j, scalar(mlp, "gated"), scalar(mlp, "activation"));
        Located<Boolean> tied = TreeValues.bool(scalar(base, "tied_embedding_weight"));
        if (tied != null) j.tied = tied;
    }

    /** {@code gated} as written; else a silu activation is gated (Fast-LLM's default MLP is not). */
    private static void gated(JobDraft j, ScalarNode gated, ScalarNode activation) {
        Located<Boolean> g = TreeValues.bool(gated);
        if (g != null) { j.gated = g; return; }
        if (activation != null && !activation.isNull()) {
            String a = activation.text().strip().toLowerCase(Locale.ROOT);
            j.gated = new Located<>(a.equals("silu") || a.endsWith("glu"), activation.span());
        }
    }

    /** A size of model.distributed: its number; written as a placeholder: unknown. */
    private static Located<Long> size(JobDraft j, MappingNode dist, ParallelDim size, String key) {
        return j.size(size, scalar(dist, key), "model.distributed." + key, JobDraft.Unwritten.ABSENT_OR_NULL, false);
    }
}
