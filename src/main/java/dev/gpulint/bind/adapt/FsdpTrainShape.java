package dev.gpulint.bind.adapt;

import dev.gpulint.bind.adapt.shell.FsdpTrainFlags;
import dev.gpulint.bind.adapt.shell.Shell.Word;
import dev.gpulint.spec.Located;
import java.util.Locale;
import java.util.Map;

/**
 * What the FSDP training program of awsome-distributed-training says of its model ({@link FsdpTrainFlags}): the
 * shape (--num_layers, --hidden_width, --num_heads, --num_key_value_heads, --intermediate_size, --vocab_size), the
 * sequence (--max_context_width), the micro batch per data-parallel rank (--train_batch_size), the architecture
 * (--model_type llama_v2, llama_v3, mistral, mixtral: a gated MLP and untied embeddings; gpt_neox: neither), the
 * precision (--bf16, on unless 0), recompute (--activation_checkpointing: every transformer block wrapped, i.e. full,
 * unless 0) and FSDP's sharding (--sharding_strategy full or hybrid: parameters, gradients and optimizer states sharded,
 * ZeRO stage 3). A flag the command does not write is the program's own default, not the plan's, and the plan's
 * assumptions say so ({@link #DEFAULTS}): src/model_utils/arguments.py (aws-samples/awsome-distributed-training at
 * 8822adcce69d77cfad178d3bd216a7d705d99f1c and 03282a1a57cba7a8a8687f3828cd0dcd778c978a, the same defaults) sets
 * --activation_checkpointing 1 (train.py at 016d8f3954bd049b5354fd4234b44a577d9def4e wraps every transformer layer when
 * it is above 0: full recompute; the plan's own default, selective, would keep every layer's activations), --train_batch_size
 * 2, --vocab_size 50432, --model_type gpt_neox, --sharding_strategy full, --num_layers 12, --num_heads 12,
 * --max_context_width 2048 and --intermediate_size 11008. For gpt_neox the program builds its MLP at 4 × --hidden_width
 * whatever --intermediate_size says and multi-head attention whatever --num_key_value_heads says (train_utils.py's
 * get_model_config: GPTNeoXConfig takes neither), so those flags are not read then.
 * --offload_activations above 0 (train.py's offload_wrapper: the checkpointed layers' inputs kept in host memory) is not
 * priced, and the assumptions say so. A flag written with a value that is not known (a placeholder) is not defaulted.
 * Values the draft already has (a Megatron flag, a config file) win.
 */
final class FsdpTrainShape {
    private FsdpTrainShape() {}

    /** Where the program's defaults are read, for the assumptions. */
    static final String DEFAULTS = "awsome-distributed-training's FSDP src/model_utils/arguments.py at 8822adcc";

