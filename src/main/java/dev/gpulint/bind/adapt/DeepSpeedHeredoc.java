package dev.gpulint.bind.adapt;

import dev.gpulint.bind.adapt.shell.Launchers;
import dev.gpulint.bind.adapt.shell.ScalarText;
import dev.gpulint.bind.adapt.shell.ShellTokens;
import dev.gpulint.bind.adapt.shell.Shell;
import dev.gpulint.bind.adapt.shell.Shell.Word;
import dev.gpulint.spec.Located;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A DeepSpeed configuration a launch script writes at run time, as Megatron-DeepSpeed's examples do:
 * {@code cat <<EOT > $DS_CONFIG} with {@code "train_batch_size" : $GLOBAL_BATCH} in its body, then
 * {@code --deepspeed_config $DS_CONFIG} on the launch. The body is read as the file it writes: the batch
 * triple and the ZeRO stage, each value expanded with the variables the script knows where the
 * {@code cat} stands (a quoted delimiter, {@code <<'EOT'}, expands nothing), and each placed at its
 * line in the script. Only these keys are read, by a one-pass scan of the body's JSON (the body is
 * bounded by {@link Shell#MAX_HEREDOC}); a value that is not a whole number after expansion is unknown.
 */
final class DeepSpeedHeredoc {

    /** What the body states; each value null when absent or unknown. {@code where} names it for messages. */
    record Written(Located<Long> trainBatch, Located<Long> micro, Located<Long> accumulation, Located<Long> stage,
                   String where) {}

    private DeepSpeedHeredoc() {}

    /** The configuration the script writes to the file {@code ref} names; null when no here-document writes it. */
    static Written find(Shell.Script script, ScalarText text, Word ref) {
        if (ref == null) return null;
        for (Shell.Heredoc h : script.heredocs()) {
            Word target = target(h.words());
            if (target == null || !sameFile(target, ref) || h.end() - h.start() > ShellTokens.MAX_HEREDOC) continue;
            Map<String, Located<Long>> keys = read(text, h);
            if (keys.isEmpty()) continue;
            int line = text.span(h.start(), h.start()).startLine() - 1;
            String where = "the DeepSpeed configuration the script writes to " + target.text() + " (the here-document at line "
                    + line + ")";
            return new Written(keys.get("train_batch_size"), keys.get("train_micro_batch_size_per_gpu"),
                    keys.get("gradient_accumulation_steps"), keys.get("zero_optimization.stage"), where);
        }
        return null;
    }

    /** The file a {@code cat > FILE} or {@code tee FILE} command writes; null for any other command. */
    private static Word target(List<Word> w) {
        if (w.isEmpty()) return null;
        String prog = Shell.program(w.get(0).text());
        for (int i = 1; i < w.size(); i++) {
            String t = w.get(i).text();
            if (prog.equals("cat")) {
                if (t.equals(">") && i + 1 < w.size()) return w.get(i + 1);
                if (t.startsWith(">") && !t.startsWith(">>") && t.length() > 1) return Launchers.valueOf(w.get(i), 1);
            } else if (prog.equals("tee") && !t.startsWith("-") && !t.startsWith(">")) {
                return w.get(i);
            }
        }
        return null;
    }

    /** Both words name one file: the same text (both expanded, or both with the same unknown variable), or the same base name. */
    private static boolean sameFile(Word a, Word b) {
        if (a.text().equals(b.text())) return true;
        if (!a.known() || !b.known()) return false;
        String x = a.text().startsWith("./") ? a.text().substring(2) : a.text();
        String y = b.text().startsWith("./") ? b.text().substring(2) : b.text();
        return x.equals(y) || (x.substring(x.lastIndexOf('/') + 1).equals(y.substring(y.lastIndexOf('/') + 1)) && x.endsWith(".json"));
    }

    /** The keys gpulint reads, by their dotted path, from the body's JSON; only whole numbers are kept. */
    private static Map<String, Located<Long>> read(ScalarText text, Shell.Heredoc h) {
        String s = text.value();
        Map<String, Located<Long>> out = new HashMap<>();
        String[] path = new String[4];          // the keys of the objects the scan is inside, to depth 4
        int depth = 0;
        String key = null;
        for (int i = h.start(); i < h.end(); i++) {
            char c = s.charAt(i);
            if (c == '"') {
                int close = s.indexOf('"', i + 1);
                if (close < 0 || close >= h.end()) break;
                String str = s.substring(i + 1, close);
                int j = close + 1;
                while (j < h.end() && (s.charAt(j) == ' ' || s.charAt(j) == '\t')) j++;
                key = j < h.end() && s.charAt(j) == ':' ? str : null;
                i = key != null ? j : close;
                if (key != null) i = value(text, h, key, path, depth, i + 1, out) - 1;
            } else if (c == '{') {
                if (depth < path.length) path[depth] = key;
                depth++;
                key = null;
            } else if (c == '}') {
                depth = Math.max(0, depth - 1);
            }
        }
        return out;
    }

    /** Reads the value after {@code key}: at the top level, or under zero_optimization; returns where the scan goes on. */
    private static int value(ScalarText text, Shell.Heredoc h, String key, String[] path, int depth, int from,
                             Map<String, Located<Long>> out) {
        String s = text.value();
        int i = from;
        while (i < h.end() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) i++;
        if (i >= h.end() || s.charAt(i) == '{' || s.charAt(i) == '[') return i;
        int start = i;
        boolean quoted = s.charAt(i) == '"';
        if (quoted) i = Math.max(i + 1, Math.min(h.end(), s.indexOf('"', i + 1) < 0 ? h.end() : s.indexOf('"', i + 1) + 1));
        else while (i < h.end() && ",}\n\r".indexOf(s.charAt(i)) < 0) i++;
        String raw = s.substring(start, i).strip();
        String dotted = depth == 1 ? key : depth == 2 && "zero_optimization".equals(path[1]) ? "zero_optimization." + key : null;
        if (dotted == null || !WANTED.contains(dotted) || out.containsKey(dotted)) return i;
        String v = quoted ? raw.substring(1, Math.max(1, raw.length() - 1)) : raw;
        String[] x = h.expands() ? Shell.expand(v, false, h.variables()) : new String[] {v, null};
        if (x[1] != null) return i;
        Located<Long> n = TreeValues.whole(x[0], text.span(start, start + raw.length()));
        if (n != null) out.put(dotted, n);
        return i;
    }

    /** Binds what the script writes as the job's DeepSpeed configuration: its batch triple and, unless stated, its ZeRO stage. */
    static void apply(JobDraft j, Written w) {
        j.deepspeed = new dev.gpulint.spec.Specs.DeepSpeedBatch(j.key("train_batch_size", w.trainBatch()),
                j.key("train_micro_batch_size_per_gpu", w.micro()), j.key("gradient_accumulation_steps", w.accumulation()));
        if (j.zeroStage == null) j.zeroStage = j.key("zero_optimization.stage", w.stage());
        batchStatements(j, w.trainBatch(), w.micro(), w.where());
    }

    /**
     * Megatron-DeepSpeed's two copies of the batch: --global-batch-size and --micro-batch-size on the launch, and
     * train_batch_size and train_micro_batch_size_per_gpu in the DeepSpeed configuration {@code where} names.
     * Stated side by side (launch first, the reference), they are compared by CONSIST007.
     */
    static void batchStatements(JobDraft j, Located<Long> trainBatch, Located<Long> micro, String where) {
        var kind = dev.gpulint.spec.Specs.StatedKind.CONFIG;
        if (j.global != null && trainBatch != null) {
            j.state("global_batch", j.global, "the launch command " + j.keys.getOrDefault(j.global, "--global-batch-size"), kind);
            j.state("global_batch", trainBatch, "train_batch_size in " + where, kind);
        }
        if (j.micro != null && micro != null) {
            j.state("micro_batch", j.micro, "the launch command " + j.keys.getOrDefault(j.micro, "--micro-batch-size"), kind);
            j.state("micro_batch", micro, "train_micro_batch_size_per_gpu in " + where, kind);
        }
    }

    private static final java.util.Set<String> WANTED = java.util.Set.of("train_batch_size", "train_micro_batch_size_per_gpu",
            "gradient_accumulation_steps", "zero_optimization.stage");
}
