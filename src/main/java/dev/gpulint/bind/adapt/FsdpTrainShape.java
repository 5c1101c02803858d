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
 * ZeRO stage 3). Only what the command writes is taken; the program's own defaults are left to the plan's, which it
 * states. Values the draft already has (a Megatron flag, a config file) win.
 */
final class FsdpTrainShape {
    private FsdpTrainShape() {}

    static void apply(JobDraft j, Map<String, Word> f) {
        if (!f.containsKey(FsdpTrainFlags.MARK)) return;
        if (j.layers == null) j.layers = j.key("--num_layers", MegatronAdapter.located(f.get("--num_layers")));
        if (j.hidden == null) j.hidden = j.key("--hidden_width", MegatronAdapter.located(f.get("--hidden_width")));
        if (j.heads == null) j.heads = j.key("--num_heads", MegatronAdapter.located(f.get("--num_heads")));
        if (j.kvHeads == null) j.kvHeads = j.key("--num_key_value_heads", MegatronAdapter.located(f.get("--num_key_value_heads")));
        if (j.ffn == null) j.ffn = j.key("--intermediate_size", MegatronAdapter.located(f.get("--intermediate_size")));
        if (j.vocab == null) j.vocab = j.key("--vocab_size", MegatronAdapter.located(f.get("--vocab_size")));
        if (j.seqLength == null) j.seqLength = j.key("--max_context_width", MegatronAdapter.located(f.get("--max_context_width")));
        if (j.micro == null) j.micro = j.key("--train_batch_size", MegatronAdapter.located(f.get("--train_batch_size")));
        Word type = f.get("--model_type");
        if (type != null && type.known()) {
            String t = type.text().toLowerCase(Locale.ROOT);
            boolean llama = t.startsWith("llama") || t.startsWith("mistral") || t.startsWith("mixtral");
            if (llama || t.equals("gpt_neox")) {
                if (j.gated == null) j.gated = new Located<>(llama, type.span());
                if (j.tied == null) j.tied = new Located<>(false, type.span());
            }
        }
        Word bf16 = f.get("--bf16");
        if (j.dtype == null && bf16 != null && bf16.known()) j.dtype = new Located<>(bf16.text().equals("0") ? "fp32" : "bf16", bf16.span());
        Word ac = f.get("--activation_checkpointing");
        if (j.recompute == null && ac != null && ac.known()) j.recompute = new Located<>(ac.text().equals("0") ? "none" : "full", ac.span());
        Word sh = f.get("--sharding_strategy");
        if (j.zeroStage == null && sh != null && sh.known() && (sh.text().equals("full") || sh.text().equals("hybrid"))) {
            j.zeroStage = j.key("--sharding_strategy", new Located<>(3L, sh.span()));
        }
    }
}
