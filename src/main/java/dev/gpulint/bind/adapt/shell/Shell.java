package dev.gpulint.bind.adapt.shell;

import dev.gpulint.core.Span;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import dev.gpulint.bind.adapt.shell.ShellTokens.Raw;

/**
 * A shell-lite reader for the scripts inside job files (a container's command, a SkyPilot
 * {@code run:} block, a Megatron {@code BEFORE_SCRIPT}). It splits words and commands the way
 * sh does for the common cases (quotes, backslash-newline, comments, {@code ; && || |}), tracks
 * plain variable assignments, {@code export} (and {@code declare -x}, {@code typeset -x}, any under {@code set -a}) and bash arrays ({@code ARGS=( ... )}, {@code "${ARGS[@]}"}),
 * and expands {@code $VAR}, {@code ${VAR}} and {@code $((arithmetic))} where every variable is known (an
 * unquoted expansion is split into words); the tokenizing is {@link ShellTokens}'s. It runs nothing and follows no control
 * flow: a value it cannot know stays unknown, and no rule reasons on it.
 */
public final class Shell {

    /** A word as the command sees it, and where it is written. {@code known} is false when it holds an unknown $-expansion. */
    public record Word(String text, boolean known, Span span) {
        public boolean is(String s) { return known && text.equals(s); }
    }

    /** NAME=value in the script; {@code exported} when in a command's environment (export NAME=value, NAME=value cmd). */
    public record Assignment(String name, Word value, boolean exported, Span nameSpan) {}

    /**
     * One simple command: its assignments and its words, and the shell it runs in: {@code ""} the script's own, else the
     * child shell of a string the script runs ({@code bash -c "..."}, {@link ShellStrings}), {@code "1"}, {@code "1/2"} for
     * a string inside that one's, each child numbered once per script; a {@code ( ... )} group's commands run in a child
     * shell the same way ({@link ShellTokens.Group}). What a child shell exports or assigns lasts in it
     * and its own children only ({@link #inside}); {@code eval} runs its string in the shell that evaluates it.
     */
    public record Command(List<Assignment> assignments, List<Word> words, String shell) {
        /** The command runs in shell {@code outer} or in one of its children, and so sees what {@code outer} exported before it. */
        public boolean inside(String outer) {
            return outer.isEmpty() || shell.equals(outer) || shell.startsWith(outer + "/");
        }
    }

    /**
     * A here-document a command reads ({@code cat <<EOT > $DS_CONFIG}): the command's words, the body's offsets in
     * the script, whether the body expands variables (an unquoted delimiter), and the variables known where the
     * command stands, to expand it with.
     */
    public record Heredoc(List<Word> words, int start, int end, boolean expands, Map<String, String> variables) {}

    /**
     * A script's commands and the variables it knows at its end. {@code arrays} are its bash arrays
     * ({@code ARGS=( --tp 8 ... )}), each element with its own span; {@code "${ARGS[@]}"} in a command
     * is replaced by those elements.
     */
    public record Script(List<Command> commands, Map<String, String> variables, Map<String, List<Word>> arrays,
                         List<Heredoc> heredocs) {
        public Script(List<Command> commands, Map<String, String> variables) { this(commands, variables, Map.of(), List.of()); }

        /** Every word of every command, in order. */
        public List<Word> words() {
            List<Word> out = new ArrayList<>();
            for (Command c : commands) out.addAll(c.words());
            return out;
        }

        public List<Assignment> assignments() {
            List<Assignment> out = new ArrayList<>();
            for (Command c : commands) out.addAll(c.assignments());
            return out;
        }
    }

    static final Pattern ASSIGN = Pattern.compile("([A-Za-z_][A-Za-z0-9_]*)=(.*)", Pattern.DOTALL);
    private static final java.util.Set<String> KEYWORDS = java.util.Set.of("then", "do", "else", "elif", "{", "}", "!",
            "time", "exec", "if", "while", "until", "fi", "done", "esac");

