package dev.gpulint.bind.adapt.shell;

import dev.gpulint.bind.adapt.shell.Launchers.EnvSet;
import dev.gpulint.bind.adapt.shell.Launchers.Launch;
import dev.gpulint.bind.adapt.shell.Shell.Word;
import java.util.List;

/**
 * The variables Slurm's {@code srun --export=ALL,NCCL_IB_HCA=mlx5,NCCL_DEBUG=INFO} sets for the tasks it starts: a
 * comma-separated list whose entries are NAME=value (set for the tasks) or NAME (passed on with the value it has), and
 * the keywords ALL and NONE, in any case (srun(1), --export; srun's _build_user_env, SchedMD/slurm
 * src/srun/launch.c: each entry in order, NONE ends the list, so {@code --export=NONE,NAME=value} sets
 * nothing; NIL is no keyword of srun's and names no variable). Each NAME=value is an {@link EnvSet} placed at its own value,
 * as {@code mpirun -x NAME=value} is. With ALL the tasks get the caller's whole environment merged over the list
 * (env_array_merge overwrites): a NAME=value of the list reaches them only when the caller does not export NAME
 * ("If ALL is specified, then all user environment variables will be loaded and will take precedence over any explicitly
 * given environment variables", https://slurm.schedmd.com/srun.html#OPT_export; LaunchEnvironment applies it at the launch).
 * A value followed by an entry with no '=' may go on past the comma ({@code NCCL_IB_HCA=mlx5_0,mlx5_1}: Slurm's reading of
 * such a list is not the shell's), so it is unknown (its name is kept, no rule reasons on its value), and the entries with
 * no '=' after it are not taken for names. Only srun's last --export counts (getopt: a later option replaces an earlier).
 */
public final class SrunExport {
    private static final java.util.regex.Pattern NAME = java.util.regex.Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private SrunExport() {}

    /** An --export list as srun reads it: whether it holds ALL (before any NONE), the names it passes on, the values it sets. */
    public record ExportList(boolean all, List<Word> passed, List<EnvSet> sets) {}

    /** srun's options from w[i] up to the program it starts ({@link SrunOptions}): reads the last --export list among them. */
    static void scan(List<Word> w, int i, Launch l) {
        Word list = SrunOptions.read(w, i).last("export");
        if (list == null) return;
        ExportList e = read(list);
        l.forwarded.addAll(e.passed());
        l.env.addAll(e.sets());
    }

    /** The entries of an --export list; an unknown word reads as an empty list that holds ALL (nothing can be said of it). */
    public static ExportList read(Word x) {
        List<Word> passed = new java.util.ArrayList<>();
        List<EnvSet> sets = new java.util.ArrayList<>();
        if (!x.known()) return new ExportList(true, passed, sets);
        String t = x.text();
        int start = 0;
        boolean afterValue = false, all = false;
        while (start <= t.length()) {
            int comma = t.indexOf(',', start);
            int end = comma < 0 ? t.length() : comma;
            String entry = t.substring(start, end);
            int eq = entry.indexOf('=');
            String name = eq < 0 ? entry : entry.substring(0, eq);
            if (eq < 0 && name.equalsIgnoreCase("NONE")) break;
            if (eq < 0 && name.equalsIgnoreCase("ALL")) {
                all = true;
                afterValue = false;
            } else if (NAME.matcher(name).matches() && !(eq < 0 && afterValue)) {
                if (eq < 0) {
                    passed.add(WordParts.part(x, start, end));
                } else {
                    String next = comma < 0 ? "" : t.substring(comma + 1).split(",", 2)[0];
                    boolean goesOn = comma >= 0 && !next.contains("=") && !next.equalsIgnoreCase("ALL") && !next.equalsIgnoreCase("NONE");
                    Word v = WordParts.part(x, start + eq + 1, end);
                    sets.add(new EnvSet(name, new Word(v.text(), !goesOn, v.span()), "srun --export", WordParts.part(x, start, start + eq).span()));
                    afterValue = true;
                }
            }
            if (comma < 0) break;
            start = comma + 1;
        }
        return new ExportList(all, passed, sets);
    }
}
