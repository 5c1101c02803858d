package dev.gpulint.bind.adapt;

import dev.gpulint.catalog.Models;
import dev.gpulint.read.Readers;
import dev.gpulint.read.SourceFile;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs;
import dev.gpulint.spec.Specs.Stated;
import dev.gpulint.spec.Specs.StatedKind;
import dev.gpulint.tree.ListNode;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.Node;
import dev.gpulint.tree.ScalarNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A job that names its model instead of writing its dimensions gets them here, after the files of a run are linked:
 * from the Hugging Face {@code config.json} of the folder it names (a linted one, or one beside the script, on disk),
 * else from the model catalog ({@link Models}). The names are tried in the order the draft holds them (the launch's
 * {@code --model_name_or_path} before {@code --tokenizer-model} and {@code --load}); the first that gives a shape
 * wins. Every dimension the files write wins over it, dimension by dimension. The filled values are placed at the
 * name (a finding about the model's memory points where the model is named), and the job states where its shape came
 * from ({@link #SHAPE}), which the plan prints.
 */
final class ModelNames {
    private ModelNames() {}

    /** The statement of where a job's model shape came from (value: the entry or config file; where: its source). */
    static final String SHAPE = "model_shape";

    /** Keys of a configuration file that name the model (Hugging Face's, accelerate's, axolotl's, LLaMA-Factory's). */
    static final Set<String> KEYS = Set.of("model_name_or_path", "pretrained_model_name_or_path", "base_model", "model_id",
            "hf_model_id", "model_name", "hf_model_name", "tokenizer_name_or_path", "tokenizer_name");

    /** The most entries a document's names are looked for in, and how deep. */
    private static final int MAX_ENTRIES = 4096, MAX_DEPTH = 8;

    /** The most bytes of a config.json read from disk beside a script (published ones are a few kilobytes). */
    private static final long MAX_CONFIG_BYTES = 1 << 20;

    /**
     * The names a configuration document gives its model: the {@link #KEYS} at any depth, and a NeMo 2 config class
     * ({@code _target_: ...Qwen25Config72B}) that {@link Nemo2Configs} does not hold itself.
     */
    static void fromTree(JobDraft j, MappingNode root) {
        if (j.modelShapeWithheld != null) return;
        int[] budget = {MAX_ENTRIES};
        scan(j, root, 0, budget);
    }

    private static void scan(JobDraft j, Node n, int depth, int[] budget) {
        if (depth > MAX_DEPTH) return;
        if (n instanceof ListNode l) {
            for (Node i : l.items()) if (budget[0]-- > 0) scan(j, i, depth + 1, budget);
            return;
        }
        if (!(n instanceof MappingNode m)) return;
        for (var e : m.entries()) {
            if (budget[0]-- <= 0) return;
            String k = e.key().text();
            if (k.equals("tokenizer") && e.value() instanceof MappingNode t) tokenizer(j, t);
            if (e.value() instanceof ScalarNode s && !s.isNull() && !TreeValues.placeholder(s.text())) {
                if (KEYS.contains(k)) j.modelNames.add(j.key(k, new Located<>(s.text().strip(), s.span())));
                else if (k.equals("_target_") && s.text().matches("[\\w.]*\\.\\w*Config\\w*")
                        && !Nemo2Configs.CLASSES.containsKey(Nemo2Configs.className(m))) {
                    j.modelNames.add(j.key("_target_", new Located<>(Nemo2Configs.className(m), s.span())));
                }
            } else {
                scan(j, e.value(), depth + 1, budget);
            }
        }
    }

    /**
     * NeMo's tokenizer section ({@code model.tokenizer}: {@code library: huggingface}, {@code type: meta-llama/Meta-Llama-3.1-8B}):
     * a Hugging Face tokenizer named by its repository (NeMo 1 nemo/collections/nlp/modules/common/tokenizer_utils.py
     * get_nmt_tokenizer: library 'huggingface' loads AutoTokenizer(pretrained_model_name=type)). Its vocabulary is the job's.
     */
    private static void tokenizer(JobDraft j, MappingNode t) {
        String library = TreeValues.text(t, "library");
        if (library == null || !library.strip().equalsIgnoreCase("huggingface")) return;
        for (var e : t.entries()) {
            if (e.key().text().equals("type") && e.value() instanceof ScalarNode s && !s.isNull() && !TreeValues.placeholder(s.text())) {
                j.tokenizerNames.add(j.key("tokenizer.type", new Located<>(s.text().strip(), s.span())));
            }
        }
    }

    /**
     * Fills the draft's model from the first of its names that a config.json or the catalog knows.
     *
     * @param configs the linted Hugging Face configurations, by file
     * @param folder  the folder of the draft's file on disk, or null (standard input)
     */
    static void fill(JobDraft j, Map<String, Models.Entry> configs, Path folder, Models catalog) {
        fill(j, configs, Map.of(), Map.of(), folder, catalog);
    }

    /**
     * As {@link #fill(JobDraft, Map, Path, Models)}; a name that resolves to a linted config.json in {@code refused} (one
     * writing sizes out of bounds, SYN002 at each) gives no shape: those sizes are the job's unknown ones, and no other
     * name or catalog entry is tried (the job names that folder).
     */
    static void fill(JobDraft j, Map<String, Models.Entry> configs, Map<String, Models.Hybrid> hybridConfigs,
                     Map<String, java.util.Set<String>> refused, Path folder, Models catalog) {
        // last: a Hugging Face URI in the job's environment (Kubeflow's model initializer: STORAGE_URI=hf://org/model)
        for (var e : j.env.entrySet()) {
            if (e.getValue().value().startsWith("hf://")) {
                j.modelNames.add(j.key(e.getKey(), new Located<>(e.getValue().value().substring("hf://".length()), e.getValue().span())));
            }
        }
        if (j.modelShapeWithheld != null) return;
        if (j.modelNames.isEmpty() || (j.layers != null && j.hidden != null && j.heads != null)) {
            vocabulary(j, configs, catalog);
            return;
        }
        for (Located<String> name : j.modelNames) {
            String written = name.value();
            String key = j.keys.getOrDefault(name, "the model's name");
            String bad = refused.isEmpty() ? null : linted(refused, written);
            if (bad != null && linted(configs, written) == null) {
                for (String u : refused.get(bad)) {
                    if (!writes(j, u)) j.unknownShape.add(u);
                }
                return;
            }
            String config = linted(configs, written);
            Models.Entry e = config != null ? configs.get(config) : null;
            String from = config != null ? "the Hugging Face configuration " + config : null;
            if (e == null) {
                e = besideScript(folder, written);
                if (e != null) from = "the Hugging Face configuration " + e.source();
            }
            if (e == null) {
                e = catalog.find(written).orElse(null);
                if (e != null) from = "the model catalog's " + e.name() + " (" + e.source() + ")";
            }
            if (e == null) continue;
            // a linted NemotronH config.json's kinds, else the catalog entry's
            var hybrid = config != null ? java.util.Optional.ofNullable(hybridConfigs.get(config)) : catalog.hybrid(e);
            apply(j, e, name, key + " " + written + " → " + from);
            if (hybrid.isPresent() && j.hybrid == null) {
                // the Mamba-2, attention, MLP and MoE layers by kind (derive/estimate/MambaLayers)
                Models.Hybrid y = hybrid.get();
                var at = name.span();
                j.hybrid = new Specs.Hybrid(j.key("the hybrid_override_pattern of " + key + " " + written, new Located<>(y.pattern(), at)),
                        new Located<>(y.mambaHeads(), at), new Located<>(y.mambaHeadDim(), at),
                        new Located<>(y.stateSize(), at), new Located<>(y.groups(), at), new Located<>(y.convKernel(), at), null,
                        dev.gpulint.spec.HybridPattern.gdnLayers(y.pattern()), dev.gpulint.spec.HybridPattern.withGdn(y.pattern()), java.util.Set.of());
            }
            DraftBounds.keepUnknown(j);          // a size the files write out of bounds stays unknown, not the entry's
            j.stated.add(new Stated(SHAPE, e.name(), key + " " + written + ": " + from + unmodelled(e), StatedKind.NAME, name.span()));
            return;
        }
    }

    /** The statement of where a job's vocabulary came from when its shape is written but its vocab_size is not. */
    static final String VOCAB = "model_vocab";

    /**
     * A job that writes its shape but not its vocabulary: the vocabulary of the first tokenizer, else model, it names that
     * a linted config.json or the catalog knows (the tokenizer's embedding rows are the model's), stated ({@link #VOCAB}).
     */
    private static void vocabulary(JobDraft j, Map<String, Models.Entry> configs, Models catalog) {
        if (j.vocab != null || j.unknownShape.contains("model.vocab_size")) return;
        List<Located<String>> names = new java.util.ArrayList<>(j.tokenizerNames);
        names.addAll(j.modelNames);
        for (Located<String> name : names) {
            String written = name.value();
            String config = linted(configs, written);
            Models.Entry e = config != null ? configs.get(config) : catalog.find(written).orElse(null);
            if (e == null || e.vocab() <= 0) continue;
            String from = config != null ? "the Hugging Face configuration " + config : "the model catalog's " + e.name() + " (" + e.source() + ")";
            String key = j.keys.getOrDefault(name, "the model's name") + " " + written + " → " + from;
            j.vocab = j.key(key, new Located<>(e.vocab(), name.span()));
            j.stated.add(new Stated(VOCAB, String.valueOf(e.vocab()), key, StatedKind.NAME, name.span()));
            return;
        }
    }

    /** The job writes the size at {@code path} ("model.vocab_size") itself: a config's size would not stand in for it. */
    private static boolean writes(JobDraft j, String path) {
        return switch (path) {
            case "model.hidden_size" -> j.hidden != null;
            case "model.layers" -> j.layers != null;
            case "model.attention_heads" -> j.heads != null;
            case "model.kv_heads" -> j.kvHeads != null;
            case "model.ffn_hidden_size" -> j.ffn != null;
            case "model.vocab_size" -> j.vocab != null;
            case "model.seq_length" -> j.seqLength != null;
            case "model.experts" -> j.experts != null;
            case "model.top_k" -> j.topK != null;
            default -> false;
        };
    }

    /** The linted config.json in the folder {@code written} names: by path, else by the folder's name when only one has it. */
    private static String linted(Map<String, ?> configs, String written) {
        String r = written.strip();
        while (r.startsWith("./")) r = r.substring(2);
        while (r.endsWith("/")) r = r.substring(0, r.length() - 1);
        if (r.isEmpty() || r.contains("$")) return null;
        String base = r.substring(r.lastIndexOf('/') + 1);
        String byPath = null, byName = null;
        int paths = 0, names = 0;
        for (String f : configs.keySet()) {
            int slash = f.lastIndexOf('/');
            String dir = slash < 0 ? "" : f.substring(0, slash);
            if (dir.equals(r) || dir.endsWith("/" + r)) { byPath = f; paths++; }
            else if (dir.equals(base) || dir.endsWith("/" + base)) { byName = f; names++; }
        }
        if (paths == 1) return byPath;
        return paths == 0 && names == 1 ? byName : null;
    }

    /** The config.json in the folder a relative name names, beside the script on disk; null when there is none. */
    private static Models.Entry besideScript(Path folder, String written) {
        if (folder == null || written.startsWith("/") || written.startsWith("~") || written.contains("$") || written.contains("://")) return null;
        try {
            Path f = folder.resolve(written).resolve("config.json").normalize();
            if (!Files.isRegularFile(f) || Files.size(f) > MAX_CONFIG_BYTES) return null;
            String display = written.replaceAll("/+$", "") + "/config.json";
            var read = Readers.read(new SourceFile(f, display, Files.readString(f)));
            if (read.failed() || read.foreign().isEmpty()) return null;
            MappingNode root = read.foreign().get(0).root();
            // a hybrid config beside the script (not linted) is not read with its kinds: no shape from it
            return HfConfigAdapter.accepts(root) && HfConfigAdapter.hybrid(root) == null ? HfConfigAdapter.read(root, display) : null;
        } catch (IOException | InvalidPathException | java.io.UncheckedIOException e) {
            return null;
        }
    }

    /**
     * What of an MoE shape the estimate does not hold, as "; ..." for the plan's assumptions, or "": nothing of the MoE
     * layers any more (MoeCost prices the shared experts, the first dense layers and every n-th layer MoE, and
     * MemoryModel counts their parameters), only DeepSeek's latent attention where the entry lacks its kv_lora_rank.
     */
    static String unmodelled(Models.Entry e) {
        if (!e.moe()) return "";
        List<String> out = new java.util.ArrayList<>();
        // an entry with its kv_lora_rank has multi-latent attention named in the plan's assumptions (AttentionShape)
        if (e.kvLoraRank() <= 0 && e.headDim() > 0 && e.name().toLowerCase(java.util.Locale.ROOT).contains("deepseek")) {
            out.add("multi-head latent attention (counted as " + e.heads() + " heads of " + e.headDim() + ")");
        }
        return out.isEmpty() ? "" : "; not modelled by the estimate: " + String.join(", ", out);
    }

    /** The shape's dimensions the draft does not write, each placed at the name and keyed by where it came from. */
    private static void apply(JobDraft j, Models.Entry e, Located<String> at, String key) {
        if (j.layers == null) j.layers = j.key(key, new Located<>(e.layers(), at.span()));
        if (j.hidden == null) j.hidden = j.key(key, new Located<>(e.hidden(), at.span()));
        if (j.heads == null) j.heads = j.key(key, new Located<>(e.heads(), at.span()));
        if (j.kvHeads == null && e.kvHeads() > 0) j.kvHeads = j.key(key, new Located<>(e.kvHeads(), at.span()));
        if (j.headDim == null && e.headDim() > 0 && e.headDim() * e.heads() != e.hidden()) {
            j.headDim = j.key(key, new Located<>(e.headDim(), at.span()));
        }
        long ffn = e.moe() ? e.moeFfn() : e.ffn();
        if (j.ffn == null && ffn > 0) j.ffn = j.key(key, new Located<>(ffn, at.span()));
        if (e.moe()) moe(j, e, at, key);
        if (j.window == null && e.slidingWindow() > 0) {
            j.window = j.key(key, new Located<>(e.slidingWindow(), at.span()));
            if (j.fullEvery == null && e.fullAttentionEvery() > 0) j.fullEvery = j.key(key, new Located<>(e.fullAttentionEvery(), at.span()));
        }
        if (j.sinks == null && e.sinks()) j.sinks = new Located<>(true, at.span());
        if (j.kvLoraRank == null && e.kvLoraRank() > 0) {
            j.kvLoraRank = j.key(key, new Located<>(e.kvLoraRank(), at.span()));
            Models.Mla a = e.mla();
            if (a != null) {
                if (j.qLoraRank == null && a.qLoraRank() > 0) j.qLoraRank = j.key(key, new Located<>(a.qLoraRank(), at.span()));
                if (j.qkHeadDim == null && a.qkNopeHeadDim() > 0) j.qkHeadDim = j.key(key, new Located<>(a.qkNopeHeadDim(), at.span()));
                if (j.qkRopeHeadDim == null && a.qkRopeHeadDim() > 0) j.qkRopeHeadDim = j.key(key, new Located<>(a.qkRopeHeadDim(), at.span()));
                if (j.vHeadDim == null && a.vHeadDim() > 0) j.vHeadDim = j.key(key, new Located<>(a.vHeadDim(), at.span()));
            }
        }
        if (j.vocab == null && e.vocab() > 0) j.vocab = j.key(key, new Located<>(e.vocab(), at.span()));
        if (j.experts == null && e.moe()) j.experts = j.key(key, new Located<>(e.experts(), at.span()));
        if (j.topK == null && e.moe() && e.topK() > 0) j.topK = j.key(key, new Located<>(e.topK(), at.span()));
        // multi-token prediction: Megatron-Bridge's AutoBridge maps num_nextn_predict_layers (and mtp_num_hidden_layers) to
        // mtp_num_layers (src/megatron/bridge/models/conversion/model_bridge.py, CONFIG_MAPPING), so a Bridge job built from the
        // config trains its MTP layers; Megatron-LM's argparse reads no config (--mtp-num-layers, default none), nor does
        // torchtitan or NeMo 2's recipe, so no other format takes them from the weights' config
        if (j.mtpLayers == null && e.mtpLayers() > 0 && BridgeAdapter.FORMAT.equals(j.format)) {
            j.mtpLayers = j.key(key, new Located<>(e.mtpLayers(), at.span()));
        }
        if (j.gated == null) j.gated = new Located<>(e.gated(), at.span());
        if (j.tied == null) j.tied = new Located<>(e.tied(), at.span());
    }

    /**
     * What the estimate reads of a catalog MoE entry beyond experts and top-k: the experts' MLP size (and, when the
     * files write none, the dense layers' as the MLP size), shared experts (their count × the experts' size), the first
     * dense layers and every n-th layer MoE, each unless the files state it.
     */
    private static void moe(JobDraft j, Models.Entry e, Located<String> at, String key) {
        boolean ownFfn = j.ffn != null && j.ffn.value() != null && j.ffn.value() != e.moeFfn();
        if (j.moeFfn == null && e.moeFfn() > 0) {
            j.moeFfn = j.key(key, new Located<>(e.moeFfn(), at.span()));
            // the dense layers' MLP: the entry's ffn, unless the files wrote one (the experts' size came from them then)
            if (!ownFfn && e.ffn() > 0 && (e.firstDenseLayers() > 0 || e.moeLayerStep() > 1)) j.ffn = j.key(key, new Located<>(e.ffn(), at.span()));
        }
        if (j.sharedFfn == null && e.sharedExperts() > 0 && e.moeFfn() > 0) {
            j.sharedFfn = j.key(key, new Located<>(e.sharedExperts() * e.moeFfn(), at.span()));
        }
        if (j.moeLayerFreq == null && j.denseLayers == null && e.firstDenseLayers() > 0) {
            j.denseLayers = j.key(key, new Located<>(e.firstDenseLayers(), at.span()));
        }
        if (j.moeLayerFreq == null && e.moeLayerStep() > 1) j.moeLayerFreq = j.key(key, new Located<>(String.valueOf(e.moeLayerStep()), at.span()));
        if (j.activationClamp == null && e.swigluLimit() > 0) j.activationClamp = j.key(key, new Located<>(e.swigluLimit(), at.span()));
        if (j.expertBias == null && e.expertBias()) j.expertBias = new Located<>(true, at.span());
    }

    /** The files' model configurations and the folders of the drafts' files, for {@link #fill}. */
    static void fillAll(List<JobDraft> drafts, Map<String, Models.Entry> configs, Map<String, Models.Hybrid> hybridConfigs,
                        Map<String, java.util.Set<String>> refused, Map<String, Path> folders) {
        Models catalog = Models.builtIn();
        for (JobDraft j : drafts) fill(j, configs, hybridConfigs, refused, folders.get(j.file), catalog);
    }
}
