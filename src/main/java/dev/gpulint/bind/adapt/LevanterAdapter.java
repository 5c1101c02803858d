package dev.gpulint.bind.adapt;

import dev.gpulint.spec.ParallelDim;
import static dev.gpulint.bind.adapt.TreeValues.map;
import static dev.gpulint.bind.adapt.TreeValues.scalar;

import dev.gpulint.spec.Format;
import dev.gpulint.spec.Located;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.ScalarNode;
import java.util.List;
import java.util.Locale;

/**
 * Stanford CRFM Levanter training configurations (YAML, {@code python -m levanter.main.train_lm --config_path FILE}; JAX,
 * on TPU or GPU): recognised by a {@code trainer} with one of Levanter's mesh or batch keys ({@code per_device_parallelism},
 * {@code model_axis_size}, {@code fsdp_axis}, {@code mp}, {@code tensor_parallel_axes}, {@code replica_dcn_axis_size})
 * beside a {@code model} with a {@code type}.
 * <p>
 * {@code trainer.model_axis_size} is tp (the mesh's model axis); the rest of the devices are the data axis, over which
 * Levanter shards parameters, gradients and optimizer state ({@code fsdp_axis}, "embed" by default): ZeRO-3.
 * {@code trainer.train_batch_size} is the global batch; {@code per_device_parallelism} the micro batch per device (-1:
 * the global batch over the data axis, no accumulation, unknown here). {@code trainer.mp} is the jmp policy
 * ({@code p=f32,c=bfloat16}): the compute dtype {@code c=} is the job's. {@code model.{hidden_dim, num_layers, num_heads,
 * num_kv_heads, intermediate_dim, seq_len}} the shape ({@code type} llama, mistral, qwen, gemma: gated MLP; gpt2: not; Levanter's tying default by type);
 * {@code gradient_checkpointing} (Levanter's default true, bound when not written) full recompute; {@code initialize_from_hf} names the model.
 * The file states no device count, and a TPU slice is no GPU: the plan prices it on a GPU cluster only (docs).
 */
final class LevanterAdapter implements FormatAdapter {
    static final String FORMAT = Format.LEVANTER.display();

    private static final List<String> TRAINER_KEYS = List.of("per_device_parallelism", "model_axis_size", "fsdp_axis", "mp",
            "tensor_parallel_axes", "replica_dcn_axis_size", "replica_ici_axis_size");

    /** model.type values whose MLP is gated (SwiGLU, GeGLU). */
    private static final List<String> GATED = List.of("llama", "mistral", "mixtral", "qwen", "qwen3", "gemma", "gemma2", "gemma3", "olmo", "olmo2");

    /** model.type values whose Levanter config does not tie the embeddings unless tie_word_embeddings says so. */
    private static final List<String> UNTIED = List.of("llama", "mistral", "mixtral", "qwen", "qwen3", "olmo", "olmo2");

    @Override public String id() { return "levanter"; }

    @Override public String displayName() { return FORMAT; }

    @Override public boolean accepts(ForeignDocument doc) {
        MappingNode trainer = map(doc.root(), "trainer");
        MappingNode model = map(doc.root(), "model");
        return trainer != null && model != null && model.get("type").isPresent()
                && TRAINER_KEYS.stream().anyMatch(k -> trainer.get(k).isPresent());
    }

