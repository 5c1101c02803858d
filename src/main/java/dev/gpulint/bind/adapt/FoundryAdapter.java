package dev.gpulint.bind.adapt;

import static dev.gpulint.bind.adapt.TreeValues.map;
import static dev.gpulint.bind.adapt.TreeValues.scalar;

import dev.gpulint.core.Span;
import dev.gpulint.spec.Format;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs.StatedKind;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.ScalarNode;
import java.util.List;
import java.util.Locale;

/**
 * MosaicML llm-foundry training YAMLs ({@code composer scripts/train/train.py FILE}), alone or as the {@code parameters:} of
 * an mcli run ({@code mcli run -f FILE}, whose {@code compute:} gives the GPUs). Recognised by a {@code model} with a
 * {@code name} beside {@code global_train_batch_size} or {@code device_train_microbatch_size} (llm-foundry's TrainConfig,
 * llmfoundry/utils/config_utils.py). Read: the model ({@code mpt_causal_lm}'s d_model, n_heads, n_layers, expansion_ratio,
 * vocab_size, attn_config.kv_n_heads, ffn_config, tie_word_embeddings with MPTConfig's defaults where a key is absent;
 * {@code hf_causal_lm}'s pretrained_model_name_or_path through the model catalog, bind.adapt.ModelNames), max_seq_len,
 * global_train_batch_size, device_train_microbatch_size (a whole number or 'auto'), precision, the optimizer's name, and
 * fsdp_config ({@link ComposerFsdp}). Plain {@code ${variables.x}} interpolations (OmegaConf, which llm-foundry resolves before
 * it reads the file) are followed within the file. Every default taken where a key is absent is a line of the plan's
 * assumptions, named as llm-foundry or composer names it.
 */
final class FoundryAdapter implements FormatAdapter {
    static final String FORMAT = Format.LLM_FOUNDRY.display();

    /** mcli's documentation (Managing Compute): "nodes: ... typically there are 8 GPUs per node". */
    static final long NODE_GPUS = 8;

    /** composer's Precision (composer/core/precision.py), as the YAML writes it. */
    private static final List<String> PRECISIONS = List.of("fp32", "amp_fp16", "amp_bf16", "amp_fp8");

    @Override public String id() { return "llm-foundry"; }

    @Override public String displayName() { return FORMAT; }

    @Override public boolean accepts(ForeignDocument doc) { return training(doc.root()) != null; }

    /** The training configuration: the document, or an mcli run's {@code parameters}; null when neither is one. */
    static MappingNode training(MappingNode root) {
        if (isTraining(root)) return root;
        MappingNode p = map(root, "parameters");
        boolean mcli = root.get("compute").isPresent() || root.get("command").isPresent() || root.get("image").isPresent()
                || root.get("integrations").isPresent();
        return p != null && mcli && isTraining(p) ? p : null;
    }

    private static boolean isTraining(MappingNode m) {
        ScalarNode name = scalar(map(m, "model"), "name");
        return name != null && !name.isNull()
                && (m.get("global_train_batch_size").isPresent() || m.get("device_train_microbatch_size").isPresent());
    }

    @Override public void bind(ForeignDocument doc, DraftSink sink) {
        MappingNode root = doc.root();
        MappingNode t = training(root);
        Values v = new Values(t, t == root ? "" : "parameters.");
        JobDraft j = new JobDraft(FORMAT, doc.file(), root.span());
        Span modelKey = t.entry("model").orElseThrow().key().span();
        j.name = new Located<>(doc.name(), modelKey);
        model(j, v, map(t, "model"));
        j.global = v.whole(j, t, "global_train_batch_size", "the estimate takes micro batch × dp");
        micro(j, v, t);
        Located<Long> seq = v.whole(j, t, "max_seq_len", "the estimate takes the model's max_seq_len");
        if (seq != null) j.seqLength = seq;
        precision(j, v, t, modelKey);
        optimizer(j, v, t);
        ComposerFsdp.read(j, v, t, modelKey);
        if (t != root) compute(j, map(root, "compute"));
        sink.draft(j);
    }

