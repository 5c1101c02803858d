package dev.gpulint.bind.adapt;

import dev.gpulint.spec.ParallelDim;
import static dev.gpulint.bind.adapt.TreeValues.map;
import static dev.gpulint.bind.adapt.TreeValues.scalar;

import dev.gpulint.spec.Format;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs.StatedKind;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.Node;
import dev.gpulint.tree.ScalarNode;
import java.util.List;
import java.util.Locale;

/**
 * nanotron training configurations (YAML, {@code run_train.py --config-file FILE}): recognised by a {@code parallelism}
 * mapping with nanotron's {@code dp}, {@code tp} or {@code pp} beside its {@code tokens} or {@code model.model_config}.
 * <p>
 * {@code parallelism.{dp, tp, pp, context_parallel_size, expert_parallel_size}} are the grid; nanotron asserts
 * TP × CP × DP × PP = WORLD_SIZE at start-up (ParallelContext), so that product is stated as the job's rank count for
 * the launch script that passes the file (CONSIST007); expert parallelism folds over those ranks (nanotron's MoE
 * parallel folding) and is not a factor of it. {@code tp_mode: REDUCE_SCATTER} is Megatron's sequence parallelism
 * (with tp &gt; 1; nanotron's default ALL_REDUCE is not); {@code recompute_layer} is full recompute or none.
 * {@code tokens.{micro_batch_size, batch_accumulation_per_replica, sequence_length}} give the micro batch, the
 * sequence and the global batch (micro × accumulation × dp); {@code model.dtype} the precision;
 * {@code optimizer.zero_stage} ZeRO (nanotron has 0 and 1); {@code model.model_config} the model's shape under
 * Hugging Face's names, with {@code moe_config} (the last one written, as PyYAML reads a repeated key) its experts.
 * The file states no GPU count: the launch does ({@code torchrun --nproc_per_node --nnodes}, linked by
 * {@code --config-file} in ScriptLinks).
 */
final class NanotronAdapter implements FormatAdapter {
    static final String FORMAT = Format.NANOTRON.display();

    /** model_config flags of nanotron's architectures whose MLP is gated (SwiGLU). */
    private static final List<String> GATED_CONFIGS = List.of("is_llama_config", "is_qwen2_config");

    @Override public String id() { return "nanotron"; }

    @Override public String displayName() { return FORMAT; }

    @Override public boolean accepts(ForeignDocument doc) {
        MappingNode root = doc.root();
        MappingNode p = map(root, "parallelism");
        if (p == null || (p.get("dp").isEmpty() && p.get("tp").isEmpty() && p.get("pp").isEmpty())) return false;
        return map(root, "tokens") != null || map(root, "model", "model_config") != null;
    }

    @Override public void bind(ForeignDocument doc, DraftSink sink) {
        MappingNode root = doc.root();
        MappingNode par = map(root, "parallelism");
        dev.gpulint.core.Span at = root.entry("parallelism").orElseThrow().key().span();
        JobDraft j = new JobDraft(FORMAT, doc.file(), root.span());
        j.name = new Located<>(doc.name(), at);
        j.dp = size(j, par, ParallelDim.DP, "parallelism.dp");
        j.tp = size(j, par, ParallelDim.TP, "parallelism.tp");
        j.pp = size(j, par, ParallelDim.PP, "parallelism.pp");
        j.cp = size(j, par, ParallelDim.CP, "parallelism.context_parallel_size");
        j.ep = size(j, par, ParallelDim.EP, "parallelism.expert_parallel_size");
        // dp, tp and pp are nanotron's required fields; context_parallel_size is 1 when not written
        long world = j.dp == null || j.tp == null || j.pp == null ? -1 : 1;
        for (Located<Long> d : java.util.Arrays.asList(j.dp, j.tp, j.pp, j.cp)) {
            if (world < 0 || d == null) continue;
            world = d.value() < 1 ? -1 : mul(world, d.value());
        }
        if (world > 0) j.state("world", world, "parallelism.tp × context_parallel_size × dp × pp", StatedKind.CONFIG, at);
        ScalarNode mode = scalar(par, "tp_mode");
        if (mode != null && !mode.isNull() && mode.text().strip().equalsIgnoreCase("REDUCE_SCATTER") && j.tp != null && j.tp.value() > 1) {
            j.sequenceParallel = j.key("parallelism.tp_mode", new Located<>(true, mode.span()));
        }
        Located<Boolean> recompute = TreeValues.bool(scalar(par, "recompute_layer"));
        if (recompute != null) j.recompute = j.key("parallelism.recompute_layer", new Located<>(recompute.value() ? "full" : "none", recompute.span()));
        MappingNode tokens = map(root, "tokens");
        j.micro = j.key("tokens.micro_batch_size", TreeValues.whole(scalar(tokens, "micro_batch_size")));
        j.seqLength = j.key("tokens.sequence_length", TreeValues.whole(scalar(tokens, "sequence_length")));
        Located<Long> accumulation = TreeValues.whole(scalar(tokens, "batch_accumulation_per_replica"));
        if (j.micro != null && accumulation != null && j.dp != null && j.micro.value() > 0 && accumulation.value() > 0 && j.dp.value() > 0) {
            long global = mul(mul(j.micro.value(), accumulation.value()), j.dp.value());
            if (global > 0) j.global = j.key("tokens.micro_batch_size × batch_accumulation_per_replica × parallelism.dp",
                    new Located<>(global, accumulation.span()));
        }
        ScalarNode dtype = scalar(map(root, "model"), "dtype");
        if (dtype != null && !dtype.isNull() && !TreeValues.placeholder(dtype.text())) j.dtype = j.key("model.dtype", new Located<>(dtype.text().strip(), dtype.span()));
        j.zeroStage = j.key("optimizer.zero_stage", TreeValues.whole(scalar(map(root, "optimizer"), "zero_stage")));
        shape(j, map(root, "model", "model_config"));
        sink.draft(j);
    }

