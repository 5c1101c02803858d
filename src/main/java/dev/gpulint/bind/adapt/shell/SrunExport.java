package dev.gpulint.bind.adapt.shell;

import dev.gpulint.bind.adapt.shell.Launchers.EnvSet;
import dev.gpulint.bind.adapt.shell.Launchers.Launch;
import dev.gpulint.bind.adapt.shell.Shell.Word;
import java.util.List;
import java.util.Set;

/**
 * The variables Slurm's {@code srun --export=ALL,NCCL_IB_HCA=mlx5,NCCL_DEBUG=INFO} sets for the tasks it starts: a
 * comma-separated list whose entries are NAME=value (set for the tasks) or NAME (passed on with the value it has), and
 * the keywords ALL, NONE and NIL (which environment the tasks start from; srun(1), --export). Each NAME=value is an
 * {@link EnvSet} placed at its own value, as {@code mpirun -x NAME=value} is. A value followed by an entry with no '='
 * may go on past the comma ({@code NCCL_IB_HCA=mlx5_0,mlx5_1}: Slurm's reading of such a list is not the shell's), so it
 * is unknown (its name is kept, no rule reasons on its value), and the entries with no '=' after it are not taken for names.
 */
final class SrunExport {
    private static final Set<String> KEYWORDS = Set.of("ALL", "NONE", "NIL");
    private static final java.util.regex.Pattern NAME = java.util.regex.Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private SrunExport() {}

    /** srun's options from w[i] up to the program it starts: reads every --export list among them. */
    static void scan(List<Word> w, int i, Launch l) {
        for (; i < w.size(); i++) {
            Word x = w.get(i);
            String t = x.text();
            if (t.startsWith("--export=")) {
                entries(x, "--export=".length(), l);
            } else if (t.equals("--export") && i + 1 < w.size()) {
                entries(w.get(++i), 0, l);
            } else if (!t.startsWith("-")) {
                return;
            } else if (i + 1 < w.size() && !w.get(i + 1).text().startsWith("-")
                    && VALUED.contains(t)) {
                i++;
            }
        }
    }

    /** srun's long options written with their value as the next word (--nodes 2), so that value is not taken for the program. */
    private static final Set<String> VALUED = Set.of("--nodes", "--ntasks", "--ntasks-per-node", "--gpus-per-node", "--gpus",
            "--gres", "--cpus-per-task", "--partition", "--account", "--time", "--job-name", "--output", "--error",
            "--container-image", "--container-mounts", "--container-workdir", "--container-name", "--mpi", "--nodelist",
            "--distribution", "--cpu-bind", "--mem", "--qos", "--chdir", "-N", "-n", "-c", "-p", "-A", "-t", "-J", "-o", "-e", "-w", "-G");

    private static void entries(Word x, int from, Launch l) {
        if (!x.known()) return;
        String t = x.text();
        int start = from;
        boolean afterValue = false;
        while (start <= t.length()) {
            int comma = t.indexOf(',', start);
            int end = comma < 0 ? t.length() : comma;
            String entry = t.substring(start, end);
            int eq = entry.indexOf('=');
            String name = eq < 0 ? entry : entry.substring(0, eq);
            if (eq < 0 && KEYWORDS.contains(name)) {
                afterValue = false;
            } else if (NAME.matcher(name).matches() && !(eq < 0 && afterValue)) {
                if (eq < 0) {
                    l.forwarded.add(WordParts.part(x, start, end));
                } else {
                    boolean goesOn = comma >= 0 && !t.substring(comma + 1).split(",", 2)[0].contains("=")
                            && !KEYWORDS.contains(t.substring(comma + 1).split(",", 2)[0]);
                    Word v = WordParts.part(x, start + eq + 1, end);
                    l.env.add(new EnvSet(name, new Word(v.text(), !goesOn, v.span()), "srun --export", WordParts.part(x, start, start + eq).span()));
                    afterValue = true;
                }
            }
            if (comma < 0) break;
            start = comma + 1;
        }
    }
}