    /**
     * The model: {@code mpt_causal_lm} writes its shape (MPTConfig's defaults, llmfoundry/models/mpt/configuration_mpt.py,
     * where a key is absent: d_model 2048, n_heads 16, n_layers 24, expansion_ratio 4, vocab_size 50368, GeLU MLP
     * (ffn_type mptmlp), tied embeddings); {@code hf_causal_lm} names it; a {@code peft_config} trains adapters only, which
     * the estimate does not price (no shape, as for axolotl's LoRA).
     */
    private static void model(JobDraft j, Values v, MappingNode m) {
        ScalarNode name = scalar(m, "name");
        String n = name.text().strip().toLowerCase(Locale.ROOT);
        String p = v.prefix + "model.";
        MappingNode peft = map(m, "peft_config");
        if (peft != null) {
            ScalarNode type = scalar(peft, "peft_type");
            j.modelShapeWithheld = (type == null || type.isNull() ? "peft_config" : type.text().strip()) + " (model.peft_config)";
        }
        ScalarNode hf = v.resolve(m, "pretrained_model_name_or_path");
        if (hf != null && !hf.isNull() && !TreeValues.placeholder(hf.text())) {
            j.modelNames.add(j.key(p + "pretrained_model_name_or_path", new Located<>(hf.text().strip(), hf.span())));
        }
        Located<Long> seq = v.whole(j, m, "max_seq_len", "the estimate takes the training's max_seq_len");
        if (seq != null) j.seqLength = j.key(p + "max_seq_len", seq);
        if (!n.startsWith("mpt")) return;
        j.hidden = shape(j, v, m, "d_model", "model.hidden_size", 2048, name);
        j.heads = shape(j, v, m, "n_heads", "model.attention_heads", 16, name);
        j.layers = shape(j, v, m, "n_layers", "model.layers", 24, name);
        j.vocab = shape(j, v, m, "vocab_size", "model.vocab_size", 50368, name);
        MappingNode ffnConfig = map(m, "ffn_config");
        Located<Long> ffn = ffnConfig == null ? null : v.whole(j, ffnConfig, "ffn_hidden_size", "the estimate takes expansion_ratio × d_model");
        if (ffn != null) j.ffn = j.key(p + "ffn_config.ffn_hidden_size", ffn);
        else expansion(j, v, m, name);
        ScalarNode ffnType = ffnConfig == null ? null : scalar(ffnConfig, "ffn_type");
        String type = ffnType == null || ffnType.isNull() ? "mptmlp" : ffnType.text().strip();
        j.gated = new Located<>(type.equals("mptglu"), ffnType != null ? ffnType.span() : name.span());
        MappingNode attn = map(m, "attn_config");
        ScalarNode attnType = attn == null ? null : scalar(attn, "attn_type");
        String at = attnType == null || attnType.isNull() ? "multihead_attention" : attnType.text().strip();
        if (at.equals("multiquery_attention")) j.kvHeads = j.key(p + "attn_config.attn_type", new Located<>(1L, attnType.span()));
        else if (at.equals("grouped_query_attention")) {
            Located<Long> kv = v.whole(j, attn, "kv_n_heads", "the estimate counts multi-head attention");
            if (kv != null) j.kvHeads = j.key(p + "attn_config.kv_n_heads", kv);
        }
        Located<Boolean> tied = DraftValues.bool(j, scalar(m, "tie_word_embeddings"), p + "tie_word_embeddings",
                "the estimate takes MPTConfig's default, tied");
        j.tied = tied != null ? tied : new Located<>(true, name.span());
    }

