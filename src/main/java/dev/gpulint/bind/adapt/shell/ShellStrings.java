package dev.gpulint.bind.adapt.shell;

import dev.gpulint.bind.adapt.shell.Shell.Assignment;
import dev.gpulint.bind.adapt.shell.Shell.Command;
import dev.gpulint.bind.adapt.shell.Shell.Word;
import dev.gpulint.bind.adapt.shell.ShellTokens.Raw;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Strings a script runs as scripts: {@code bash -c "$CMD"} (also {@code sh}, {@code zsh}, {@code dash},
 * {@code ksh}, with options such as {@code -l}, {@code -e}, {@code -x} or {@code -lc} before it), wherever it
 * stands in the command ({@code srun --nodes 2 bash -c "..."}), and {@code eval} of its arguments. The string is
 * expanded in the enclosing script's variables (a variable only partly known, {@code CMD="$LAUNCHER $PROGRAM"}
 * with {@code LAUNCHER} holding an escaped {@code \$SLURM_PROCID}, gives its known parts, the rest staying
 * unknown words), then read as a script, each of its words placed where the enclosing script writes its
 * characters (in the string, or in the assignment of the variable it came from). The inner script's commands
 * join the enclosing one's: the words before the shell ({@code srun ...}) prefix its launch, the first
 * command that is not set-up ({@code cd}, {@code source}, {@code export}...), so {@code srun bash -c "python ..."}
 * reads as {@code srun python ...}.
 *
 * <p>Bounds: strings inside strings are read {@link #MAX_DEPTH} deep (a deeper one stays one unknown word), and
 * the text read this way counts towards the script's expansion budget ({@code Shell.MAX_TOTAL}), so a script of
 * many {@code bash -c "$BIG"} lines stays linear. Variables assigned inside the string are known to the enclosing
 * script's later expansions as if it made them (a child shell's would not last), but each command keeps the shell it
 * runs in ({@link Shell.Command#shell}): what a child exports reaches the commands after it in that child only, as a
 * launch's environment is read (bind/adapt/LaunchEnvironment, PAR018).
 */
final class ShellStrings {
    private ShellStrings() {}

    /** How deep strings inside strings are read: {@code bash -c "srun bash -c '...'"} is two. */
    static final int MAX_DEPTH = 3;

    private static final Set<String> SHELLS = Set.of("bash", "sh", "zsh", "dash", "ksh");
    /** Commands that prepare the launch rather than run it: the words before the shell do not prefix them. */
    private static final Set<String> SET_UP = Set.of("cd", "source", ".", "export", "echo", "printf", "set", "ulimit",
            "mkdir", "module", "conda", "true", ":", "sleep", "unset", "hostname", "nvidia-smi", "env", "date", "pwd", "ls");

    /** Where a command runs a string: {program, script} raw indices for a shell's -c, {eval, -1} for eval; null when it runs none. */
    static int[] find(List<Raw> cmd, int i) {
        if (i >= cmd.size()) return null;
        String first = cmd.get(i).text;
        if (!cmd.get(i).quoted && first.equals("eval")) return i + 1 < cmd.size() ? new int[] {i, -1} : null;
        if (first.equals("echo") || first.equals("printf")) return null;
        for (int k = i; k < cmd.size(); k++) {
            Raw r = cmd.get(k);
            if (r.quoted || !SHELLS.contains(Shell.program(r.text))) continue;
            int j = k + 1;
            while (j < cmd.size() && cmd.get(j).text.startsWith("-") && !Launchers.shellDashC(cmd.get(j).text)) {
                j += cmd.get(j).text.equals("-o") ? 2 : 1;
            }
            if (j + 1 < cmd.size() && Launchers.shellDashC(cmd.get(j).text)) return new int[] {k, j + 1};
            return null;
        }
        return null;
    }

    /** A string a script runs: its text, placed in the outermost script's text, and where each character is written there. */
    record Source(ScalarText text, int[] origins) {}

    /**
     * The string {@code found} runs, expanded, as a text of its own placed in {@code top} (the outermost script's
     * text, which every raw offset refers to); null when the expansion budget is spent.
     */
    static Source source(ScalarText top, List<Raw> cmd, int[] found, Map<String, String> vars, ShellState budget) {
        StringBuilder text = new StringBuilder();
        ShellExpansion.Trace all = new ShellExpansion.Trace(new int[0], true);
        int from = found[1] >= 0 ? found[1] : found[0] + 1, to = found[1] >= 0 ? found[1] + 1 : cmd.size();
        for (int k = from; k < to; k++) {
            Raw r = cmd.get(k);
            if (text.length() > 0) { text.append(' '); all.add(r.at.length > 0 ? r.at[0] : 0, 1); }
            ShellExpansion.Trace t = new ShellExpansion.Trace(r.offsets(0), true);
            String x = ShellExpansion.expand(r.text, r.literal, vars, budget, t)[0];
            int[] o = t.offsets(x.length());
            text.append(x);
            if (o != null) all.add(o, 0, o.length); else all.add(r.text.isEmpty() ? 0 : r.at[0], x.length());
        }
        budget.used += text.length();
        if (budget.used > ShellExpansion.MAX_TOTAL || text.length() > ShellExpansion.MAX_VALUE) return null;
        int[] origins = all.offsets(text.length());
        return origins == null ? null : new Source(top.derived(text.toString(), origins), origins);
    }

    /**
     * Joins the string's commands to the enclosing script's: {@code assigns} and {@code prefix} (the words before the
     * shell) go with its first command that is not set-up (or stand alone when it has none), in the string's shell
     * {@code shell}: the assignments before {@code bash -c} are that child's environment, not the enclosing script's.
     */
    static void splice(List<Assignment> assigns, List<Word> prefix, List<Command> inner, List<Command> out, String shell) {
        int target = -1;
        for (int k = 0; k < inner.size() && target < 0; k++) {
            List<Word> w = inner.get(k).words();
            if (!w.isEmpty() && !SET_UP.contains(Shell.program(w.get(0).text()))) target = k;
        }
        if (target < 0) out.add(new Command(assigns, prefix, shell));
        for (int k = 0; k < inner.size(); k++) {
            Command c = inner.get(k);
            if (k != target) { out.add(c); continue; }
            List<Assignment> a = new ArrayList<>(assigns);
            a.addAll(c.assignments());
            List<Word> w = new ArrayList<>(prefix);
            w.addAll(c.words());
            out.add(new Command(a, w, c.shell()));
        }
    }
}
