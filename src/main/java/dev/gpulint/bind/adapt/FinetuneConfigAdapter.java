package dev.gpulint.bind.adapt;

import static dev.gpulint.bind.adapt.TreeValues.map;
import static dev.gpulint.bind.adapt.TreeValues.scalar;

import dev.gpulint.spec.Format;
import dev.gpulint.spec.Located;
import dev.gpulint.tree.ListNode;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.Node;
import dev.gpulint.tree.ScalarNode;
import java.util.Locale;

/**
 * The two fine-tuning tools' YAML configurations people commit most: axolotl ({@code base_model} with
 * {@code micro_batch_size} or {@code sequence_len}) and LLaMA-Factory ({@code model_name_or_path} with
 * {@code finetuning_type} or {@code cutoff_len}). Read: the model's name (looked up in the model catalog,
 * bind.adapt.ModelNames), the micro batch per GPU ({@code micro_batch_size}, {@code per_device_train_batch_size}), the
 * sequence ({@code sequence_len}, {@code cutoff_len}), the precision ({@code bf16}, {@code fp16}), recompute
 * ({@code gradient_checkpointing}: full), the DeepSpeed configuration they name ({@code deepspeed}: its ZeRO stage and
 * batch, as a launch's), and axolotl's FSDP ({@code fsdp: [full_shard, ...]}, {@code fsdp_config}). A LoRA, QLoRA or
 * freeze fine-tune ({@code adapter}, {@code finetuning_type}) trains a small part of the model: the estimate prices a
 * full fine-tune, so such a job gets no model shape (the plan declines it, saying why, instead of overcounting the
 * optimizer states by an order of magnitude). Neither file states a GPU count: the launch does.
 */
final class FinetuneConfigAdapter {
    private FinetuneConfigAdapter() {}

    /** axolotl's configuration. */
    static final class Axolotl implements FormatAdapter {
        @Override public String id() { return "axolotl"; }
        @Override public String displayName() { return Format.AXOLOTL.display(); }
        @Override public boolean accepts(ForeignDocument doc) {
            MappingNode r = doc.root();
            return named(r, "base_model") && (r.get("micro_batch_size").isPresent() || r.get("sequence_len").isPresent());
        }
        @Override public void bind(ForeignDocument doc, DraftSink sink) {
            MappingNode r = doc.root();
            JobDraft j = start(Format.AXOLOTL.display(), doc, "base_model");
            j.micro = j.key("micro_batch_size", TreeValues.whole(scalar(r, "micro_batch_size")));
            j.seqLength = j.key("sequence_len", TreeValues.whole(scalar(r, "sequence_len")));
            common(j, r);
            ScalarNode adapter = scalar(r, "adapter");
            if (adapter != null && !adapter.isNull() && !adapter.text().isBlank()) j.modelShapeWithheld = adapter.text().strip();
            Node fsdp = r.get("fsdp").orElse(null);
            String strategy = null;
            if (fsdp instanceof ListNode l) {
                for (Node n : l.items()) if (n instanceof ScalarNode s) strategy = strategy == null && s.text().contains("shard") ? s.text() : strategy;
            }
            ScalarNode fs = scalar(map(r, "fsdp_config"), "fsdp_sharding_strategy");
            if (fs == null) fs = scalar(map(r, "fsdp_config"), "sharding_strategy");
            if (fs != null && !fs.isNull()) strategy = fs.text();
            if (strategy == null && map(r, "fsdp_config") != null && scalar(r, "fsdp_version") != null) strategy = "full_shard";   // FSDP2 shards fully
            if (strategy != null && j.zeroStage == null) {
                String s = strategy.toLowerCase(Locale.ROOT);
                long stage = s.contains("full_shard") || s.contains("hybrid") ? 3 : s.contains("shard_grad_op") ? 2 : s.contains("no_shard") ? 0 : -1;
                dev.gpulint.core.Span at = fs != null ? fs.span() : r.entry(fsdp != null ? "fsdp" : "fsdp_config").orElseThrow().key().span();
                if (stage >= 0) j.zeroStage = j.key("fsdp", new Located<>(stage, at));
            }
            sink.draft(j);
        }
    }

    /** LLaMA-Factory's training configuration (llamafactory-cli train FILE). */
    static final class LlamaFactory implements FormatAdapter {
        @Override public String id() { return "llama-factory"; }
        @Override public String displayName() { return Format.LLAMA_FACTORY.display(); }
        @Override public boolean accepts(ForeignDocument doc) {
            MappingNode r = doc.root();
            return named(r, "model_name_or_path") && (r.get("finetuning_type").isPresent() || r.get("cutoff_len").isPresent());
        }
        @Override public void bind(ForeignDocument doc, DraftSink sink) {
            MappingNode r = doc.root();
            JobDraft j = start(Format.LLAMA_FACTORY.display(), doc, "model_name_or_path");
            j.micro = j.key("per_device_train_batch_size", TreeValues.whole(scalar(r, "per_device_train_batch_size")));
            j.seqLength = j.key("cutoff_len", TreeValues.whole(scalar(r, "cutoff_len")));
            common(j, r);
            ScalarNode ft = scalar(r, "finetuning_type");       // LLaMA-Factory's default is lora
            String type = ft == null || ft.isNull() ? "lora" : ft.text().strip().toLowerCase(Locale.ROOT);
            if (!type.equals("full")) j.modelShapeWithheld = type + (ft == null ? " (LLaMA-Factory's default finetuning_type)" : "");
            sink.draft(j);
        }
    }

    private static boolean named(MappingNode r, String key) {
        ScalarNode s = scalar(r, key);
        return s != null && !s.isNull() && !s.text().isBlank();
    }

    /** The job, named after the document and placed at the key that names the model. */
    private static JobDraft start(String format, ForeignDocument doc, String modelKey) {
        JobDraft j = new JobDraft(format, doc.file(), doc.root().span());
        j.name = new Located<>(doc.name(), doc.root().entry(modelKey).orElseThrow().key().span());
        return j;
    }

    /** bf16 / fp16, gradient_checkpointing, and the DeepSpeed configuration the file names. */
    private static void common(JobDraft j, MappingNode r) {
        for (String p : new String[] {"bf16", "fp16"}) {
            ScalarNode s = scalar(r, p);
            Located<Boolean> on = TreeValues.bool(s);
            if (j.dtype == null && (on != null && on.value() || s != null && "auto".equals(s.text().strip()) && p.equals("bf16"))) {
                j.dtype = new Located<>(p, s.span());
            }
        }
        Located<Boolean> gc = TreeValues.bool(scalar(r, "gradient_checkpointing"));
        if (gc != null) j.recompute = new Located<>(gc.value() ? "full" : "none", gc.span());
        ScalarNode ds = scalar(r, "deepspeed");
        if (ds != null && !ds.isNull() && !TreeValues.placeholder(ds.text()) && ds.text().strip().endsWith(".json")) {
            j.deepspeedRef = new Located<>(ds.text().strip(), ds.span());
        }
    }
}
