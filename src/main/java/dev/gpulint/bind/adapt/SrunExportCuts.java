package dev.gpulint.bind.adapt;

import dev.gpulint.bind.adapt.shell.Launchers;
import dev.gpulint.bind.adapt.shell.Shell;
import dev.gpulint.bind.adapt.shell.SrunExport;
import dev.gpulint.bind.adapt.shell.SrunOptions;
import dev.gpulint.core.Finding;
import dev.gpulint.core.Level;
import java.util.ArrayList;
import java.util.List;

/**
 * SYN011: an srun --export value written with a comma, which srun ends there. srun cuts its list at every comma outside
 * a pair of quotes it sees itself (SrunExport.read, as Slurm's _build_user_env, SchedMD/slurm src/srun/launch.c), so
 * {@code --export=ALL,NCCL_IB_HCA=mlx5_0,mlx5_1} gives the tasks NCCL_IB_HCA=mlx5_0, and {@code mlx5_1} is read as the
 * name of a variable to pass on from srun's own environment. Every srun of a script is checked (a helper step's list is
 * cut as the launch's is); only srun's last --export counts (getopt), and a list gpulint cannot read says nothing. At most
 * {@link #MOST} findings a script.
 */
final class SrunExportCuts {
    private SrunExportCuts() {}

    /** The most findings one script gets (each srun's list may cut several values; the input bounds the rest). */
    static final int MOST = 20;

    /**
     * The findings of a script's srun --export lists that cut a value, in the script's order, then those of its
     * {@code #SBATCH --export} ({@code sbatchExport}, null when none): sbatch cuts that list with the same loop
     * ({@code _find_quote_token} in {@code _env_merge_filter}, SchedMD/slurm src/sbatch/sbatch.c), and the script's srun
     * steps inherit it as their list (LaunchEnvironment.srunExport's {@code stepExport}), so the job's value is cut.
     */
    static List<Finding> of(Shell.Script script, Shell.Word sbatchExport, String format, String jobName) {
        List<Finding> out = new ArrayList<>();
        for (Shell.Command c : script.commands()) command(c.words(), format, jobName, out);
        // SLURM_EXPORT_ENV, which srun reads as --export where none is written ("SLURM_EXPORT_ENV: Same as --export",
        // srun(1) INPUT ENVIRONMENT VARIABLES; LaunchEnvironment.srunExport cuts it as SrunExport.read does)
        for (Shell.Assignment a : script.assignments()) {
            if (!a.exported() || !a.name().equals("SLURM_EXPORT_ENV") || a.value() == null) continue;
            SrunExport.ExportList e = SrunExport.read(a.value());
            for (SrunExport.Cut cut : e.cut()) {
                if (out.size() < MOST) out.add(finding(format, jobName, cut, SLURM_EXPORT_ENV));
            }
            for (Launchers.EnvSet q : e.quoted()) {
                if (out.size() < MOST) out.add(quoted(format, jobName, q, SLURM_EXPORT_ENV));
            }
        }
        if (sbatchExport != null) {
            for (SrunExport.Cut cut : SrunExport.read(sbatchExport).cut()) {
                if (out.size() < MOST) out.add(finding(format, jobName, cut, SBATCH));
            }
        }
        return out;
    }

    /**
     * The findings of the srun lines of one command's words: a script's command, or a container's {@code command:} and
     * {@code args:} list (Kubernetes runs the items as the program's argv, no shell between: each item is one word, placed
     * at the list item, so {@code - --export=ALL,NCCL_IB_HCA=mlx5_0,mlx5_1} is srun's list as the item writes it).
     */
    static List<Finding> of(List<Shell.Word> words, String format, String jobName) {
        List<Finding> out = new ArrayList<>();
        command(words, format, jobName, out);
        return out;
    }

