package dev.gpulint.catalog;

import dev.gpulint.core.Lazy;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * The model-shape catalog (resource catalog/models.yaml): the public model families people train, each entry as
 * its published configuration states it (Hugging Face config.json names), with its source. A job that names its
 * model ({@code --model meta-llama/Meta-Llama-3-70B}, torchtitan's {@code llama3} flavor {@code 70B}, a recipe name
 * {@code llama3_70b}) instead of writing its dimensions gets them from here; dimensions the job writes win.
 *
 * <p>Names are matched after {@link #keys(String) normalising} both sides: the last path segment (a checkpoint
 * folder, an organisation's repository), lower case, the variant words that do not change a shape left out
 * (Instruct, chat, hf, base, pt, it...), then exactly token by token, else with separators and dots dropped
 * ({@code llama31_70b} = {@code Llama-3.1-70B}) when that loose form names one entry only.
 */
public final class Models {

    /**
     * One published model's shape (0: not stated; {@code kvHeads} 0 = heads, {@code headDim} 0 = hidden ÷ heads).
     *
     * @param ffn              the dense MLP's hidden size (intermediate_size)
     * @param maxPositions     max_position_embeddings: recorded, never taken as the training sequence
     * @param experts          routed experts per MoE layer (1: dense)
     * @param moeFfn           one routed expert's MLP hidden size (moe_intermediate_size)
     * @param sharedExperts    always-active experts of that size per MoE layer
     * @param firstDenseLayers leading layers with a dense MLP instead (first_k_dense_replace)
     * @param moeLayerStep     every n-th layer is MoE (1: every layer)
     * @param slidingWindow    sliding-window attention size in tokens (0: full attention)
     * @param fullAttentionEvery every n-th layer keeps full attention, the others the window (0: every layer windowed)
     * @param sinks            learned attention sinks (GPT-OSS)
     * @param kvLoraRank       multi-latent attention's key/value rank (0: none)
     * @param mla              multi-latent attention's other sizes, 0 each where not stated (null: none stated)
     * @param swigluLimit      the experts' GLU inputs clamped to this value (swiglu_limit: GPT-OSS 7.0; 0: not clamped)
     * @param expertBias       the experts' linear layers have biases (GPT-OSS)
     */
    public record Entry(String name, List<String> aliases, String source, long hidden, long layers, long heads, long kvHeads,
                        long headDim, long ffn, long vocab, long maxPositions, long experts, long topK, long moeFfn,
                        long sharedExperts, long firstDenseLayers, long moeLayerStep, boolean gated, boolean tied,
                        long slidingWindow, long fullAttentionEvery, boolean sinks, long kvLoraRank, Mla mla,
                        double swigluLimit, boolean expertBias, long mtpLayers) {
        public boolean moe() { return experts > 1; }
    }

    /**
     * Multi-latent attention's sizes beside kv_lora_rank (config.json names: q_lora_rank, qk_nope_head_dim,
     * qk_rope_head_dim, v_head_dim; 0 where not stated).
     */
    public record Mla(long qLoraRank, long qkNopeHeadDim, long qkRopeHeadDim, long vHeadDim) {
        /** The sizes of a mapping (a catalog entry, a config.json), or null when it states none. */
        public static Mla of(long q, long nope, long rope, long v) {
            return q <= 0 && nope <= 0 && rope <= 0 && v <= 0 ? null : new Mla(Math.max(0, q), Math.max(0, nope), Math.max(0, rope), Math.max(0, v));
        }
    }

    /**
     * A hybrid model's layer kinds (Megatron-Core's hybrid_override_pattern, Hugging Face NemotronH's config: one
     * character per layer — {@code M} Mamba-2, {@code *} self-attention, {@code -} MLP, {@code E} MoE) and its Mamba-2
     * mixer's sizes (mamba_num_heads, mamba_head_dim, ssm_state_size, n_groups, conv_kernel). A job naming such an entry
     * gets its pattern with the shape ({@code ModelNames}), and the estimate prices its layers by kind (derive/estimate/
     * MambaLayers: its E layers as MoE layers of the entry's experts).
     */
    public record Hybrid(String pattern, long mambaHeads, long mambaHeadDim, long stateSize, long groups, long convKernel) {
        /** Layers of one kind ({@code 'M'}, {@code '*'}, {@code '-'}, {@code 'E'}). */
        public long count(char kind) {
            return count(pattern, kind);
        }

        /** "54 Mamba-2, 10 attention and 54 MLP layers": the pattern's kinds, in words. */
        public String kinds() {
            return kinds(pattern);
        }

        /** The kinds of any layer pattern of M, G, *, - and E (a Megatron script's --hybrid-layer-pattern too), in words. */
        public static String kinds(String pattern) {
            List<String> parts = new ArrayList<>();
            if (count(pattern, 'M') > 0) parts.add(count(pattern, 'M') + " Mamba-2");
            if (count(pattern, 'G') > 0) parts.add(count(pattern, 'G') + " gated delta net");
            if (count(pattern, '*') > 0) parts.add(count(pattern, '*') + " attention");
            if (count(pattern, '-') > 0) parts.add(count(pattern, '-') + " MLP");
            if (count(pattern, 'E') > 0) parts.add(count(pattern, 'E') + " MoE");
            String last = parts.remove(parts.size() - 1);
            return (parts.isEmpty() ? last : String.join(", ", parts) + " and " + last) + " layers";
        }

        private static long count(String pattern, char kind) {
            return pattern.chars().filter(c -> c == kind).count();
        }
    }

    /** Words of a model's name that name a variant with its base model's shape (fine-tunes, exports, precisions, recipes:
     *  torchtune's {@code llama3_1/8B_full_single_device}). */
    static final Set<String> VARIANT_WORDS = Set.of("instruct", "chat", "it", "hf", "base", "pt", "sft", "dpo", "rlhf", "fp8",
            "bf16", "fp16", "awq", "gptq", "gguf", "pretrain", "finetune", "lora", "qlora", "peft", "recipe", "config", "model", "checkpoint",
            "full", "single", "device", "distributed");

    private final List<Entry> entries = new ArrayList<>();
    /** The hybrid entries' layer kinds, by entry name. */
    private final Map<String, Hybrid> hybrids = new HashMap<>();
    private final Map<String, Entry> strict = new HashMap<>();
    /** Loose keys; an entry of null marks a loose key two entries share (it matches neither). */
    private final Map<String, Entry> loose = new HashMap<>();

    private static final Lazy<Models> BUILT_IN = new Lazy<>(() -> load("catalog/models.yaml"));

    public static Models builtIn() { return BUILT_IN.get(); }

    public List<Entry> entries() { return List.copyOf(entries); }

    /** The entry's hybrid layer kinds when it is a hybrid Mamba model (hybrid_override_pattern), else empty. */
    public Optional<Hybrid> hybrid(Entry e) {
        return Optional.ofNullable(e == null ? null : hybrids.get(e.name()));
    }

    /** The entry {@code written} names (a repository, a path to a checkpoint folder, a recipe or flavor name), if any. */
    public Optional<Entry> find(String written) {
        String[] k = keys(written);
        if (k == null) return Optional.empty();
        Entry e = strict.get(k[0]);
        if (e == null) e = loose.get(k[1]);
        return Optional.ofNullable(e);
    }

    /**
     * The strict and loose keys of a name, or null when nothing of it is left. The name is its last path segment
     * ({@code /ckpt/Meta-Llama-3-70B/} → {@code Meta-Llama-3-70B}; a file in a folder, {@code .../tokenizer.model},
     * names its folder); then the words are lower-cased, split at anything but letters, digits and dots, a leading
     * "meta" and the {@link #VARIANT_WORDS} left out: strict is the words joined by "-", loose their concatenation
     * without dots and without "config" (NeMo's {@code Llama31Config70B} = {@code llama3170b}).
     */
    static String[] keys(String written) {
        if (written == null) return null;
        String s = written.strip();
        if (s.length() > 512) return null;
        while (s.endsWith("/")) s = s.substring(0, s.length() - 1);
        String[] parts = s.split("/");
        String last = parts.length == 0 ? "" : parts[parts.length - 1];
        if (parts.length > 1 && last.matches("(?i).+\\.(model|json|bin|safetensors|nemo|pt|pth|ckpt|txt)")) last = parts[parts.length - 2];
        List<String> words = new ArrayList<>();
        for (String w : last.toLowerCase(Locale.ROOT).split("[^a-z0-9.]+")) {
            w = w.replaceAll("^\\.+|\\.+$", "");
            if (w.isEmpty() || VARIANT_WORDS.contains(w)) continue;
            if (words.isEmpty() && w.equals("meta")) continue;
            words.add(w);
        }
        if (words.isEmpty()) return null;
        String strictKey = String.join("-", words);
        String looseKey = String.join("", words).replace(".", "").replace("config", "");
        return new String[] {strictKey, looseKey};
    }

    @SuppressWarnings("unchecked")
    static Models load(String resource) {
        try (InputStream in = Models.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) throw new IllegalStateException("missing resource " + resource);
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            Map<String, Object> root = (Map<String, Object>) new Load(LoadSettings.builder().build()).loadFromString(text);
            Models m = new Models();
            for (Map<String, Object> e : (List<Map<String, Object>>) root.get("models")) {
                Entry entry = entry(e);
                m.add(entry);
                Hybrid h = hybrid(e, entry);
                if (h != null) m.hybrids.put(entry.name(), h);
            }
            return m;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @SuppressWarnings("unchecked")
    private static Entry entry(Map<String, Object> e) {
        String name = (String) e.get("name");
        List<String> aliases = new ArrayList<>();
        for (Object a : (List<Object>) e.getOrDefault("aliases", List.of())) aliases.add(String.valueOf(a));
        long heads = n(e, "num_attention_heads"), experts = Math.max(1, n(e, "num_experts"));
        long ffn = n(e, "intermediate_size");
        if (name == null || n(e, "hidden_size") <= 0 || n(e, "num_hidden_layers") <= 0 || heads <= 0 || ffn <= 0
                || n(e, "vocab_size") <= 0 || !e.containsKey("source") || !(e.get("gated") instanceof Boolean)
                || !(e.get("tied") instanceof Boolean)) {
            throw new IllegalStateException("models.yaml: entry " + name + " lacks a size, gated, tied or its source");
        }
        return new Entry(name, List.copyOf(aliases), String.valueOf(e.get("source")), n(e, "hidden_size"),
                n(e, "num_hidden_layers"), heads, n(e, "num_key_value_heads"), n(e, "head_dim"), ffn, n(e, "vocab_size"),
                n(e, "max_position_embeddings"), experts, experts > 1 ? n(e, "num_experts_per_tok") : 1,
                experts > 1 ? n(e, "moe_intermediate_size") : 0, n(e, "shared_experts"), n(e, "first_dense_layers"),
                Math.max(1, n(e, "moe_layer_step")), (Boolean) e.get("gated"), (Boolean) e.get("tied"),
                n(e, "sliding_window"), n(e, "full_attention_every"), Boolean.TRUE.equals(e.get("sinks")), n(e, "kv_lora_rank"),
                Mla.of(n(e, "q_lora_rank"), n(e, "qk_nope_head_dim"), n(e, "qk_rope_head_dim"), n(e, "v_head_dim")),
                e.get("swiglu_limit") instanceof Number limit && limit.doubleValue() > 0 ? limit.doubleValue() : 0,
                Boolean.TRUE.equals(e.get("expert_bias")), n(e, "num_nextn_predict_layers"));
    }

    /** The hybrid layer kinds an entry states, or null; a pattern of other characters or of another length than its layers is refused. */
    private static Hybrid hybrid(Map<String, Object> e, Entry entry) {
        if (!(e.get("hybrid_override_pattern") instanceof String p)) return null;
        if (!p.matches("[M*\\-E]+") || p.length() != entry.layers() || n(e, "mamba_num_heads") <= 0 || n(e, "mamba_head_dim") <= 0
                || n(e, "ssm_state_size") <= 0 || n(e, "n_groups") <= 0) {
            throw new IllegalStateException("models.yaml: entry " + entry.name() + ": hybrid_override_pattern of M, *, - and E, one per layer,"
                    + " with mamba_num_heads, mamba_head_dim, ssm_state_size and n_groups");
        }
        return new Hybrid(p, n(e, "mamba_num_heads"), n(e, "mamba_head_dim"), n(e, "ssm_state_size"), n(e, "n_groups"),
                Math.max(1, n(e, "conv_kernel")));
    }

    private void add(Entry e) {
        entries.add(e);
        List<String> names = new ArrayList<>(e.aliases());
        names.add(0, e.name());
        for (String n : names) {
            String[] k = keys(n);
            if (k == null) continue;
            Entry before = strict.putIfAbsent(k[0], e);
            if (before != null && before != e) throw new IllegalStateException("models.yaml: " + n + " names two entries");
            if (!loose.containsKey(k[1])) loose.put(k[1], e);
            else if (loose.get(k[1]) != e) loose.put(k[1], null);
        }
    }

    private static long n(Map<String, Object> e, String key) {
        Object v = e.get(key);
        return v instanceof Number x ? x.longValue() : 0;
    }
}