    private Shell() {}

    /** Reads a script. {@code known} holds variables whose values are known before it starts. */
    public static Script parse(ScalarText text, Map<String, String> known) {
        Map<String, String> vars = new LinkedHashMap<>(known);
        Map<String, List<Word>> arrays = new LinkedHashMap<>();
        ShellState budget = new ShellState(vars);
        List<Command> commands = new ArrayList<>();
        List<Heredoc> heredocs = new ArrayList<>();
        read(text, text, null, vars, arrays, budget, commands, heredocs, 0, "");
        return new Script(commands, vars, arrays, heredocs);
    }

    /**
     * Reads {@code text} into {@code commands}: the script itself ({@code depth} 0, {@code toTop} null), or a string
     * it runs ({@link ShellStrings}), whose character i is written at {@code top}'s character {@code toTop[i]}; its commands
     * run in {@code shell} ({@link Command#shell}).
     */
    private static void read(ScalarText text, ScalarText top, int[] toTop, Map<String, String> vars, Map<String, List<Word>> arrays,
                             ShellState budget, List<Command> commands, List<Heredoc> heredocs, int depth, String outer) {
        List<List<Raw>> raws = ShellTokens.tokenize(text.value());
        if (toTop != null) ShellTokens.relocate(raws, toTop);
        for (List<Raw> cmd : raws) {
            String shell = shellOf(cmd.get(0).group, outer, budget);
            List<Assignment> assigns = new ArrayList<>();
            List<Word> words = new ArrayList<>();
            int i = 0;
            for (; i < cmd.size() && KEYWORDS.contains(cmd.get(i).text) && !cmd.get(i).quoted; i++) budget.keyword(cmd.get(i).text);
            budget.command(cmd, i);
            boolean export = false;
            if (i < cmd.size() && DECLARING.contains(cmd.get(i).text)) {
                // export; declare -x / typeset -x / local -x (bash's "mark each name for export"); any under set -a
                export = cmd.get(i).text.equals("export") || allexport(budget, shell);
                i++;
                for (; i < cmd.size() && (cmd.get(i).text.startsWith("-") || cmd.get(i).text.startsWith("+")); i++) {
                    String o = cmd.get(i).text;
                    if (o.indexOf('x') > 0 && !o.equals("--")) export = o.charAt(0) == '-';
                }
                for (; i < cmd.size(); i++) {
                    Raw r = cmd.get(i);
                    Matcher m = ASSIGN.matcher(r.text);
                    if (r.elements != null) assigns.add(array(text, r, vars, arrays, budget));
                    else if (m.matches()) assigns.add(assignment(text, r, m, vars, export, budget));
                    else if (r.text.matches("[A-Za-z_][A-Za-z0-9_]*")) {
                        assigns.add(new Assignment(r.text, null, export, text.span(r.start, r.start + r.text.length())));
                    }
                }
                commands.add(new Command(assigns, words, shell));
                continue;
            }
            int firstAssign = i;
            for (; i < cmd.size(); i++) {
                Raw r = cmd.get(i);
                Matcher m = ASSIGN.matcher(r.text);
                if (r.elements != null) assigns.add(array(text, r, vars, arrays, budget));
                else if (!r.quotedName && m.matches()) assigns.add(assignment(text, r, m, vars, false, budget));
                else break;
            }
            int[] runs = depth < ShellStrings.MAX_DEPTH ? ShellStrings.find(cmd, i) : null;
            int wordsEnd = runs == null ? cmd.size() : runs[0];
            for (; i < wordsEnd; i++) words(text, cmd.get(i), vars, arrays, budget, words);
            ShellStrings.Source inner = runs == null ? null : ShellStrings.source(top, cmd, runs, vars, budget);
            if (runs != null && inner == null) for (; i < cmd.size(); i++) words(text, cmd.get(i), vars, arrays, budget, words);
            if (!words.isEmpty() && words.get(0).is("set")) setAllexport(words, budget, shell);
            // NAME=value before a command word is in that command's environment (NCCL_IB_HCA=mlx5 torchrun ...); under
            // set -a a NAME=value alone is exported too
            boolean exports = !words.isEmpty() || inner != null || allexport(budget, shell);
            for (int k = 0; k < assigns.size() && exports; k++) {
                Assignment a = assigns.get(k);
                if (cmd.get(firstAssign + k).elements == null) assigns.set(k, new Assignment(a.name(), a.value(), true, a.nameSpan()));
            }
            // env -S 'NAME=V prog ...': its arguments in the option's place; env's NAME=value words into the command's environment
            EnvSplitString.expand(words, assigns);
            if (inner != null) {
                List<Command> run = new ArrayList<>();
                // a shell's -c string runs in a child shell; eval's in this one
                String child = runs[1] < 0 ? shell : (shell.isEmpty() ? "" : shell + "/") + (++budget.childShells);
                read(inner.text(), top, inner.origins(), vars, arrays, budget, run, new ArrayList<>(), depth + 1, child);
                ShellStrings.splice(assigns, words, run, commands, child);
            } else {
                commands.add(new Command(assigns, words, shell));
            }
            Raw first = cmd.get(0);
            if (first.heredocStart >= 0 && depth == 0) {
                heredocs.add(new Heredoc(List.copyOf(words), first.heredocStart, first.heredocEnd, first.heredocExpands,
                        first.heredocExpands ? ShellTokens.referenced(text.value(), first.heredocStart, first.heredocEnd, vars) : Map.of()));
            }
        }
    }