    /**
     * The model's shape, when model_config writes the hidden size, layers and heads (a Mamba config, d_model and no heads,
     * binds none): Hugging Face's names, as in a config.json.
     */
    private static void shape(JobDraft j, MappingNode c) {
        if (c == null) return;
        Located<Long> hidden = TreeValues.whole(scalar(c, "hidden_size")), layers = TreeValues.whole(scalar(c, "num_hidden_layers")),
                heads = TreeValues.whole(scalar(c, "num_attention_heads"));
        if (hidden == null || layers == null || heads == null) {
            // a model_config that is no transformer gpulint prices (nanotron's Mamba: d_model, no heads): the tokenizer's
            // name (tokenizer_name_or_path) must not lend it a transformer's shape
            j.modelShapeWithheld = "nanotron model_config without hidden_size, num_hidden_layers and num_attention_heads";
            return;
        }
        j.hidden = j.key("model.model_config.hidden_size", hidden);
        j.layers = j.key("model.model_config.num_hidden_layers", layers);
        j.heads = j.key("model.model_config.num_attention_heads", heads);
        j.kvHeads = j.key("model.model_config.num_key_value_heads", TreeValues.whole(scalar(c, "num_key_value_heads")));
        j.ffn = j.key("model.model_config.intermediate_size", TreeValues.whole(scalar(c, "intermediate_size")));
        j.vocab = j.key("model.model_config.vocab_size", TreeValues.whole(scalar(c, "vocab_size")));
        Located<Boolean> tied = TreeValues.bool(scalar(c, "tie_word_embeddings"));
        if (tied != null) j.tied = tied;
        boolean gatedConfig = GATED_CONFIGS.stream().anyMatch(k -> Boolean.TRUE.equals(value(TreeValues.bool(scalar(c, k)))));
        ScalarNode act = scalar(c, "hidden_act");
        String a = act == null || act.isNull() ? "" : act.text().strip().toLowerCase(Locale.ROOT);
        if (gatedConfig || a.equals("silu") || a.equals("swiglu")) j.gated = new Located<>(true, (act != null ? act : c).span());
        else if (!a.isEmpty()) j.gated = new Located<>(false, act.span());
        MappingNode moe = last(c, "moe_config") instanceof MappingNode m ? m : null;
        if (moe != null) {
            Located<Long> experts = TreeValues.whole(scalar(moe, "num_experts"));
            if (experts != null && experts.value() > 1) {
                j.experts = j.key("model.model_config.moe_config.num_experts", experts);
                j.topK = j.key("model.model_config.moe_config.top_k", TreeValues.whole(scalar(moe, "top_k")));
                Located<Long> moeFfn = TreeValues.whole(scalar(moe, "moe_intermediate_size"));
                j.moeFfn = j.key(moeFfn != null ? "model.model_config.moe_config.moe_intermediate_size" : "model.model_config.intermediate_size",
                        moeFfn != null ? moeFfn : j.ffn);
            }
        }
    }

    /** A size of the grid: its number; written as a placeholder: unknown. */
    private static Located<Long> size(JobDraft j, MappingNode par, ParallelDim size, String key) {
        return j.size(size, scalar(par, key.substring(key.indexOf('.') + 1)), key, JobDraft.Unwritten.ABSENT_OR_NULL, false);
    }

    /** The value of the last entry under {@code key} (PyYAML keeps the last of a repeated key), or null. */
    private static Node last(MappingNode m, String key) {
        Node found = null;
        for (MappingNode.Entry e : m.entries()) if (e.key().text().equals(key)) found = e.value();
        return found;
    }

    private static Boolean value(Located<Boolean> b) { return b == null ? null : b.value(); }

    /** a × b, or -1 when it overflows. */
    private static long mul(long a, long b) {
        try {
            return Math.multiplyExact(a, b);
        } catch (ArithmeticException e) {
            return -1;
        }
    }
}