    /**
     * One of the MPT shape's sizes: as written, else MPTConfig's default (said in the assumptions), placed at the model's name.
     * A size written but not known (an interpolation that leads nowhere, a placeholder, a value that is no whole number) is
     * unknown under its manifest path {@code path} (JobDraft.unknownShape), as an out-of-bounds one is: not the default, which
     * the file overrides, nor the estimate's own.
     */
    private static Located<Long> shape(JobDraft j, Values v, MappingNode m, String key, String path, long mptDefault, ScalarNode name) {
        String k = v.prefix + "model." + key;
        if (m.get(key).isPresent()) {
            Located<Long> n = v.whole(j, m, key, "the size is left unknown (not MPTConfig's default, " + mptDefault
                    + "): the job cannot be estimated until it is a whole number");
            if (n == null) j.unknownShape.add(path);
            return j.key(k, n);
        }
        j.unpriced.add(k + " not written: " + mptDefault + " (MPTConfig's default, llmfoundry/models/mpt/configuration_mpt.py)");
        return j.key(k, new Located<>(mptDefault, name.span()));
    }

    /** MPT's MLP: int(d_model × expansion_ratio) (llm-foundry's resolve_ffn_hidden_size); expansion_ratio may be a fraction. */
    private static void expansion(JobDraft j, Values v, MappingNode m, ScalarNode name) {
        String k = v.prefix + "model.expansion_ratio";
        ScalarNode s = v.resolve(m, "expansion_ratio");
        double ratio = 4;
        Span at = name.span();
        if (s != null && !s.isNull()) {
            if (TreeValues.placeholder(s.text())) { j.unknownShape.add("model.ffn_hidden_size"); return; }
            var q = dev.gpulint.spec.Quantities.count(s.text().strip());
            if (!q.ok() || q.value() <= 0 || q.value() > 1e6) {
                DraftValues.refuse(j, s.span(), k, s.text(), "a positive number", "the estimate takes 4 × d_model (MPTConfig's default ratio)");
            } else {
                ratio = q.value();
                at = s.span();
            }
        } else if (m.get("expansion_ratio").isEmpty()) {
            j.unpriced.add(k + " not written: 4 (MPTConfig's default): an MLP of 4 × d_model");
        } else {
            j.unknownShape.add("model.ffn_hidden_size");     // an interpolation that leads nowhere: the MLP is unknown
            return;
        }
        // a d_model out of the schema's bounds is reported at itself (DraftBounds): no MLP is derived from it
        if (j.hidden == null || j.hidden.value() == null || j.hidden.value() < 1 || j.hidden.value() > 1L << 32) return;
        long ffn = (long) (j.hidden.value() * ratio);
        if (ffn >= 1) j.ffn = j.key(k, new Located<>(ffn, at));
    }

    /**
     * device_train_microbatch_size: a whole number, or 'auto' (llm-foundry's default when absent, TrainConfig): composer then
     * finds the micro-batch at run time, starting from the device batch and halving it after each CUDA out-of-memory error.
     * Anything else llm-foundry refuses (calculate_batch_size_info: ValueError "Not sure how to parse").
     */
    private static void micro(JobDraft j, Values v, MappingNode t) {
        String k = v.prefix + "device_train_microbatch_size";
        ScalarNode s = v.resolve(t, "device_train_microbatch_size");
        String auto = "composer searches the micro-batch at run time (from global_train_batch_size ÷ GPUs, halved after each"
                + " CUDA out-of-memory error); the estimate takes a micro-batch of 1, the smallest it can reach: write a whole"
                + " number to price the one that runs";
        if (s == null || s.isNull()) {
            if (t.get("device_train_microbatch_size").isEmpty()) j.unpriced.add(k + " not written: 'auto' (llm-foundry's default): " + auto);
            return;
        }
        String w = s.text().strip();
        if (w.equalsIgnoreCase("auto")) { j.unpriced.add(k + ": auto: " + auto); return; }     // before placeholder(): "auto" is one
        if (TreeValues.placeholder(w)) return;
        Located<Long> n = TreeValues.whole(s);
        if (n == null) {
            DraftValues.refuse(j, s.span(), k, s.text(), "a whole number or 'auto' (llm-foundry's calculate_batch_size_info raises"
                    + " ValueError: Not sure how to parse device_microbatch_size)", "the estimate takes a micro-batch of 1");
            return;
        }
        j.micro = j.key(k, n);
    }