    /** GNU env's options that take the next word as their value ({@code -u NAME}, {@code -C DIR}): the words env's readers skip. */
    static boolean envOptionWithValue(String t) {
        return t.equals("-u") || t.equals("--unset") || t.equals("-C") || t.equals("--chdir");
    }

    /** The commands whose assignments may mark a name for export. */
    private static final java.util.Set<String> DECLARING = java.util.Set.of("export", "declare", "typeset", "local", "readonly");

    /**
     * {@code set -a} / {@code set -o allexport} (bash: "each variable or function that is created or modified is given the
     * export attribute") and {@code set +a} / {@code set +o allexport}; it holds in the shell that ran it and its children
     * (a subshell's {@code set -a} ends with it), read in the script's order: control flow is not followed.
     */
    private static void setAllexport(List<Word> words, ShellState budget, String shell) {
        for (int k = 1; k < words.size(); k++) {
            String o = words.get(k).text();
            if (o.equals("--")) return;
            boolean on = o.startsWith("-");
            if (!on && !o.startsWith("+")) return;
            if ((o.equals("-o") || o.equals("+o")) && k + 1 < words.size()) {
                if (words.get(++k).is("allexport")) budget.allexport.put(shell, on);
            } else if (!o.startsWith("--") && o.indexOf('a') > 0) {
                budget.allexport.put(shell, on);
            }
        }
    }

    /** Whether set -a holds for a command of {@code shell}. */
    private static boolean allexport(ShellState budget, String shell) {
        if (budget.allexport.isEmpty()) return false;
        // the nearest setting: the shell's own, else the one it inherited from the shells around it
        for (String s = shell; ; s = s.substring(0, Math.max(0, s.lastIndexOf('/')))) {
            Boolean on = budget.allexport.get(s);
            if (on != null) return on;
            if (s.isEmpty()) return false;
        }
    }

    /**
     * The shell a command of a {@code ( ... )} group runs in: a child of the group's enclosing shell, numbered with the
     * {@code bash -c} children when the group's first command is read; {@code outer} for a command in no group.
     */
    private static String shellOf(ShellTokens.Group g, String outer, ShellState budget) {
        if (g == null) return outer;
        if (g.id == null) {
            String parent = shellOf(g.parent, outer, budget);
            g.id = (parent.isEmpty() ? "" : parent + "/") + (++budget.childShells);
        }
        return g.id;
    }

