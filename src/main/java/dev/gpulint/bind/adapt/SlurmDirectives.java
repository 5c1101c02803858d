package dev.gpulint.bind.adapt;

import dev.gpulint.bind.adapt.shell.Launchers;
import dev.gpulint.bind.adapt.shell.ScalarText;
import dev.gpulint.bind.adapt.shell.Shell.Word;
import dev.gpulint.spec.Specs.StatedKind;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code #SBATCH} directives of a Slurm batch script: read, as sbatch does, from the comment
 * lines before the first command. What they allocate is the job's size: {@code --nodes}/{@code -N},
 * GPUs per node ({@code --gpus-per-node=[type:]N}, {@code --gres=gpu[:type]:N}), GPUs in all
 * ({@code --gpus}/{@code -G}), tasks ({@code --ntasks-per-node}, {@code --ntasks}/{@code -n}) and
 * {@code --exclusive}. A range ({@code --nodes=2-4}) is unknown. Each value keeps its span.
 * <p>
 * sbatch gathers every directive's words, in the script's order, into one argument list and reads it with getopt_long
 * as it reads its command line ({@code _opt_batch_script}, then {@code _set_options}, SchedMD/slurm src/sbatch/opt.c),
 * and each option's setter replaces the value before it ({@code arg_set_nodes}, {@code arg_set_gres},
 * {@code arg_set_export}, the COMMON_STRING_OPTION / COMMON_INT_OPTION setters of src/common/slurm_opt.c: {@code xfree}
 * then set): so the LAST of a repeated option wins, for every option read here. The options that accumulate instead
 * ({@code --mail-type}, OR-ed into a mask; {@code -v}, counted) are none of those. A later {@code --gres} without a GPU
 * ({@code --gres=nvme:1}) replaces the earlier GPU request with none; a later value with a shell variable replaces the
 * earlier with a text gpulint cannot use (unknown). The command line, then the SBATCH_* variables, go over the script
 * ({@code process_options_second_pass}: script, {@code _opt_env}, then the command line); a batch script does not show
 * its sbatch line, so the directives are what gpulint reads.
 */
final class SlurmDirectives {
    Word nodes, gpusPerNode, gpus, tasksPerNode, tasks, jobName, gpusPerTask, tasksPerGpu;
    /** {@code --export}: which of the submitting environment the batch script gets, and what its srun steps pass on (LaunchEnvironment). */
    Word export;
    /** Options whose value holds a shell variable ($NUM_NODES): sbatch does not expand it. Each: the option and its value. */
    final java.util.List<Word[]> unexpanded = new java.util.ArrayList<>();
    /** Comments meant as directives that sbatch never reads (#SBTACH, # SBATCH): the sentinel and the options (SYN009). */
    final java.util.List<Word[]> misspelt = new java.util.ArrayList<>();
    /** How the GPUs per node are written, for messages: "#SBATCH --gres=gpu:8". */
    String gpusPerNodeWritten;
    boolean exclusive;
    /** The GPUs per node of the last --gpus-per-node and of the last --gres (null: none, or that --gres names no GPU), and
     *  which of the two options is written last: that one states the GPUs per node. */
    private Word gpusPerNodeOption, gresGpus;
    private String gresWritten;
    private boolean gresLast;

    private SlurmDirectives() {}

    static SlurmDirectives read(ScalarText text) {
        SlurmDirectives d = new SlurmDirectives();
        String s = text.value();
        int pos = 0;
        int lines = 0;
        while (pos < s.length() && lines++ < 100_000) {
            int nl = s.indexOf('\n', pos);
            int end = nl < 0 ? s.length() : nl;
            int i = pos;
            while (i < end && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) i++;
            if (i < end && s.charAt(i) != '#' && !s.substring(i, end).isBlank()) break;      // the first command ends them
            // sbatch reads the options right after the seven characters "#SBATCH" (#SBATCH--nodes=2 too: Slurm's opt.c)
            if (s.startsWith("#SBATCH", i) && i + 7 < end && (Character.isWhitespace(s.charAt(i + 7)) || s.charAt(i + 7) == '-')) {
                d.line(text, s, i + 7, end);
            } else if (d.misspelt.size() < MAX_UNEXPANDED) {
                Word[] m = MisspeltDirectives.at(text, s, i, end);
                if (m != null) d.misspelt.add(m);
            }
            pos = end + 1;
        }
        d.implied(text);
        return d;
    }

