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
 * (env_array_merge overwrites): a NAME=value of the list reaches them only when the caller does not export NAME. In
 * srun's code: the list's entries are written into {@code dest_array} first, then, with ALL,
 * {@code env_array_merge(&dest_array, (const char **) job->env)}, where {@code job->env} holds srun's own environment
 * ({@code pre_launch_srun_job}: {@code env_array_merge(&job->env, (const char **)environ)}, src/srun/srun_job.c), and
 * env_array_merge's contract is "Any variables already found in dest_array will be overwritten with the value from
 * src_array" (src/common/env.c), whatever the entries' order ({@code --export=NAME=V,ALL} alike). So with srun's
 * {@code --export=ALL,NAME=V}, or {@code #SBATCH --export=ALL,NAME=V}, which the steps inherit, a batch script's
 * {@code export NAME=...} before srun beats V
 * ("If ALL is specified, then all user environment variables will be loaded and will take precedence over any explicitly
 * given environment variables", https://slurm.schedmd.com/srun.html#OPT_export; LaunchEnvironment applies it at the launch).
 * The list is cut into entries as srun cuts it (find_quote_token(tmp_env, ",", ...) in _build_user_env; the same loop as
 * sbatch's _find_quote_token, SchedMD/slurm src/sbatch/opt.c): at every comma outside a pair of ' or " characters that
 * reach srun, an entry written wholly inside one pair losing it ({@code --export='"NCCL_IB_HCA=mlx5_0,mlx5_1"'} sets the
 * two HCAs). So {@code NCCL_IB_HCA=mlx5_0,mlx5_1} sets NCCL_IB_HCA=mlx5_0 alone, and {@code mlx5_1} is an entry of its own:
 * a NAME that srun passes on from its caller's environment (getenv) where the caller has one; the ranks get one HCA. Such
 * a cut value is kept in {@link ExportList#cut} with the entries after it that are written as no variable's name is
 * (not upper case nor a proxy variable's name: {@code mlx5_1}, {@code eth1}, {@code /b}), or that follow a variable
 * documented as taking a comma-separated list of keywords ({@link #LISTS}: {@code NCCL_DEBUG_SUBSYS=INIT,NET},
 * {@code NCCL_ALGO=RING,TREE}); {@code NCCL_DEBUG=WARN,NCCL_IB_HCA} and {@code HF_HOME=/data,http_proxy} pass a name on.
 * The cut itself is certain either way; only whether the author meant it is read from the shape (CrayLabs/SmartSim#104 met the
 * same trap: "srun --export SSKEYIN=name_0,name_1,OTHER_VAR=value" fails, and the fix passes the variable by name). Only srun's last --export
 * counts (getopt: a later option replaces an earlier).
 */
public final class SrunExport {
    private static final java.util.regex.Pattern NAME = java.util.regex.Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    /** A variable's name as scripts write one: upper case, digits and '_' (HOME, NCCL_DEBUG). */
    private static final java.util.regex.Pattern UPPER_NAME = java.util.regex.Pattern.compile("[A-Z_][A-Z0-9_]*");
    /**
     * The variables scripts write in lower case and pass on by name ({@code --export=ALL,HF_HOME=/data,http_proxy}): the
     * proxy settings, which curl reads in lower case ("http_proxy is an exception as it is only available in lower case",
     * https://curl.se/docs/manpage.html#ENVIRONMENT) and pip, requests and wget read too. Names, never a value's rest.
     */
    private static final java.util.Set<String> LOWER_NAMES = java.util.Set.of("http_proxy", "https_proxy", "no_proxy", "ftp_proxy", "all_proxy");
    /**
     * Variables documented as taking a comma-separated list of upper- or mixed-case keywords, after which a piece without
     * '=' is the value's rest whatever its case ({@code NCCL_DEBUG_SUBSYS=INIT,NET}): NCCL_DEBUG_SUBSYS ("a comma separated
     * list of subsystems": INIT, COLL, P2P, SHM, NET...), NCCL_ALGO ("a comma-separated list of algorithms": Tree, Ring...) and
     * NCCL_PROTO (LL, LL128, Simple) (https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html). The other lists
     * scripts pass (NCCL_SOCKET_IFNAME "Multiple prefixes can be provided, separated by the , symbol", NCCL_IB_HCA
     * "mlx5_0:1,mlx5_1:1", the same page; CUDA_VISIBLE_DEVICES, "a comma-separated sequence of GPU identifiers",
     * https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#env-vars) hold interface and device names, indices
     * and UUIDs, none written as an upper-case name: the name test tells their rest ({@code NCCL_IB_HCA=mlx5_0,mlx5_1,HOME}
     * cuts mlx5_1 and passes HOME on).
     */
    static final java.util.Set<String> LISTS = java.util.Set.of("NCCL_DEBUG_SUBSYS", "NCCL_ALGO", "NCCL_PROTO");

    private SrunExport() {}

    /**
     * An --export list as srun reads it: whether it holds ALL (before any NONE), the names it passes on, the values it sets,
     * and the values it cuts (a NAME=value followed by entries with no '=' that are no keyword and not written as a variable's
     * name: {@code NCCL_IB_HCA=mlx5_0,mlx5_1}), and the names {@code recalled}: set by a NAME=value and then listed alone
     * ({@code --export=NAME=V,NAME}), which _build_user_env takes in order: the NAME=value is written
     * ({@code env_array_overwrite}), then the bare NAME overwrites it with {@code getenv(NAME)} where srun's own environment
     * has NAME and leaves V where it has not (SchedMD/slurm src/srun/launch.c), so the value depends on srun's caller
     * (LaunchEnvironment.srunExport decides it where the script does). A later NAME=value sets the name again. And the
     * values that keep quote characters ({@code quoted}): find_quote_token drops a pair only around a whole entry, so
     * {@code NCCL_IB_HCA="mlx5_0,mlx5_1"} (the shell's quotes taken off: {@code --export='NCCL_IB_HCA="mlx5_0,mlx5_1"'}) is
     * one entry whose value is {@code "mlx5_0,mlx5_1"}, quotes and all, and the tasks get that text.
     */
    public record ExportList(boolean all, List<Word> passed, List<EnvSet> sets, List<Cut> cut, java.util.Set<String> recalled,
                             List<EnvSet> quoted) {}

    /** A NAME=value of a list whose written text goes on past a comma ({@code rest}: "mlx5_1", as written), which srun cuts there. */
    public record Cut(EnvSet set, Word rest) {}

    /** srun's options from w[i] up to the program it starts ({@link SrunOptions}): reads the last --export list among them. */
    static void scan(List<Word> w, int i, Launch l) {
        Word list = SrunOptions.read(w, i).last("export");
        if (list == null) return;
        ExportList e = read(list);
        l.env.addAll(e.sets());
    }

    /** The entries of an --export list; an unknown word reads as an empty list that holds ALL (nothing can be said of it). */
    public static ExportList read(Word x) {
        List<Word> passed = new java.util.ArrayList<>();
        List<EnvSet> sets = new java.util.ArrayList<>();
        List<Cut> cut = new java.util.ArrayList<>();
        java.util.Set<String> recalled = new java.util.LinkedHashSet<>();
        List<EnvSet> quoted = new java.util.ArrayList<>();
        if (!x.known()) return new ExportList(true, passed, sets, cut, recalled, quoted);
        String t = x.text();
        boolean all = false;
        EnvSet last = null;                                // the NAME=value before the entries that may be its value's rest
        int restFrom = -1, restTo = -1;
        for (int[] r : entries(t)) {
            int from = r[0], to = r[1];
            String entry = t.substring(from, to);
            int eq = entry.indexOf('=');
            String name = eq < 0 ? entry : entry.substring(0, eq);
            boolean keyword = eq < 0 && (name.equalsIgnoreCase("ALL") || name.equalsIgnoreCase("NONE"));
            // the value's rest: the entries after it that are no NAME=value, keyword nor variable name as people write
            // them (upper case: HOME, NCCL_DEBUG); mlx5_1, eth1, /b are
            boolean aName = UPPER_NAME.matcher(entry).matches() || LOWER_NAMES.contains(entry);
            boolean rest = eq < 0 && !keyword && !entry.isEmpty() && (!aName || last != null && LISTS.contains(last.name()));
            if (last != null && !rest) {
                if (restFrom >= 0) cut.add(new Cut(last, WordParts.part(x, restFrom, restTo)));
                last = null;
                restFrom = -1;
            }
            if (eq < 0 && name.equalsIgnoreCase("NONE")) break;
            if (eq < 0 && name.equalsIgnoreCase("ALL")) {
                all = true;
                continue;
            }
            if (rest && last != null) {
                if (restFrom < 0) restFrom = from;
                restTo = to;
            }
            if (!NAME.matcher(name).matches()) continue;
            if (eq < 0) {
                passed.add(WordParts.part(x, from, to));
                if (sets.stream().anyMatch(v -> v.name().equals(name))) recalled.add(name);
            } else {
                recalled.remove(name);
                last = new EnvSet(name, WordParts.part(x, from + eq + 1, to), Launchers.Kind.SRUN_EXPORT,
                        WordParts.part(x, from, from + eq).span());
                sets.add(last);
                String v = last.value().text();
                if (v.indexOf('"') >= 0 || v.indexOf('\'') >= 0) quoted.add(last);
            }
        }
        if (last != null && restFrom >= 0) cut.add(new Cut(last, WordParts.part(x, restFrom, restTo)));
        return new ExportList(all, passed, sets, cut, recalled, quoted);
    }

    /**
     * The entries of a list as srun's find_quote_token cuts it, each as {from, to} in {@code t}: at a comma outside a pair
     * of ' or " characters, an entry written wholly inside one pair without it; a quote left open runs to the end (srun:
     * "Improperly formed environment variable"). Bounded by the word's length.
     */
    static List<int[]> entries(String t) {
        List<int[]> out = new java.util.ArrayList<>();
        int start = 0;
        boolean single = false, dbl = false;
        for (int i = 0; i <= t.length(); i++) {
            char c = i < t.length() ? t.charAt(i) : ',';
            // srun counts each kind of quote on its own (a ' inside "..." opens a pair too)
            if (i < t.length() && c == '\'') { single = !single; continue; }
            if (i < t.length() && c == '"') { dbl = !dbl; continue; }
            if (c != ',' || (single || dbl) && i < t.length()) continue;
            int from = start, to = i;
            char q = to - from >= 2 ? t.charAt(from) : 0;
            if ((q == '\'' || q == '"') && t.charAt(to - 1) == q) { from++; to--; }
            out.add(new int[] {from, to});
            start = i + 1;
        }
        return out;
    }
}