    /** precision: composer's Precision; llm-foundry's TrainConfig default amp_bf16 where it is absent. */
    private static void precision(JobDraft j, Values v, MappingNode t, Span modelKey) {
        String k = v.prefix + "precision";
        ScalarNode s = v.resolve(t, "precision");
        if (s == null || s.isNull()) {
            if (t.get("precision").isPresent()) return;
            j.dtype = j.key(k, new Located<>("bf16", modelKey));
            j.unpriced.add(k + " not written: amp_bf16 (llm-foundry's TrainConfig default): bf16 autocast");
            return;
        }
        Located<String> p = DraftValues.choice(j, s, k, PRECISIONS, "the estimate takes bf16 (llm-foundry's default amp_bf16)");
        if (p != null) j.dtype = j.key(k, new Located<>(dtype(p.value()), p.span()));
    }

    /** The dtype of a composer precision word (amp_bf16 → bf16; fp32 stays fp32). */
    static String dtype(String precision) {
        return precision.startsWith("amp_") ? precision.substring("amp_".length()) : precision;
    }

    /**
     * The optimizer: the Adam family (decoupled_adamw, adamw, adam) keeps two fp32 states per parameter, which the estimate
     * counts; Lion (decoupled_lionw, llm-foundry's DecoupledLionW) keeps one, and any other is said to be priced as Adam.
     */
    private static void optimizer(JobDraft j, Values v, MappingNode t) {
        String k = v.prefix + "optimizer.name";
        ScalarNode s = v.resolve(map(t, "optimizer"), "name");
        if (s == null || s.isNull() || TreeValues.placeholder(s.text())) return;
        String n = s.text().strip().toLowerCase(Locale.ROOT);
        if (n.contains("adam")) return;
        if (n.contains("lion")) {
            j.unpriced.add(k + ": " + s.text().strip() + ": Lion keeps one fp32 state per parameter (momentum); the estimate counts"
                    + " Adam's two (momentum and variance), so its optimizer memory is 4 bytes per parameter (before sharding) over");
        } else {
            j.unpriced.add(k + ": " + s.text().strip() + ": priced with Adam's two fp32 states per parameter");
        }
    }

    /**
     * mcli's {@code compute}: {@code gpus} (the run's total) and {@code nodes}; with one of them alone, mcli's nodes of 8 GPUs
     * ("typically there are 8 GPUs per node", said in the assumptions); {@code gpu_type} names the GPU (h100_80gb, a100_80gb:
     * the catalog's names without their punctuation).
     */
    private static void compute(JobDraft j, MappingNode c) {
        if (c == null) return;
        Values v = new Values(c, "compute.");
        Located<Long> gpus = count(j, v, c, "gpus", "the GPU count");
        Located<Long> nodes = count(j, v, c, "nodes", "the node count");
        j.state("world", gpus, "compute.gpus", StatedKind.RESOURCE);
        j.state("nodes", nodes, "compute.nodes", StatedKind.RESOURCE);
        ScalarNode type = scalar(c, "gpu_type");
        if (type != null && !type.isNull() && !TreeValues.placeholder(type.text())) j.gpuModel = new Located<>(type.text().strip(), type.span());
        if (gpus != null && gpus.value() > 0 && nodes != null && nodes.value() > 0) {
            j.nodes = nodes;
            if (gpus.value() % nodes.value() == 0) {
                j.gpusPerNode = j.key("compute.gpus", new Located<>(gpus.value() / nodes.value(), gpus.span()));
                j.gpusPerNodeWhere = "compute.gpus ÷ compute.nodes";
            }
        } else if (gpus != null && gpus.value() > 0 && gpus.value() <= NODE_GPUS) {
            j.nodes = j.key("compute.gpus", new Located<>(1L, gpus.span()));
            j.gpusPerNode = gpus;
            j.gpusPerNodeWhere = "compute.gpus";
        } else if (gpus != null && gpus.value() > 0 && gpus.value() % NODE_GPUS == 0) {
            j.nodes = j.key("compute.gpus", new Located<>(gpus.value() / NODE_GPUS, gpus.span()));
            j.gpusPerNode = j.key("compute.gpus", new Located<>(NODE_GPUS, gpus.span()));
            j.gpusPerNodeWhere = "compute.gpus ÷ 8";
            j.unpriced.add("compute.gpus " + gpus.value() + " without compute.nodes: " + gpus.value() / NODE_GPUS + " nodes of 8 GPUs"
                    + " (mcli's documentation: typically there are 8 GPUs per node); write compute.nodes if yours differ");
        } else if (gpus == null && nodes != null && nodes.value() > 0) {
            j.nodes = nodes;
            j.gpusPerNode = j.key("compute.nodes", new Located<>(NODE_GPUS, nodes.span()));
            j.gpusPerNodeWhere = "compute.nodes × 8";
            j.unpriced.add("compute.nodes " + nodes.value() + " without compute.gpus: 8 GPUs per node (mcli's documentation:"
                    + " typically there are 8 GPUs per node)");
        }
    }