    /** One directive line's options, from {@code i} to {@code end}. */
    private void line(ScalarText text, String s, int i, int end) {
        String pendingOption = null;
        while (i < end) {
            while (i < end && Character.isWhitespace(s.charAt(i))) i++;
            if (i >= end || s.charAt(i) == '#') return;
            int start = i;
            while (i < end && !Character.isWhitespace(s.charAt(i))) i++;
            String tok = s.substring(start, i);
            if (pendingOption != null) {
                option(text, pendingOption, tok, start);
                pendingOption = null;
                continue;
            }
            int eq = tok.indexOf('=');
            if (tok.startsWith("--") && eq > 0) {
                option(text, tok.substring(0, eq), tok.substring(eq + 1), start + eq + 1);
            } else if (tok.equals("--exclusive")) {
                exclusive = true;
            } else if (tok.startsWith("--") || tok.length() == 2 && tok.charAt(0) == '-') {
                pendingOption = tok;
            } else if (tok.length() > 2 && tok.charAt(0) == '-' && "NGnJ".indexOf(tok.charAt(1)) >= 0) {
                option(text, tok.substring(0, 2), tok.substring(2), start + 2);
            }
        }
    }

    private void option(ScalarText text, String option, String value, int at) {
        Word w = new Word(value, true, text.span(at, at + value.length()));
        boolean unexpanded = value.indexOf('$') >= 0;
        if (unexpanded && this.unexpanded.size() < MAX_UNEXPANDED) this.unexpanded.add(new Word[] {new Word(option, true, w.span()), w});
        // the value sbatch sees is the text itself: no number gpulint can use, and it replaces the one before (last wins)
        Word v = unexpanded ? null : w;
        switch (option) {
            case "--nodes", "-N" -> nodes = v;
            case "--ntasks-per-node" -> tasksPerNode = v;
            case "--ntasks", "-n" -> tasks = v;
            case "--job-name", "-J" -> jobName = v;
            case "--export" -> export = unexpanded ? new Word(value, false, w.span()) : w;
            case "--gpus", "-G" -> gpus = v == null ? null : count(text, value, at);
            case "--gpus-per-task" -> gpusPerTask = v == null ? null : count(text, value, at);
            case "--ntasks-per-gpu" -> tasksPerGpu = v;
            case "--gpus-per-node" -> {
                gpusPerNodeOption = v == null ? null : count(text, value, at);
                gresLast = false;
            }
            case "--gres" -> {
                gresGpus = null;
                gresWritten = null;
                gresLast = true;
                int from = 0;
                for (String item : unexpanded ? new String[0] : value.split(",", 16)) {
                    if (gresGpus == null && (item.equals("gpu") || item.startsWith("gpu:"))) {
                        String n = item.replaceFirst("\\(.*$", "");
                        gresGpus = item.equals("gpu") ? new Word("1", true, w.span()) : count(text, n, at + from);
                        gresWritten = "#SBATCH --gres=" + item;
                    }
                    from += item.length() + 1;
                }
            }
            default -> { }
        }
    }

    /** A factor below this times a 12-digit count cannot overflow a long. */
    private static final long MAX_COUNT = 1_000_000;

    /** The most unexpanded directives kept per script. */
    static final int MAX_UNEXPANDED = 64;