    private static void command(List<Shell.Word> w, String format, String jobName, List<Finding> out) {
        for (int i = 0; i < w.size() && out.size() < MOST; i++) {
            if (!w.get(i).known() || !Shell.program(w.get(i).text()).equals("srun")) continue;
            SrunOptions.Parsed p = SrunOptions.read(w, i + 1);
            Shell.Word list = p.last("export");
            if (list != null) {
                SrunExport.ExportList e = SrunExport.read(list);
                for (SrunExport.Cut cut : e.cut()) {
                    if (out.size() < MOST) out.add(finding(format, jobName, cut));
                }
                for (Launchers.EnvSet q : e.quoted()) {
                    if (out.size() < MOST) out.add(quoted(format, jobName, q, SRUN));
                }
            }
            i = p.program() - 1;                         // the program's own words are not srun's
        }
    }

    /**
     * A NAME=value of srun's list whose value keeps quote characters: srun drops a pair only around a whole entry
     * (find_quote_token), so the tasks get the quotes as part of the value. (The #SBATCH --export is not checked here:
     * sbatch's _get_argument takes a directive word's quotes off first, as SlurmDirectives.arguments does, so only quotes
     * escaped or nested in the other kind reach its list.)
     */
    private static Finding quoted(String format, String jobName, Launchers.EnvSet q, Where where) {
        String name = q.name(), value = q.value().text(), bare = value.replace("\"", "").replace("'", "");
        String list = where == SLURM_EXPORT_ENV ? "SLURM_EXPORT_ENV" : "--export";
        String message = "srun keeps the quote characters inside an entry of its " + list + " list (find_quote_token takes a pair off"
                + " only around a whole entry, Slurm's _build_user_env), so " + name + "=" + value + " gives the tasks " + name
                + " with the value " + value + ", quotes included, which a program reading it takes as part of the value;"
                + " quote the whole entry ('\"" + name + "=" + bare + "\"'), or export " + name + "=" + bare + " "
                + String.format(where.fix(), name);
        return new Finding("SYN011", Level.WARNING, q.value().span(), message, List.of(),
                format + ":" + jobName + "/" + where.key() + " " + name + " quoted");
    }

    /** Which list a cut is in: how the message names it, who reads the rest as a name, and where the fix lists the name. */
    private record Where(String cuts, String reader, String sources, String fix, String key) {}

    private static final Where SRUN = new Where("srun --export cuts its list", "srun", "Slurm's _build_user_env",
            "before srun and list the name alone (--export=ALL, or %s in the list)", "srun --export");
    private static final Where SLURM_EXPORT_ENV = new Where("srun reads SLURM_EXPORT_ENV as its --export list and cuts it", "srun",
            "Slurm's _build_user_env", "before srun and list the name alone (--export=ALL, or %s in the list)", "srun --export");
    private static final Where SBATCH = new Where("#SBATCH --export cuts its list (sbatch's, and that of every srun step of the script,"
            + " which inherits it)", "sbatch", "Slurm's _env_merge_filter and _build_user_env",
            "in the script before srun and list the name alone (#SBATCH --export=ALL, or %s in the list)", "#SBATCH --export");

    private static Finding finding(String format, String jobName, SrunExport.Cut cut) {
        return finding(format, jobName, cut, SRUN);
    }

    private static Finding finding(String format, String jobName, SrunExport.Cut cut, Where where) {
        String name = cut.set().name(), value = cut.set().value().text(), rest = cut.rest().text();
        boolean one = !rest.contains(",");
        String message = where.cuts() + " at every comma, so " + name + "=" + value + "," + rest + " gives the tasks "
                + name + "=" + value + " only, and " + where.reader() + " reads " + rest + " as "
                + (one ? "the name of a variable" : "names of variables") + " to pass on from its own environment ("
                + where.sources() + "): the rest of the value is lost without a warning; export "
                + name + "=" + value + "," + rest + " " + String.format(where.fix(), name);
        return new Finding("SYN011", Level.WARNING, cut.rest().span(), message, List.of(),
                format + ":" + jobName + "/" + where.key() + " " + name);
    }
}
