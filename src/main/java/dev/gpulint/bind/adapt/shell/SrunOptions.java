package dev.gpulint.bind.adapt.shell;

import dev.gpulint.bind.adapt.shell.Shell.Word;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * srun's options up to the program it starts, read as srun's getopt_long reads them: the one home of "which word is the
 * program" for every reader of an srun line (LaunchScriptAdapter's --nodes/--ntasks, SrunExport's --export, the launch
 * environment). Slurm declares each option's argument in its option table (SchedMD/slurm src/common/slurm_opt.c,
 * {@code slurm_cli_opt_t.has_arg}; https://slurm.schedmd.com/srun.html): an option of no argument ({@code -l},
 * {@code --exact}, {@code --overlap}'s srun form) never takes the next word, an optional argument ({@code --exclusive[=user]},
 * {@code -K}/{@code --kill-on-bad-exit[=0|1]}, {@code --pty}, {@code --overlap}) only an attached one ({@code --exclusive=user},
 * {@code -K1}), and a required one ({@code -N 2}, {@code --mpi pmix}, {@code -N2}, {@code --mpi=pmix}) the rest of its word
 * or else the next word. The option string starts with '+', so options end at the first word that is neither, or after
 * {@code --}. pyxis's container options are SPANK options of their own (NVIDIA/pyxis args.c: {@code --container-image}
 * and the other four that name something take a value; {@code --container-mount-home}, {@code --container-writable}...
 * none). A long option may be abbreviated to a prefix only it has (getopt_long). An option gpulint does not know (another
 * SPANK plugin's) is taken as taking no value unless written {@code --opt=value}.
 */
public final class SrunOptions {
    private SrunOptions() {}

    /** One option as written: its long name (without dashes; the short letter's long name), the word and its value (null: none). */
    public record Option(String name, Word word, Word value) {}

    /**
     * srun's options in order, the index of the program's word ({@code words.size()} when none is written), and the first long
     * option written as the start of several of srun's ({@code --gpus-per}: getopt_long's "is ambiguous", on which srun exits;
     * null when none).
     */
    public record Parsed(List<Option> options, int program, Word ambiguous) {
        /** The value of the last {@code name} option (getopt: a later one replaces an earlier), or null. */
        public Word last(String name) {
            Word v = null;
            for (Option o : options) if (o.name().equals(name) && o.value() != null) v = o.value();
            return v;
        }
    }

    private static final Set<String> NO_ARGUMENT = Set.of("contiguous", "debugger-test", "disable-status", "exact", "help", "hold",
            "interactive", "label", "multi-prog", "no-allocate", "overcommit", "oversubscribe", "preserve-env", "quiet",
            "quit-on-interrupt", "reboot", "spread-job", "stepmgr", "test-only", "unbuffered", "use-min-nodes", "usage", "verbose",
            "version", "whole",
            // pyxis (NVIDIA/pyxis args.c, has_arg 0)
            "container-mount-home", "no-container-mount-home", "container-remap-root", "no-container-remap-root",
            "container-entrypoint", "no-container-entrypoint", "container-entrypoint-log", "container-writable", "container-readonly");
    private static final Set<String> OPTIONAL_ARGUMENT = Set.of("bcast", "compress", "exclusive", "external-launcher", "immediate",
            "kill-on-bad-exit", "nice", "no-kill", "overlap", "propagate", "pty", "resv-ports", "send-libs", "x11");
    private static final Set<String> REQUIRED_ARGUMENT = Set.of("accel-bind", "account", "acctg-freq", "bb", "bbf", "bcast-exclude",
            "begin", "chdir", "cluster", "cluster-constraint", "clusters", "comment", "constraint", "container", "container-id", "context",
            "core-spec", "cores-per-socket", "cpu-bind", "cpu_bind", "cpu-freq", "cpus-per-gpu", "cpus-per-task", "deadline", "delay-boot",
            "dependency", "distribution", "epilog", "error", "exclude", "export", "extra", "extra-node-info", "gpu-bind", "gpu-freq", "gpus",
            "gpus-per-node", "gpus-per-socket", "gpus-per-task", "gres", "gres-flags", "het-group", "hint", "input", "jobid", "job-name",
            "licenses", "mail-type", "mail-user", "mcs-label", "mem", "mem-bind", "mem-per-cpu", "mem-per-gpu", "mincpus", "mpi",
            "msg-timeout", "network", "nodefile", "nodelist", "nodes", "ntasks", "ntasks-per-core", "ntasks-per-gpu", "ntasks-per-node",
            "ntasks-per-socket", "ntasks-per-tres", "open-mode", "output", "pack-group", "partition", "prefer", "priority", "profile",
            "prolog", "qos", "relative", "reservation", "segment", "signal", "slurmd-debug", "sockets-per-node", "switches",
            "task-epilog", "task-prolog", "tasks-per-node", "thread-spec", "threads", "threads-per-core", "time", "time-min", "tmp",
            "treewidth", "tres-bind", "tres-per-task", "wait", "wckey",
            // pyxis (has_arg 1)
            "container-image", "container-mounts", "container-workdir", "container-name", "container-save", "container-env");
    /** srun's short options (slurm_opt.c's .val letters) and their long names. */
    private static final Map<Character, String> SHORT = Map.ofEntries(Map.entry('A', "account"), Map.entry('B', "extra-node-info"),
            Map.entry('C', "constraint"), Map.entry('D', "chdir"), Map.entry('E', "preserve-env"), Map.entry('F', "nodefile"),
            Map.entry('G', "gpus"), Map.entry('H', "hold"), Map.entry('I', "immediate"), Map.entry('J', "job-name"),
            Map.entry('K', "kill-on-bad-exit"), Map.entry('L', "licenses"), Map.entry('M', "clusters"), Map.entry('N', "nodes"),
            Map.entry('O', "overcommit"), Map.entry('Q', "quiet"), Map.entry('S', "core-spec"), Map.entry('T', "threads"),
            Map.entry('V', "version"), Map.entry('W', "wait"), Map.entry('X', "disable-status"), Map.entry('Z', "no-allocate"),
            Map.entry('b', "begin"), Map.entry('c', "cpus-per-task"), Map.entry('d', "dependency"), Map.entry('e', "error"),
            Map.entry('h', "help"), Map.entry('i', "input"), Map.entry('k', "no-kill"), Map.entry('l', "label"),
            Map.entry('m', "distribution"), Map.entry('n', "ntasks"), Map.entry('o', "output"), Map.entry('p', "partition"),
            Map.entry('q', "qos"), Map.entry('r', "relative"), Map.entry('s', "oversubscribe"), Map.entry('t', "time"),
            Map.entry('u', "unbuffered"), Map.entry('v', "verbose"), Map.entry('w', "nodelist"), Map.entry('x', "exclude"));

    /** srun's options from {@code w[from]} on. */
    public static Parsed read(List<Word> w, int from) {
        List<Option> out = new ArrayList<>();
        Word ambiguous = null;
        int i = from;
        while (i < w.size()) {
            Word x = w.get(i);
            String t = x.text();
            if (t.equals("--")) return new Parsed(out, i + 1, ambiguous);
            if (t.length() < 2 || !t.startsWith("-")) break;
            if (t.startsWith("--")) {
                int eq = t.indexOf('=');
                String written = eq < 0 ? t.substring(2) : t.substring(2, eq);
                String name = full(written);
                if (name == null) {
                    // getopt_long: "option '--gpus-per' is ambiguous", '?', and srun exits (slurm_process_option_or_exit);
                    // read on as an option of no name that takes no value written apart
                    if (ambiguous == null) ambiguous = WordParts.part(x, 0, eq < 0 ? t.length() : eq);
                    name = written;
                }
                if (eq >= 0) {
                    out.add(new Option(name, x, Launchers.valueOf(x, eq + 1)));
                } else if (REQUIRED_ARGUMENT.contains(name)) {
                    out.add(new Option(name, x, i + 1 < w.size() ? w.get(++i) : null));
                } else {
                    out.add(new Option(name, x, null));
                }
                i++;
                continue;
            }
            // a cluster of short options: -lN2, -K1, -N 2
            for (int k = 1; k < t.length(); k++) {
                String name = SHORT.get(t.charAt(k));
                if (name == null || NO_ARGUMENT.contains(name)) {
                    out.add(new Option(name == null ? "-" + t.charAt(k) : name, x, null));
                    continue;
                }
                boolean attached = k + 1 < t.length();
                if (attached) out.add(new Option(name, x, WordParts.part(x, k + 1, t.length())));
                else if (OPTIONAL_ARGUMENT.contains(name)) out.add(new Option(name, x, null));
                else out.add(new Option(name, x, i + 1 < w.size() ? w.get(++i) : null));
                break;
            }
            i++;
        }
        return new Parsed(out, Math.min(i, w.size()), ambiguous);
    }

    /**
     * A long option's full name: itself when srun has it, else the one option it is a prefix of (getopt_long), else itself (an
     * option gpulint does not know); null when it is a prefix of several (getopt_long's "is ambiguous").
     */
    private static String full(String name) {
        if (NO_ARGUMENT.contains(name) || OPTIONAL_ARGUMENT.contains(name) || REQUIRED_ARGUMENT.contains(name)) return name;
        if (name.isEmpty()) return name;
        String only = null;
        for (Set<String> s : List.of(NO_ARGUMENT, OPTIONAL_ARGUMENT, REQUIRED_ARGUMENT)) {
            for (String n : s) {
                if (!n.startsWith(name)) continue;
                if (only != null && !only.equals(n)) return null;
                only = n;
            }
        }
        return only != null ? only : name;
    }

    /** The long options of srun's table that {@code name} (without dashes) begins, sorted, at most 6 named, for a message. */
    public static String possibilities(String name) {
        java.util.TreeSet<String> all = new java.util.TreeSet<>();
        for (Set<String> s : List.of(NO_ARGUMENT, OPTIONAL_ARGUMENT, REQUIRED_ARGUMENT)) {
            for (String n : s) if (n.startsWith(name)) all.add("--" + n);
        }
        List<String> shown = new ArrayList<>(all).subList(0, Math.min(6, all.size()));
        return String.join(", ", shown) + (all.size() > 6 ? " and " + (all.size() - 6) + " more" : "");
    }
}