    /**
     * A count mcli needs at least 1 of, and the schema's at most 2,147,483,647 (nodes, GPUs): {@code n}, or null after SYN002
     * at the value when it is out of those bounds (mcli refuses a run of no GPUs; no such cluster exists), so that no node
     * layout is derived from it.
     */
    private static Located<Long> count(JobDraft j, Values v, MappingNode c, String key, String what) {
        Located<Long> n = v.whole(j, c, key, what + " is left unknown");
        if (n == null || (n.value() >= 1 && n.value() <= Integer.MAX_VALUE)) return n;
        DraftValues.refuse(j, n.span(), v.prefix + key, v.resolve(c, key).text(), dev.gpulint.bind.Schema.wholeNumber(1, Integer.MAX_VALUE),
                what + " is left unknown");
        return null;
    }

    /**
     * The values of one configuration, read where the file writes them or through a plain OmegaConf interpolation within
     * the file ({@code ${variables.max_seq_len}}, the older {@code ${max_seq_len}}), under their keys as written ({@code prefix}:
     * "parameters." inside an mcli run).
     */
    static final class Values {
        final MappingNode root;
        final String prefix;

        Values(MappingNode root, String prefix) {
            this.root = root;
            this.prefix = prefix;
        }

        /** The scalar at parent[key], following interpolations; null when absent or leading nowhere. */
        ScalarNode resolve(MappingNode parent, String key) {
            return parent == null ? null : NemoAdapter.resolve(root, parent, key);
        }

        /**
         * A whole number at parent[key] under its key as written (the schema's bounds judge its size); a value that is not
         * one is refused (SYN002), and {@code instead} says what the estimate takes.
         */
        Located<Long> whole(JobDraft j, MappingNode parent, String key, String instead) {
            ScalarNode s = resolve(parent, key);
            if (s == null || s.isNull() || TreeValues.placeholder(s.text())) return null;
            Located<Long> n = TreeValues.whole(s);
            String written = prefix + path(parent) + key;
            if (n == null) DraftValues.refuse(j, s.span(), written, s.text(), "a whole number", instead);
            return j.key(written, n);
        }

        /** "model." for the model's keys, "" for the root's, as messages name them. */
        private String path(MappingNode parent) {
            if (parent == root) return "";
            StringBuilder out = new StringBuilder();
            find(root, parent, out, 0);
            return out.toString();
        }

        private static boolean find(MappingNode at, MappingNode target, StringBuilder out, int depth) {
            if (depth > 4) return false;
            for (MappingNode.Entry e : at.entries()) {
                if (e.value() == target) { out.insert(0, e.key().text() + "."); return true; }
                if (e.value() instanceof MappingNode m && find(m, target, out, depth + 1)) { out.insert(0, e.key().text() + "."); return true; }
            }
            return false;
        }
    }
}
