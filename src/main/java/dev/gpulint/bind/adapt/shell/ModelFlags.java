package dev.gpulint.bind.adapt.shell;

import dev.gpulint.bind.adapt.shell.Shell.Word;
import java.util.List;
import java.util.Map;

/**
 * Where a command line names the model it trains: Hugging Face's and the fine-tuning tools' flags
 * ({@code --model_name_or_path meta-llama/Meta-Llama-3-70B}), and a Megatron tokenizer or checkpoint that is a Hugging
 * Face folder ({@code --tokenizer-model /data/Llama-2-7b-hf/tokenizer.model}, {@code --load}). The binder looks the
 * names up in the model catalog when the job does not write its shape (bind.adapt.ModelNames).
 */
public final class ModelFlags {
    private ModelFlags() {}

    /** The flags, in the order the names are tried: the model's own names before a tokenizer's and a checkpoint's. */
    public static final List<String> FLAGS = List.of("--model_name_or_path", "--model-name-or-path",
            "--pretrained_model_name_or_path", "--base_model", "--base-model", "--model", "--model_id", "--model-id",
            "--model_name", "--model-name", "--model_path", "--model-path", "--hf_model", "--hf-model", "--hf-model-id",
            "--tokenizer_name_or_path", "--tokenizer-name-or-path", "--tokenizer_name", "--tokenizer-model", "--tokenizer",
            "--load", "--pretrained-checkpoint", "--config");

    /** torchtune's built-in recipe configurations, {@code tune run ... --config llama3_2/1B_full}: family/size_variant, or
     *  family/name_size_variant ({@code llama4/maverick_17B_128E_full}). */
    private static final java.util.regex.Pattern TORCHTUNE_CONFIG = java.util.regex.Pattern.compile("[a-z][a-z0-9_]{1,31}/(?:[a-z]{1,20}_)?[0-9.]{1,6}[BbMm]\\w{0,40}");

    /**
     * The value word {@code i} of {@code w} gives one of the {@link #FLAGS}, when it is known, first value of each flag;
     * and a torchtune built-in configuration's name under {@code --config} (its family and size name the model).
     */
    static void scan(List<Word> w, int i, Map<String, Word> out) {
        if (!w.get(i).text().startsWith("--")) return;
        Word c = Launchers.optionValue(w, i, "--config");
        if (c != null && c.known() && TORCHTUNE_CONFIG.matcher(c.text()).matches()) {
            // one name of the two parts (a path's last part alone, 1B_full, would name no model)
            out.putIfAbsent("--config", new Word(c.text().replace('/', '_'), true, c.span()));
        }
        for (String m : FLAGS) {
            Word v = Launchers.optionValue(w, i, m);
            if (v != null && v.known() && !v.text().startsWith("-")) out.putIfAbsent(m, v);
        }
    }
}
