package dev.gpulint.bind.adapt;

import dev.gpulint.bind.adapt.shell.Shell;
import dev.gpulint.bind.adapt.shell.SrunExport;
import dev.gpulint.bind.adapt.shell.SrunOptions;
import dev.gpulint.core.Span;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The environment one command of a script runs with, as the shell gives it: the script's commands before it in order,
 * the last {@code export NAME=value} of a name winning, {@code NAME=value} alone updating a name already exported,
 * {@code unset NAME} removing it, and {@code NAME=value} before the command itself (its own environment) over all of them,
 * then {@code env -i}, {@code env -u NAME} and {@code env NAME=value} when the command is run by env;
 * a {@code NAME=value} before another command is that command's only, and what comes after the command does not reach it,
 * nor what a child shell ({@code bash -c "export ..."}, {@code ( export ...; ... )}) set unless the command runs in that child.
 * This is the one home of "the environment a launch gets": a launch script's {@link JobDraft#env} is bound as its training
 * launch gets it ({@link #bind}: the NCCL rules), each launch that names the attention backend is judged with its own
 * (AttentionBackends: PAR018), and a script run by a Slurm step starts with its caller's at the call (ScriptLinks), srun's
 * --export applied.
 */
final class LaunchEnvironment {
    private LaunchEnvironment() {}

    /** The index of the first command with a word whose span covers {@code at}'s start, or -1. */
    static int commandAt(Shell.Script script, Span at) {
        if (at == null) return -1;
        List<Shell.Command> commands = script.commands();
        for (int c = 0; c < commands.size(); c++) {
            for (Shell.Word w : commands.get(c).words()) {
                Span s = w.span();
                if (s != null && s.file().equals(at.file()) && s.covers(at.startLine(), at.startColumn())) return c;
            }
        }
        return -1;
    }

    /**
     * {@code env -i} / {@code env -} / {@code --ignore-environment} starts the program with no variable but env's own
     * NAME=value; {@code env -u NAME} / {@code --unset=NAME} removes one (GNU coreutils env(1)).
     */
    private static void envOptions(List<Shell.Word> words, Map<String, Shell.Assignment> exported, java.util.Set<String> started) {
        for (int k = 1; k < words.size(); k++) {
            Shell.Word w = words.get(k);
            if (!w.known()) return;
            String t = w.text();
            if (t.equals("-i") || t.equals("-") || t.equals("--ignore-environment")) {
                for (String name : started) exported.put(name, null);
                exported.replaceAll((name, a) -> null);
            } else if ((t.equals("-u") || t.equals("--unset")) && k + 1 < words.size()) {
                exported.put(words.get(++k).text(), null);
            } else if (t.startsWith("--unset=")) {
                exported.put(t.substring("--unset=".length()), null);
            } else if (t.startsWith("-u") && t.length() > 2) {
                exported.put(t.substring(2), null);
            } else if (t.equals("-C") || t.equals("--chdir")) {
                k++;
            } else if (!t.startsWith("-")) {
                return;
            }
        }
    }

    /**
     * The names the script sets or unsets before command {@code index} (or in its own prefix), each with the exported
     * assignment whose value the command sees: null where the script unset it or never exported it, the assignment's value
     * null or not known where gpulint cannot tell it ({@code export NAME} of a value not written in the script, an
     * expansion). A name absent is one the script leaves as its environment had it; {@code started} names that
     * environment's variables (a plain NAME=value changes those, and the names the script exported).
     */
    static Map<String, Shell.Assignment> at(Shell.Script script, int index, java.util.Set<String> started, Shell.Word stepExport) {
        Map<String, Shell.Assignment> exported = new HashMap<>(), plain = new HashMap<>();
        List<Shell.Command> commands = script.commands();
        // a command in a child shell (bash -c "...") changes the environment of the commands after it in that shell only
        Shell.Command launch = index >= 0 && index < commands.size() ? commands.get(index) : null;
        for (int c = 0; c < index && c < commands.size(); c++) {
            Shell.Command cmd = commands.get(c);
            if (launch != null && !launch.inside(cmd.shell())) continue;
            List<Shell.Word> words = cmd.words();
            if (!words.isEmpty() && words.get(0).is("unset")) {
                boolean functions = false;
                for (int k = 1; k < words.size(); k++) {
                    String t = words.get(k).text();
                    if (t.equals("-f")) functions = true;
                    else if (!t.startsWith("-") && !functions) { exported.put(t, null); plain.remove(t); }
                }
                continue;
            }
            if (!words.isEmpty()) continue;              // NAME=value before another command: that command's own environment
            for (Shell.Assignment a : cmd.assignments()) {
                if (a.exported()) {
                    // export NAME (no value) exports the shell variable as it stands
                    Shell.Assignment v = a.value() == null ? plain.get(a.name()) : a;
                    exported.put(a.name(), v != null ? v : a);
                } else {
                    plain.put(a.name(), a);
                    // an exported name, or one of the environment the script starts with (not unset since), takes the value
                    if (exported.get(a.name()) != null || !exported.containsKey(a.name()) && started.contains(a.name())) {
                        exported.put(a.name(), a);
                    }
                }
            }
        }
        if (index >= 0 && index < commands.size()) {
            List<Shell.Word> words = launch.words();
            Span env = !words.isEmpty() && words.get(0).is("env") ? words.get(0).span() : null;
            // NAME=value before env, then env's -i (no variable but its own) and -u NAME, then env's NAME=value
            for (Shell.Assignment a : launch.assignments()) {
                if (a.exported() && (env == null || a.nameSpan().compareTo(env) < 0)) exported.put(a.name(), a);
            }
            if (env != null) {
                envOptions(words, exported, started);
                for (Shell.Assignment a : launch.assignments()) if (a.exported() && a.nameSpan().compareTo(env) > 0) exported.put(a.name(), a);
            }
            srunExport(words, exported, started, stepExport);
        }
        return exported;
    }

    /**
     * The environment srun gives the tasks of a command it runs (srun(1), --export, https://slurm.schedmd.com/srun.html#OPT_export;
     * srun's _build_user_env, SchedMD/slurm src/srun/launch.c): with no --export, srun takes SLURM_EXPORT_ENV as the script
     * exported it before the command, else {@code stepExport}: the batch script's {@code #SBATCH --export}, which its steps
     * inherit ("To avoid steps inheriting environment export settings (e.g. NONE) from sbatch command, the environment
     * variable SLURM_EXPORT_ENV should be set to ALL in the job script", https://slurm.schedmd.com/sbatch.html#OPT_export_3);
     * neither: ALL, the caller's environment as it is. A list without ALL ({@code --export=NONE}, {@code --export=NAME,OTHER=value})
     * starts the tasks with none of the caller's variables but the names it passes on and the values it sets ("the
     * propagated environment will only contain the variable EDITOR from the user's environment, SLURM_* environment variables,
     * and ARG1=test"); with ALL, a NAME=value of the list reaches the tasks only when the caller does not export NAME ("If ALL
     * is specified, then all user environment variables will be loaded and will take precedence over any explicitly given
     * environment variables"). NONE ends the list ({@link SrunExport#read}). The options end at srun's program
     * ({@link SrunOptions}). A list gpulint cannot read changes nothing.
     */
    private static void srunExport(List<Shell.Word> words, Map<String, Shell.Assignment> exported, java.util.Set<String> started,
                                   Shell.Word stepExport) {
        int s = srunAt(words);
        if (s < 0) return;
        Shell.Word list = SrunOptions.read(words, s + 1).last("export");
        if (list == null) {
            Shell.Assignment e = exported.get("SLURM_EXPORT_ENV");
            if (e != null) list = e.value();
            else if (!exported.containsKey("SLURM_EXPORT_ENV") && !started.contains("SLURM_EXPORT_ENV")) list = stepExport;
        }
        if (list == null || !list.known()) return;
        SrunExport.ExportList e = SrunExport.read(list);
        if (!e.all()) {
            java.util.Set<String> passed = new java.util.HashSet<>();
            for (Shell.Word w : e.passed()) passed.add(w.text());
            for (String name : started) if (!passed.contains(name)) exported.put(name, null);
            exported.replaceAll((name, a) -> passed.contains(name) ? a : null);
        }
        for (dev.gpulint.bind.adapt.shell.Launchers.EnvSet v : e.sets()) {
            // with ALL, or NAME=V then NAME alone (recalled: getenv(NAME) overwrites V where srun's environment has NAME)
            boolean recalled = e.recalled().contains(v.name());
            boolean callerHas = exported.get(v.name()) != null || !exported.containsKey(v.name()) && started.contains(v.name());
            if ((e.all() || recalled) && callerHas) continue;
            // NAME=V,NAME without ALL, and the script says nothing of NAME: srun's caller (the submitting shell) decides
            boolean unknown = recalled && !e.all() && !exported.containsKey(v.name());
            Shell.Word value = unknown ? new Shell.Word(v.value().text(), false, v.value().span()) : v.value();
            exported.put(v.name(), new Shell.Assignment(v.name(), value, true, v.nameSpan()));
        }
    }

    /** The index of the srun that runs a command ({@code srun ...}, {@code env A=1 srun ...}: among its first words), or -1. */
    private static int srunAt(List<Shell.Word> words) {
        for (int k = 0; k < words.size() && k < 8; k++) if (words.get(k).known() && Shell.program(words.get(k).text()).equals("srun")) return k;
        return -1;
    }

    /**
     * The --export list written on the srun of a script's training launch ({@link #launchCommand}), or null: the only srun
     * list that sets the training job's environment (a helper step's, {@code srun --ntasks-per-node=1 --export=... mkdir},
     * sets its own tasks').
     */
    private static Shell.Word launchExport(Shell.Script script) {
        int at = launchCommand(script);
        if (at < 0) return null;
        List<Shell.Word> words = script.commands().get(at).words();
        int s = srunAt(words);
        return s < 0 ? null : SrunOptions.read(words, s + 1).last("export");
    }

    /**
     * The values the training launch's own srun --export list sets, as statements of the job's variables (CONSIST005
     * compares them; {@link #bind} decides which value the ranks get); a helper step's list states nothing of the job.
     * Returns whether the script has a training launch.
     */
    static boolean stateLaunchExport(JobDraft j, Shell.Script script) {
        if (launchCommand(script) < 0) return false;
        Shell.Word list = launchExport(script);
        if (list == null) return true;
        for (dev.gpulint.bind.adapt.shell.Launchers.EnvSet e : SrunExport.read(list).sets()) {
            if (e.value().known()) j.env(e.name(), e.value().text(), e.value().span(), e.kind().where());
        }
        return true;
    }

    /**
     * The values an MPI launcher's command line gives its ranks: Open MPI's {@code mpirun -x NAME=value} ("Export the
     * specified environment variables to the remote nodes before executing the program ... new variable names specified with
     * corresponding values", mpirun(1), https://www.open-mpi.org/doc/v1.6/man1/orterun.1.php) and MPICH / Intel MPI's
     * {@code mpiexec -env|-genv NAME value} ("if there are ... variables that are different from what is stored in your
     * environment, you can use -env or -genv", https://www.intel.com/content/www/us/en/docs/onemkl/developer-guide-linux/2025-1/setting-environment-variables-on-a-cluster.html)
     * go over the environment mpirun starts with: the script's exports, a Kubernetes container's env (an MPIJob's workers'
     * too, where the launcher's ranks run). Each such variable is bound with the launcher's value, the first launcher
     * statement of a name winning (as {@link JobDraft#env} binds); one whose value gpulint cannot read ({@code -x NAME=$V})
     * is not bound: the ranks get that value, not the environment's. Of two statements of one name on a command, the
     * launcher's last wins (Launchers.mpiSet keeps only it). srun --export is not one of these ({@link #srunExport}: with
     * ALL the caller's value wins): the sets are told apart by their {@link dev.gpulint.bind.adapt.shell.Launchers.Kind}.
     * {@code done} holds the names a launcher of the job set.
     */
    static void launcherSets(JobDraft j, List<dev.gpulint.bind.adapt.shell.Launchers.EnvSet> sets, java.util.Set<String> done) {
        for (dev.gpulint.bind.adapt.shell.Launchers.EnvSet e : sets) {
            if (!e.kind().mpi() || !done.add(e.name())) continue;
            if (!e.value().known()) {
                j.env.remove(e.name());
                j.launchDecided.remove(e.name());
                continue;
            }
            if (!j.env.containsKey(e.name()) && j.env.size() >= dev.gpulint.spec.Specs.MAX_ENV) continue;
            j.env.put(e.name(), new dev.gpulint.spec.Located<>(e.value().text(), e.value().span()));
            j.launchDecided.add(e.name());
        }
    }

    /** The programs that start a training launch (LaunchScriptAdapter's), and Python's module form of torchrun. */
    private static final java.util.Set<String> LAUNCHERS = java.util.Set.of("torchrun", "hyperpodrun", "deepspeed", "mpirun", "mpiexec",
            "accelerate");

    /**
     * The index of a script's training launch: its first command that runs torchrun, deepspeed, mpirun, accelerate or
     * {@code python -m torch.distributed.*}, else its first with one of Megatron-LM's flags or {@code srun python}, else
     * its first {@code srun} of a script ({@code srun bash train.sh}); -1 when none (a helper {@code srun ... mlnx_qos}
     * before the launch is not it).
     */
    static int launchCommand(Shell.Script script) {
        List<Shell.Command> commands = script.commands();
        int flags = -1, step = -1;
        for (int c = 0; c < commands.size(); c++) {
            boolean srun = false;
            for (Shell.Word w : commands.get(c).words()) {
                if (!w.known()) continue;
                String t = w.text(), prog = Shell.program(t);
                if (LAUNCHERS.contains(prog) || t.startsWith("torch.distributed.")) return c;
                if (flags < 0 && (dev.gpulint.bind.adapt.shell.Launchers.MEGATRON_FLAGS.contains(t) || srun && prog.startsWith("python"))) flags = c;
                if (step < 0 && srun && (t.endsWith(".sh") || t.endsWith(".bash"))) step = c;
                srun |= prog.equals("srun");
            }
        }
        return flags >= 0 ? flags : step;
    }

    /**
     * A launch script's variables as its training launch gets them ({@link #launchCommand}, {@link #at}): a variable the
     * script exports is bound with the value in effect there (the last export before it, its own NAME=value), and not
     * bound where the launch does not get it (unset, env -u, env -i, exported after the launch or in a ( ... ) group or
     * bash -c string that ended, a NAME=value before another command, srun --export without ALL) or gets a value gpulint
     * cannot read; a value the launch's srun --export list sets is bound where it reaches the tasks (no ALL, or ALL and the
     * caller does not export the name). {@code j.env} bound each variable's first statement (every statement stays in
     * {@code j.stated} for CONSIST005); the NCCL rules and PAR018 read this one environment. A variable another launcher sets
     * itself ({@code keep}: mpirun -x; or one an earlier container of the job already bound) stays as bound. {@code base} is the environment the script starts with (a Kubernetes container's {@code env}, SkyPilot's
     * {@code envs}; none for a batch script): a name of it the script leaves alone keeps its bound value, one the script
     * changes before the launch ({@code export NCCL_IB_DISABLE=0} over the container's "1", a plain NAME=value, an
     * {@code unset}) is bound as the launch gets it, and one the script exports only after the launch keeps the base's.
     * No change when no launch is found; returns whether one was.
     */
    static boolean bind(JobDraft j, Shell.Script script, java.util.Set<String> keep, Shell.Word stepExport,
                        Map<String, Shell.Word> base) {
        int at = launchCommand(script);
        if (at < 0) return false;
        Map<String, Shell.Assignment> env = at(script, at, base.keySet(), stepExport);
        // the names the script states (in its order, then the base's): a HashMap's order would make the MAX_ENV cut vary
        java.util.Set<String> names = new java.util.LinkedHashSet<>();
        for (Shell.Assignment a : script.assignments()) if (a.exported() || env.containsKey(a.name())) names.add(a.name());
        names.addAll(base.keySet());
        // the values an srun --export list (or the SLURM_EXPORT_ENV / #SBATCH --export it reads) sets, in a fixed order
        env.keySet().stream().filter(n -> !names.contains(n)).sorted().forEach(names::add);
        for (String name : names) {
            if (keep.contains(name)) continue;
            if (!env.containsKey(name)) {
                if (!base.containsKey(name)) j.env.remove(name);  // exported only after the launch, or where it does not reach
                if (!base.containsKey(name) || base.get(name).known()) j.launchDecided.add(name);
                continue;                                           // the base's, as the container or task states it
            }
            Shell.Assignment a = env.get(name);
            if (a == null) {
                j.env.remove(name);                                 // unset, env -u, srun --export without the name: none
                j.launchDecided.add(name);
            } else if (a.value() == null || !a.value().known()) {
                j.env.remove(name);                                 // a value gpulint cannot read: not decided
                j.launchDecided.remove(name);
            } else if (j.env.containsKey(name) || j.env.size() < dev.gpulint.spec.Specs.MAX_ENV) {
                j.env.put(name, new dev.gpulint.spec.Located<>(a.value().text(), a.value().span()));
                j.launchDecided.add(name);
            }
        }
        return true;
    }
}
