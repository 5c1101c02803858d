package dev.gpulint.bind.adapt;

import dev.gpulint.spec.Located;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.ScalarNode;
import java.util.Map;

/**
 * The dimensions of NeMo 2's named model configurations. A recipe serialised by NeMo-Run writes the config class
 * ({@code model.config._target_: nemo.collections.llm.gpt.model.llama.Llama3Config70B}) and only the fields the
 * recipe changed: the dimensions are the class's defaults. These are those defaults, as NVIDIA/NeMo's
 * {@code nemo/collections/llm/gpt/model/llama.py} (the Llama configs: RMSNorm, SwiGLU, no bias, untied embeddings
 * except Llama 3.2), {@code nemotron.py} (squared ReLU, untied) and {@code mistral.py} (SwiGLU, untied, 8 query
 * groups; Mistral NeMo's 128-wide heads) declare them. They are the published
 * architectures, not fitted figures. A field the file writes
 * wins over the class's; the vocabulary is the tokenizer's, not the config's, so it is not given here.
 */
final class Nemo2Configs {
    private Nemo2Configs() {}

    /** One class's dimensions. */
    record Shape(long layers, long hidden, long ffn, long heads, long kvHeads, long headDim, long seq, boolean gated, boolean tied) {}

    /** A Llama config: SwiGLU, head dimension hidden ÷ heads. */
    private static Shape s(long layers, long hidden, long ffn, long heads, long kv, long seq, boolean tied) {
        return new Shape(layers, hidden, ffn, heads, kv, 0, seq, true, tied);
    }

    /** A Mistral config (mistral.py): SwiGLU, untied, 8 query groups; kv_channels where it declares one. */
    private static Shape mistral(long layers, long hidden, long ffn, long heads, long headDim, long seq) {
        return new Shape(layers, hidden, ffn, heads, 8, headDim, seq, true, false);
    }

    /** A Nemotron config (nemotron.py): squared-ReLU MLP, two matrices, untied, seq 4096; no query groups = heads. */
    private static Shape nemotron(long layers, long hidden, long ffn, long heads, long kv) {
        return new Shape(layers, hidden, ffn, heads, kv, 0, 4096, false, false);
    }

    static final Map<String, Shape> CLASSES = Map.ofEntries(
            Map.entry("MistralConfig7B", mistral(32, 4096, 14336, 32, 0, 32768)),
            Map.entry("MistralNeMoConfig12B", mistral(40, 5120, 14336, 32, 128, 4096)),
            Map.entry("MistralNeMoConfig123B", mistral(88, 12288, 28672, 96, 128, 4096)),
            Map.entry("Nemotron3Config4B", nemotron(32, 3072, 9216, 24, 8)),
            Map.entry("Nemotron3Config8B", nemotron(32, 4096, 16384, 32, 32)),
            Map.entry("Nemotron4Config15B", nemotron(32, 6144, 24576, 48, 8)),
            Map.entry("Nemotron4Config340B", nemotron(96, 18432, 73728, 96, 8)),
            Map.entry("Llama2Config7B", s(32, 4096, 11008, 32, 32, 4096, false)),
            Map.entry("Llama2Config13B", s(40, 5120, 13824, 40, 40, 4096, false)),
            Map.entry("Llama2Config70B", s(80, 8192, 28672, 64, 8, 4096, false)),
            Map.entry("Llama3Config8B", s(32, 4096, 14336, 32, 8, 8192, false)),
            Map.entry("Llama3Config70B", s(80, 8192, 28672, 64, 8, 8192, false)),
            Map.entry("Llama31Config8B", s(32, 4096, 14336, 32, 8, 131072, false)),
            Map.entry("Llama31Config70B", s(80, 8192, 28672, 64, 8, 131072, false)),
            Map.entry("Llama31Config405B", s(126, 16384, 53248, 128, 8, 131072, false)),
            Map.entry("Llama32Config1B", s(16, 2048, 8192, 32, 8, 4096, true)),
            Map.entry("Llama32Config3B", s(28, 3072, 8192, 24, 8, 4096, true)),
            Map.entry("CodeLlamaConfig7B", s(32, 4096, 11008, 32, 32, 16384, false)),
            Map.entry("CodeLlamaConfig13B", s(40, 5120, 13824, 40, 40, 16384, false)),
            Map.entry("CodeLlamaConfig34B", s(48, 8192, 22016, 64, 8, 16384, false)),
            Map.entry("CodeLlamaConfig70B", s(80, 8192, 28672, 64, 8, 4096, false)));

    /** The class a {@code _target_} names (the part after the last dot), or null. */
    static String className(MappingNode config) {
        String t = TreeValues.text(config, "_target_");
        if (t == null) return null;
        t = t.strip();
        return t.substring(t.lastIndexOf('.') + 1);
    }

    /**
     * Fills what {@code config} does not write from its class's defaults, each at the {@code _target_} that names the
     * class: layers, hidden, MLP size, heads, query groups, head dimension, gated MLP, tied embeddings, and
     * the sequence when neither data nor the config gives one.
     */
    static void fill(JobDraft j, MappingNode config) {
        String name = className(config);
        Shape s = name == null ? null : CLASSES.get(name);
        if (s == null) return;
        ScalarNode target = TreeValues.scalar(config, "_target_");
        String key = "model.config._target_ (" + name + ")";
        if (j.layers == null) j.layers = j.key(key, new Located<>(s.layers(), target.span()));
        if (j.hidden == null) j.hidden = j.key(key, new Located<>(s.hidden(), target.span()));
        if (j.ffn == null) j.ffn = j.key(key, new Located<>(s.ffn(), target.span()));
        if (j.heads == null) j.heads = j.key(key, new Located<>(s.heads(), target.span()));
        if (j.kvHeads == null) j.kvHeads = j.key(key, new Located<>(s.kvHeads(), target.span()));
        if (j.headDim == null && s.headDim() > 0) j.headDim = j.key(key, new Located<>(s.headDim(), target.span()));
        if (j.seqLength == null) j.seqLength = j.key(key, new Located<>(s.seq(), target.span()));
        if (j.gated == null) j.gated = new Located<>(s.gated(), target.span());
        if (j.tied == null) j.tied = new Located<>(s.tied(), target.span());
    }
}
