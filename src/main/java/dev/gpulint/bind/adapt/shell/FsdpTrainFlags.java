package dev.gpulint.bind.adapt.shell;

import dev.gpulint.bind.adapt.shell.Shell.Word;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The model flags of the FSDP training program of aws-samples/awsome-distributed-training (3.test_cases/pytorch/FSDP,
 * src/model_utils/arguments.py), the program its Kubernetes, Slurm and HyperPod Llama jobs run:
 * {@code --num_layers 80 --hidden_width 8192 --num_heads 64 --num_key_value_heads 8 --intermediate_size 28672
 * --max_context_width 8192 --model_type llama_v3 --train_batch_size 1}. The names are plain enough to mean something
 * else in another program, so a command's flags are read as these only when it writes {@code --hidden_width}, the
 * program's own name for the hidden size (bind.adapt.FsdpTrainShape).
 */
public final class FsdpTrainFlags {
    private FsdpTrainFlags() {}

    /** The flag that marks the program. */
    public static final String MARK = "--hidden_width";

    /** The flags read, each the first value a command gives it. */
    public static final Set<String> FLAGS = Set.of(MARK, "--num_layers", "--num_heads", "--num_key_value_heads",
            "--intermediate_size", "--max_context_width", "--vocab_size", "--train_batch_size", "--model_type", "--bf16",
            "--activation_checkpointing", "--sharding_strategy", "--offload_activations");

    /** The value of one of the {@link #FLAGS} at word {@code i} of {@code w}, when it is written with a value. */
    static void scan(List<Word> w, int i, Map<String, Word> out) {
        String t = w.get(i).text();
        if (!t.startsWith("--")) return;
        int eq = t.indexOf('=');
        String name = eq > 0 ? t.substring(0, eq) : t;
        if (!FLAGS.contains(name) || out.containsKey(name)) return;
        Word v = Launchers.optionValue(w, i, name);
        if (v != null && !v.text().startsWith("--")) out.put(name, v);
    }
}