    static void apply(JobDraft j, Map<String, Word> f) {
        if (!f.containsKey(FsdpTrainFlags.MARK)) return;
        dev.gpulint.core.Span at = f.get(FsdpTrainFlags.MARK).span();
        Word type = f.get("--model_type");
        String t = type == null ? "gpt_neox" : type.known() ? type.text().toLowerCase(Locale.ROOT) : null;
        if (j.layers == null) j.layers = j.key("--num_layers", MegatronAdapter.located(f.get("--num_layers")));
        if (j.layers == null) j.layers = programDefault(j, f, "--num_layers", 12, "12 layers", at);
        if (j.hidden == null) j.hidden = j.key("--hidden_width", MegatronAdapter.located(f.get("--hidden_width")));
        if (j.heads == null) j.heads = j.key("--num_heads", MegatronAdapter.located(f.get("--num_heads")));
        if (j.heads == null) j.heads = programDefault(j, f, "--num_heads", 12, "12 attention heads", at);
        // GPTNeoXConfig has no key-value heads (multi-head attention): get_model_config does not pass the flag for gpt_neox
        if (j.kvHeads == null && !"gpt_neox".equals(t)) j.kvHeads = j.key("--num_key_value_heads", MegatronAdapter.located(f.get("--num_key_value_heads")));
        if (j.ffn == null && !"gpt_neox".equals(t)) j.ffn = j.key("--intermediate_size", MegatronAdapter.located(f.get("--intermediate_size")));
        if (j.ffn == null && t != null && !"gpt_neox".equals(t)) {
            j.ffn = programDefault(j, f, "--intermediate_size", 11_008, "an MLP of 11,008 (get_model_config passes it to " + t + ")", at);
        }
        if (j.vocab == null) j.vocab = j.key("--vocab_size", MegatronAdapter.located(f.get("--vocab_size")));
        if (j.vocab == null && !f.containsKey("--vocab_size")) {
            j.vocab = j.key("--vocab_size (not written: the program's default 50432)", new Located<>(50_432L, at));
            j.unpriced.add("--vocab_size not written: 50,432, the program's default (" + DEFAULTS + ")");
        }
        if (j.seqLength == null) j.seqLength = j.key("--max_context_width", MegatronAdapter.located(f.get("--max_context_width")));
        if (j.seqLength == null) j.seqLength = programDefault(j, f, "--max_context_width", 2048, "2,048 tokens per sequence", at);
        if (j.micro == null) j.micro = j.key("--train_batch_size", MegatronAdapter.located(f.get("--train_batch_size")));
        if (j.micro == null && !f.containsKey("--train_batch_size")) {
            j.micro = j.key("--train_batch_size (not written: the program's default 2)", new Located<>(2L, at));
            j.unpriced.add("--train_batch_size not written: 2 sequences per GPU, the program's default (" + DEFAULTS + ")");
        }
        if (t != null) {
            boolean llama = t.startsWith("llama") || t.startsWith("mistral") || t.startsWith("mixtral");
            if (llama || t.equals("gpt_neox")) {
                dev.gpulint.core.Span ts = type == null ? at : type.span();
                if (j.gated == null) j.gated = new Located<>(llama, ts);
                if (j.tied == null) j.tied = new Located<>(false, ts);
                if (type == null) j.unpriced.add("--model_type not written: gpt_neox, the program's default (" + DEFAULTS
                        + "): an MLP of 4 × --hidden_width, not gated, untied embeddings (its get_model_config)");
            }
        }
        Word bf16 = f.get("--bf16");
        if (j.dtype == null && bf16 != null && bf16.known()) j.dtype = new Located<>(bf16.text().equals("0") ? "fp32" : "bf16", bf16.span());
        Word ac = f.get("--activation_checkpointing");
        if (j.recompute == null && ac != null && ac.known()) j.recompute = new Located<>(ac.text().equals("0") ? "none" : "full", ac.span());
        if (j.recompute == null && ac == null) {
            j.recompute = new Located<>("full", at);
            j.unpriced.add("--activation_checkpointing not written: 1, the program's default (" + DEFAULTS + "): its train.py"
                    + " checkpoints every transformer layer (full recompute), not the plan's usual selective");
        }
        Word sh = f.get("--sharding_strategy");
        if (j.zeroStage == null && sh != null && sh.known() && (sh.text().equals("full") || sh.text().equals("hybrid"))) {
            j.zeroStage = j.key("--sharding_strategy", new Located<>(3L, sh.span()));
        }
        if (j.zeroStage == null && sh == null) {
            j.zeroStage = j.key("--sharding_strategy (not written: the program's default full)", new Located<>(3L, at));
            j.unpriced.add("--sharding_strategy not written: full, the program's default (" + DEFAULTS + "): parameters,"
                    + " gradients and optimizer states sharded (ZeRO-3)");
        }
        Word off = f.get("--offload_activations");
        if (off != null && off.known() && !off.text().equals("0")) {
            j.unpriced.add("--offload_activations " + off.text() + ": the program's offload_wrapper keeps the checkpointed"
                    + " activations in host memory; not priced: the plan counts them on the GPU and adds no copy time");
        }
    }

    /**
     * The program's default of a flag the command does not write (arguments.py at 8822adcc), said in the assumptions; a flag
     * written with a value that is not known (a placeholder) stays unknown.
     */
    private static Located<Long> programDefault(JobDraft j, Map<String, Word> f, String flag, long value, String what,
                                                dev.gpulint.core.Span at) {
        if (f.containsKey(flag)) return null;
        j.unpriced.add(flag + " not written: " + what + ", the program's default (" + DEFAULTS + ")");
        return j.key(flag + " (not written: the program's default " + value + ")", new Located<>(value, at));
    }
}