    @Override public void bind(ForeignDocument doc, DraftSink sink) {
        MappingNode root = doc.root();
        MappingNode trainer = map(root, "trainer"), model = map(root, "model");
        dev.gpulint.core.Span at = root.entry("trainer").orElseThrow().key().span();
        JobDraft j = new JobDraft(FORMAT, doc.file(), root.span());
        j.name = new Located<>(doc.name(), at);
        ScalarNode axis = scalar(trainer, "model_axis_size");
        j.tp = j.key("trainer.model_axis_size", TreeValues.whole(axis));
        j.unknownIf(ParallelDim.TP, axis != null && !axis.isNull(), j.tp);
        j.global = j.key("trainer.train_batch_size", TreeValues.whole(scalar(trainer, "train_batch_size")));
        Located<Long> perDevice = TreeValues.whole(scalar(trainer, "per_device_parallelism"));
        if (perDevice != null && perDevice.value() != -1) j.micro = j.key("trainer.per_device_parallelism", perDevice);
        ScalarNode mp = scalar(trainer, "mp");
        String compute = mp == null || mp.isNull() ? null : computeDtype(mp.text());
        if (compute != null) j.dtype = j.key("trainer.mp (c=)", new Located<>(compute, mp.span()));
        // FSDP over the data axis is Levanter's default and only data parallelism: parameters, gradients and states sharded
        ScalarNode fsdp = scalar(trainer, "fsdp_axis");
        j.zeroStage = j.key(fsdp != null ? "trainer.fsdp_axis" : "trainer (Levanter shards over the data axis by default)",
                new Located<>(3L, fsdp != null ? fsdp.span() : at));
        j.seqLength = j.key("model.seq_len", TreeValues.whole(scalar(model, "seq_len")));
        Located<Boolean> ckpt = TreeValues.bool(scalar(model, "gradient_checkpointing"));
        if (ckpt != null) j.recompute = j.key("model.gradient_checkpointing", new Located<>(ckpt.value() ? "full" : "none", ckpt.span()));
        else j.recompute = j.key("model (Levanter's default gradient_checkpointing: true)", new Located<>("full", root.entry("model").orElseThrow().key().span()));
        Located<Long> hidden = TreeValues.whole(scalar(model, "hidden_dim")), layers = TreeValues.whole(scalar(model, "num_layers")),
                heads = TreeValues.whole(scalar(model, "num_heads"));
        if (hidden != null && layers != null && heads != null) {
            j.hidden = j.key("model.hidden_dim", hidden);
            j.layers = j.key("model.num_layers", layers);
            j.heads = j.key("model.num_heads", heads);
            j.kvHeads = j.key("model.num_kv_heads", TreeValues.whole(scalar(model, "num_kv_heads")));
            j.ffn = j.key("model.intermediate_dim", TreeValues.whole(scalar(model, "intermediate_dim")));
            ScalarNode type = scalar(model, "type");
            if (type != null && !type.isNull()) j.gated = new Located<>(GATED.contains(type.text().strip().toLowerCase(Locale.ROOT)), type.span());
            Located<Boolean> tied = TreeValues.bool(scalar(model, "tie_word_embeddings"));
            if (tied != null) j.tied = tied;
            else if (type != null && !type.isNull()) {
                // Levanter's defaults: Llama, Mistral, Qwen and OLMo configs untied; GPT-2 and Gemma tied
                String t = type.text().strip().toLowerCase(Locale.ROOT);
                if (UNTIED.contains(t)) j.tied = new Located<>(false, type.span());
                else if (t.equals("gpt2") || t.startsWith("gemma")) j.tied = new Located<>(true, type.span());
            }
        }
        ScalarNode hf = scalar(root, "initialize_from_hf");
        if (hf != null && !hf.isNull() && !TreeValues.placeholder(hf.text()) && TreeValues.bool(hf) == null) {
            j.modelNames.add(j.key("initialize_from_hf", new Located<>(hf.text().strip(), hf.span())));
        }
        sink.draft(j);
    }

    /** The compute dtype of a jmp policy: {@code c=} of "p=f32,c=bfloat16"; a policy without keys names one dtype. */
    static String computeDtype(String policy) {
        String p = policy.strip().toLowerCase(Locale.ROOT);
        if (!p.contains("=")) return p.isEmpty() ? null : jmpName(p);
        for (String part : p.split(",")) {
            String[] kv = part.strip().split("=", 2);
            // "c=" with no name says nothing: not a dtype called '' (the plan would say "model.dtype '' not known")
            if (kv.length == 2 && (kv[0].strip().equals("c") || kv[0].strip().equals("compute"))) return kv[1].isBlank() ? null : jmpName(kv[1].strip());
        }
        return null;
    }

    /** jmp's short names (f32, f16, full, half) as the dtype names gpulint reads. */
    private static String jmpName(String d) {
        return switch (d) {
            case "f32", "full" -> "float32";
            case "f16", "half" -> "float16";
            default -> d;
        };
    }
}