    /**
     * GPUs per node the directives imply when none states them: {@code --gpus-per-task} × tasks per node
     * ({@code --ntasks-per-node}, or {@code --ntasks} ÷ {@code --nodes}), or a total {@code --gpus} ÷ {@code --nodes}.
     * And tasks per node implied by {@code --ntasks-per-gpu} × GPUs per node. Each keeps the span of the option it
     * comes from; how it is written goes to {@link #gpusPerNodeWritten}.
     */
    private void implied(ScalarText text) {
        // the option written last of --gres and --gpus-per-node states the GPUs per node, else the other one
        boolean gres = gresGpus != null && (gresLast || gpusPerNodeOption == null);
        if (gres) { gpusPerNode = gresGpus; gpusPerNodeWritten = gresWritten; }
        else if (gpusPerNodeOption != null) { gpusPerNode = gpusPerNodeOption; gpusPerNodeWritten = "#SBATCH --gpus-per-node"; }
        long n = Launchers.number(nodes), t = Launchers.number(tasksPerNode), all = Launchers.number(tasks);
        if (t < 0 && all > 0 && n > 0 && all % n == 0) t = all / n;
        if (gpusPerNode == null && Launchers.number(gpusPerTask) > 0 && t > 0 && t < MAX_COUNT) {
            gpusPerNode = new Word(String.valueOf(Launchers.number(gpusPerTask) * t), true, gpusPerTask.span());
            gpusPerNodeWritten = "#SBATCH --gpus-per-task × " + (tasksPerNode != null ? "--ntasks-per-node" : "--ntasks ÷ --nodes");
        }
        if (gpusPerNode == null && Launchers.number(gpus) > 0 && n > 0 && Launchers.number(gpus) % n == 0) {
            gpusPerNode = new Word(String.valueOf(Launchers.number(gpus) / n), true, gpus.span());
            gpusPerNodeWritten = "#SBATCH --gpus ÷ --nodes";
        }
        if (tasksPerNode == null && Launchers.number(tasksPerGpu) > 0 && Launchers.number(gpusPerNode) > 0
                && Launchers.number(gpusPerNode) < MAX_COUNT) {
            tasksPerNode = new Word(String.valueOf(Launchers.number(tasksPerGpu) * Launchers.number(gpusPerNode)), true, tasksPerGpu.span());
        }
    }

    /** The count of [type:]N, placed at N. */
    private static Word count(ScalarText text, String value, int at) {
        int colon = value.lastIndexOf(':');
        String n = value.substring(colon + 1);
        return new Word(n, true, text.span(at + colon + 1, at + value.length()));
    }

    /** The variables Slurm sets for the script that these directives fix: SLURM_NNODES, SLURM_GPUS_PER_NODE... */
    Map<String, String> environment() {
        Map<String, String> env = new LinkedHashMap<>();
        long n = Launchers.number(nodes), g = Launchers.number(gpusPerNode), t = Launchers.number(tasksPerNode);
        if (n >= 0) { env.put("SLURM_NNODES", String.valueOf(n)); env.put("SLURM_JOB_NUM_NODES", String.valueOf(n)); }
        if (g >= 0) { env.put("SLURM_GPUS_PER_NODE", String.valueOf(g)); env.put("SLURM_GPUS_ON_NODE", String.valueOf(g)); }
        if (t >= 0) env.put("SLURM_NTASKS_PER_NODE", String.valueOf(t));
        long tasksAll = Launchers.number(tasks);
        if (tasksAll < 0 && n >= 0 && t >= 0) tasksAll = n * t;
        if (tasksAll >= 0) env.put("SLURM_NTASKS", String.valueOf(tasksAll));
        return env;
    }

    /** The allocation's statements: nodes, GPUs per node and in all, as the pods' resources are for Kubernetes. */
    void state(JobDraft j) {
        if (nodes != null) j.state("nodes", Launchers.number(nodes), "#SBATCH --nodes", StatedKind.RESOURCE, nodes.span());
        if (gpusPerNode != null) j.state("per_node", Launchers.number(gpusPerNode), gpusPerNodeWritten, StatedKind.RESOURCE, gpusPerNode.span());
        if (gpus != null) j.state("world", Launchers.number(gpus), "#SBATCH --gpus", StatedKind.RESOURCE, gpus.span());
        else if (Launchers.number(nodes) > 0 && Launchers.number(gpusPerNode) > 0) {
            j.state("world", Launchers.number(nodes) * Launchers.number(gpusPerNode), "#SBATCH --nodes × " + gpusPerNodeWritten.substring(8),
                    StatedKind.RESOURCE, nodes.span());
        }
    }
}