    private static final Pattern ARRAY_ALL = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)\\[[@*]\\]\\}");

    /** One raw word as the command's words: "${ARGS[@]}" becomes the array's elements (with their spans), others expand. */
    private static void words(ScalarText text, Raw r, Map<String, String> vars, Map<String, List<Word>> arrays, ShellState budget,
                              List<Word> out) {
        Matcher all = ARRAY_ALL.matcher(r.text);
        if (!r.literal && all.matches()) {
            List<Word> elements = arrays.get(all.group(1));
            if (elements != null) {
                long size = 0;
                for (Word e : elements) size += e.text().length() + 1;
                budget.used += size;
                if (budget.used <= MAX_TOTAL) { out.addAll(elements); return; }
            }
            out.add(new Word(r.text, false, text.span(r.start, r.end)));
            return;
        }
        String[] x = expand(r.text, r.literal, vars, budget);
        Span at = text.span(r.start, r.end);
        if (!r.quoted && !r.literal && x[1] == null && x[0].chars().anyMatch(c -> c == ' ' || c == '\t' || c == '\n')) {
            // an unquoted expansion is split into words, as sh does: torchrun $GPT_ARGS
            for (String part : x[0].trim().split("[ \t\n]+")) if (!part.isEmpty()) out.add(new Word(part, true, at));
            return;
        }
        out.add(new Word(x[0], x[1] == null, at));
    }

    /**
     * NAME=( elements ) or NAME+=( elements ): the array's words, each expanded where it is written.
     * An array whose elements add up to more than {@link #MAX_VALUE} characters is unknown (a doubling
     * ARGS=( "${ARGS[@]}" "${ARGS[@]}" ) stays bounded), and stays unknown through later appends. An append
     * adds to the array in place, its length kept beside it, so 200,000 {@code ARGS+=( --x )} lines cost
     * linear time; the assignment's value is the elements written there (array assignments are never exported).
     */
    private static Assignment array(ScalarText text, Raw r, Map<String, String> vars, Map<String, List<Word>> arrays, ShellState budget) {
        String head = r.text;
        boolean append = head.endsWith("+=");
        String name = head.substring(0, head.length() - (append ? 2 : 1));
        List<Word> written = new ArrayList<>();
        for (Raw e : r.elements) words(text, e, vars, arrays, budget, written);
        long size = 0;
        for (Word e : written) size += e.text().length() + 1;
        boolean unknown = append && (budget.unknownArrays.contains(name) || !arrays.containsKey(name) && vars.containsKey(name));
        List<Word> elements = append && arrays.containsKey(name) ? arrays.get(name) : new ArrayList<>();
        if (append && arrays.containsKey(name)) size += budget.arraySizes.getOrDefault(name, 0L);
        Span nameSpan = text.span(r.start, r.start + name.length());
        if (unknown || size > MAX_VALUE || budget.used > MAX_TOTAL) {
            arrays.remove(name);
            budget.arraySizes.remove(name);
            budget.unknownArrays.add(name);
            return new Assignment(name, new Word("", false, text.span(r.start, r.end)), false, nameSpan);
        }
        elements.addAll(written);
        arrays.put(name, elements);
        budget.arraySizes.put(name, size);
        budget.unknownArrays.remove(name);
        vars.remove(name);
        StringBuilder joined = new StringBuilder();
        boolean known = true;
        for (Word e : written) { if (joined.length() > 0) joined.append(' '); joined.append(e.text()); known &= e.known(); }
        return new Assignment(name, new Word(joined.toString(), known, text.span(r.start, r.end)), false, nameSpan);
    }

    public static Script ofWords(List<Word> words) {
        return new Script(List.of(new Command(List.of(), words, "")), Map.of());
    }

    private static Assignment assignment(ScalarText text, Raw r, Matcher m, Map<String, String> vars, boolean exported,
                                         ShellState budget) {
        String name = m.group(1);
        int valueStart = r.valueStart >= 0 ? r.valueStart : r.start + name.length() + 1;
        ShellExpansion.Trace t = new ShellExpansion.Trace(r.offsets(m.start(2)), false);
        String[] x = ShellExpansion.expand(m.group(2), r.literal, vars, budget, t);
        Word value = new Word(x[0], x[1] == null, text.span(valueStart, Math.max(valueStart, r.end)));
        if (x[1] != null) {
            // only partly known: its known parts, with those of the partly known variables it names, for a string run as a script
            t = new ShellExpansion.Trace(t.in, true);
            x = ShellExpansion.expand(m.group(2), r.literal, vars, budget, t);
        }
        budget.assign(name, value.known() ? value.text() : null);
        budget.traced(name, value.known() ? null : x[0], t.offsets(x[0].length()));
        return new Assignment(name, value, exported, text.span(r.start, r.start + name.length()));
    }

    // ------------------------------------------------------------------ expansion

    /** The longest value an expansion may produce; a longer one is unknown (V=$V$V doubling stays bounded). */
    static final int MAX_VALUE = ShellExpansion.MAX_VALUE;
    /** The most text the expansions of one script may produce in all; past it every expansion is unknown. */
    static final long MAX_TOTAL = ShellExpansion.MAX_TOTAL;

    /** {expanded, null} when every expansion is known, else {text, "unknown"}. */
    public static String[] expand(String s, boolean literal, Map<String, String> vars) {
        return ShellExpansion.expand(s, literal, vars, new ShellState(new LinkedHashMap<>(vars)), null);
    }

    static String[] expand(String s, boolean literal, Map<String, String> vars, ShellState budget) {
        return ShellExpansion.expand(s, literal, vars, budget, null);
    }

    /**
     * Variables the launcher sets when the script runs (Slurm's, PBS's, LSF's, Flux's, Open MPI's, PMI's and
     * PMIx's, torchrun's and torchelastic's, Kubeflow's PET_, SageMaker's SM_, Volcano's VC_, SkyPilot's, AWS
     * Batch's): a script's {@code ${SLURM_NNODES:-1}} is a fallback for running it by hand, not the job's size,
     * so it stays unknown unless the directives fix it.
     */
    public static boolean runtimeSet(String name) {
        for (String p : RUNTIME_PREFIXES) if (name.startsWith(p)) return true;
        return RUNTIME.contains(name);
    }

    private static final List<String> RUNTIME_PREFIXES = List.of("SLURM_", "PBS_", "LSB_", "LSF_", "FLUX_", "OMPI_",
            "PMI_", "PMIX_", "MPI_LOCALRANKID", "MV2_", "TORCHELASTIC_", "PET_", "SM_", "VC_", "SKYPILOT_", "AWS_BATCH_",
            "KUBEFLOW_", "COBALT_");

    private static final java.util.Set<String> RUNTIME = java.util.Set.of("WORLD_SIZE", "RANK", "LOCAL_RANK", "NODE_RANK",
            "LOCAL_WORLD_SIZE", "GROUP_RANK", "GROUP_WORLD_SIZE", "ROLE_RANK", "ROLE_WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT",
            "CUDA_VISIBLE_DEVICES", "NVIDIA_VISIBLE_DEVICES");

    /** Integer arithmetic of $((...)); null when unknown. See {@link ShellArithmetic}. */
    static Long arithmetic(String expr, Map<String, String> vars) {
        return ShellArithmetic.evaluate(expr, vars);
    }

    /** The lower-case base name of a program word: /usr/bin/mpirun → mpirun. */
    public static String program(String word) {
        String p = word.substring(word.lastIndexOf('/') + 1);
        return p.toLowerCase(Locale.ROOT);
    }
}
