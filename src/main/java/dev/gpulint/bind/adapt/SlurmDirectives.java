package dev.gpulint.bind.adapt;

import dev.gpulint.bind.adapt.shell.Launchers;
import dev.gpulint.bind.adapt.shell.ScalarText;
import dev.gpulint.bind.adapt.shell.Shell.Word;
import dev.gpulint.bind.adapt.shell.WordParts;
import dev.gpulint.spec.Specs.StatedKind;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code #SBATCH} directives of a Slurm batch script: read, as sbatch does, from the comment
 * lines before the first command, each only where {@code #SBATCH} begins the line (an indented one is a comment to
 * sbatch: SYN009), its words cut as sbatch's {@code _get_argument} cuts them ({@link #arguments}: quotes and backslashes
 * taken off, a {@code #} outside quotes ending the line). What they allocate is the job's size: {@code --nodes}/{@code -N},
 * GPUs per node ({@code --gpus-per-node=[type:]N}, {@code --gres=gpu[:type][:N]}: with both, --gres's count, see
 * {@link #implied}), GPUs in all ({@code --gpus}/{@code -G}), tasks ({@code --ntasks-per-node}, {@code --ntasks}/{@code -n})
 * and {@code --exclusive}. A range ({@code --nodes=2-4}) is unknown. Each value keeps its span (the value as written,
 * quotes and all).
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
    /**
     * What sbatch refuses outright, so the script is never submitted (SYN002): a directive line whose quote is left open,
     * and a GPU request per node made twice, once with a type and once without. Each: where, the message, the finding's key.
     */
    final java.util.List<Refused> refused = new java.util.ArrayList<>();

    record Refused(dev.gpulint.core.Span span, String message, String key) {}

    /**
     * What sbatch reads otherwise than gpulint can follow, said rather than left silent (SYN012, a warning): a heterogeneous
     * job's later components, two GPU types per node, a #SLURM sentinel, #PBS lines. Each: where, the message, the key.
     */
    final java.util.List<Refused> otherwise = new java.util.ArrayList<>();
    /** The first line that starts a later component of a heterogeneous job (hetjob/packjob), and how many components follow. */
    Word hetjob;
    int laterComponents;
    /** The first "#SLURM" sentinel read as "#SBATCH". */
    Word slurmSentinel;
    /** {@code #SBATCH --ignore-pbs}: sbatch does not translate the #PBS lines. */
    boolean ignorePbs;
    /** How the GPUs per node are written, for messages: "#SBATCH --gres=gpu:8". */
    String gpusPerNodeWritten;
    boolean exclusive;
    /** The GPUs per node of the last --gpus-per-node and of the last --gres (null: none, or that --gres names no GPU), and
     *  the GPU type each names (null: none); {@link #implied} decides which one the job gets. */
    private Word gpusPerNodeOption, gresGpus, gresItem, gresOther, gresMixed;
    private String gresWritten, gresType, gpusPerNodeType;
    /** The last --gres value as sbatch holds it (#PBS accelerator=true appends ",gpu:1" to it). */
    private String gresValue;

    private SlurmDirectives() {}

    /** The GPU type of the job's one GPU request per node (--gres or --gpus-per-node; null: untyped), when it is known. */
    private String gpuType;
    private boolean gpuTypeKnown;

    /** The GPU type the job's GPUs per node are requested with (null: of no type). Only when {@link #gpuTypeKnown()}. */
    String gpuType() { return gpuType; }

    /**
     * The job's GPUs per node come from one GPU request per node (--gres=gpu[:type]:N or --gpus-per-node=[type:]N), whose type
     * or its lack is known; false when none, when they are implied (--gpus, --gpus-per-task) or when two types are asked.
     */
    boolean gpuTypeKnown() { return gpuTypeKnown && gpusPerNode != null; }

    static SlurmDirectives read(ScalarText text) {
        SlurmDirectives d = new SlurmDirectives();
        String s = text.value();
        int pos = 0;
        int lines = 0;
        int component = 0;
        while (pos < s.length() && lines++ < 100_000) {
            int nl = s.indexOf('\n', pos);
            int end = nl < 0 ? s.length() : nl;
            int i = pos;
            while (i < end && isspace(s.charAt(i))) i++;
            if (i < end && s.charAt(i) != '#') break;                               // the first command ends them
            // sbatch reads the options right after the seven characters "#SBATCH" (#SBATCH--nodes=2 too: Slurm's opt.c),
            // and only at the line's first character: an indented one is a comment to it (SYN009). "#SLURM" is read the same
            // (_opt_batch_script's magic_word2, with its error "Change from #SLURM to #SBATCH")
            int word = sentinel(s, i, end);
            if (word > 0 && i == pos) {
                if (word == 6 && d.slurmSentinel == null) d.slurmSentinel = new Word(s.substring(i, i + 6), true, text.span(i, i + 6));
                // a directive line holding "hetjob" or "packjob" anywhere starts the next component (strcasestr on the line)
                String lower = s.substring(i, end).toLowerCase(java.util.Locale.ROOT);
                if (lower.contains("hetjob") || lower.contains("packjob")) {
                    component++;
                    if (d.hetjob == null) d.hetjob = new Word(s.substring(i, end).strip(), true, text.span(i, end));
                }
                if (component == 0) d.line(text, s, i + word, end);
                else d.laterComponents = component;
            } else if (d.misspelt.size() < MAX_UNEXPANDED) {
                Word[] m = word == 7 ? MisspeltDirectives.indented(text, s, pos, i, end)
                        : word == 0 ? MisspeltDirectives.at(text, s, i, end) : null;
                if (m != null) d.misspelt.add(m);
            }
            pos = end + 1;
        }
        if (!d.ignorePbs) d.translated(text, s);
        d.implied(text);
        d.otherwise(text);
        return d;
    }

    /**
     * The {@code #BSUB} or {@code #PBS} lines sbatch translates (SYN012 at the first): unless {@code --ignore-pbs} is given,
     * sbatch reads the script a second time for {@code #BSUB} lines, and only when there is none for {@code #PBS} lines ("Only
     * translate one type of job options at most"), each at the start of a line, past the first command, until more than 100
     * lines that do not begin with '#' (xlate_batch_script, SchedMD/slurm src/sbatch/xlate.c at fd49acb8, called by
     * process_options_second_pass after the #SBATCH lines, so what it translates goes over them). The lines' arguments are one
     * argument list read through getopt_long with the format's option string ({@link Xlate}): the options end at the first
     * argument that is not one, and sbatch exits on it, on an option it does not know and on one left without its value.
     * gpulint reads the node, task and GPU counts they set as sbatch translates them.
     */
    private void translated(ScalarText text, String s) {
        int pos = 0, nonComments = 0;
        Word bsub = null, pbs = null;
        while (pos < s.length() && nonComments <= 100 && (bsub == null || pbs == null)) {
            int nl = s.indexOf('\n', pos);
            int end = nl < 0 ? s.length() : nl;
            if (s.startsWith("#BSUB", pos)) { if (bsub == null) bsub = new Word(s.substring(pos, end).strip(), true, text.span(pos, end)); }
            else if (s.startsWith("#PBS", pos)) { if (pbs == null) pbs = new Word(s.substring(pos, end).strip(), true, text.span(pos, end)); }
            else if (pos >= end || s.charAt(pos) != '#') nonComments++;
            pos = end + 1;
        }
        Xlate x = bsub != null ? Xlate.BSUB : pbs != null ? Xlate.PBS : null;
        if (x == null) return;
        int[] state = {0, 0, 0};
        pos = 0;
        nonComments = 0;
        while (pos < s.length() && nonComments <= 100 && state[1] == 0) {
            int nl = s.indexOf('\n', pos);
            int end = nl < 0 ? s.length() : nl;
            if (s.startsWith(x.sentinel, pos)) arguments(s, pos + x.sentinel.length(), end, a -> translatedArgument(text, x, a, state));
            else if (pos >= end || s.charAt(pos) != '#') nonComments++;
            pos = end + 1;
        }
        if (xlateStop == null && state[0] != 0) xlateStop = new String[] {xlateLast, "an option left without its value (getopt_long's '?': \"Unrecognized command line parameter\")"};
        if (xlateStop != null && refused.size() < MAX_UNEXPANDED) {
            refused.add(new Refused(xlateStopAt, "'" + xlateStop[0] + "' on a " + x.sentinel + " line: sbatch translates the " + x.sentinel
                    + " lines' words through getopt_long with the " + x.format + " options it knows (" + x.known + ": " + x.function
                    + ", SchedMD/slurm src/sbatch/xlate.c), and exits on " + xlateStop[1] + ", so sbatch does not submit the job;"
                    + " remove the word, or add #SBATCH --ignore-pbs so that sbatch skips the " + x.sentinel + " lines", x.sentinel + " refused"));
        }
        Word first = x == Xlate.BSUB ? bsub : pbs;
        String line = first.text().length() > 80 ? first.text().substring(0, 80) + "..." : first.text();
        otherwise.add(new Refused(first.span(), "'" + line + "': sbatch translates " + x.sentinel + " lines into its own options"
                + " (xlate_batch_script, SchedMD/slurm src/sbatch/xlate.c) after the #SBATCH lines and over them, and gpulint reads"
                + " them so: " + x.reads + "; write the request as #SBATCH lines, or add #SBATCH --ignore-pbs so that sbatch skips"
                + " the " + x.sentinel + " lines", x.sentinel));
    }

    /**
     * A format sbatch translates: its sentinel, its getopt_long option string (the options without a value, those with one)
     * and long options, as _set_pbs_options and _set_bsub_options declare them (SchedMD/slurm src/sbatch/xlate.c at
     * fd49acb8), and the words of its messages.
     */
    private enum Xlate {
        PBS("#PBS", "PBS", "_set_pbs_options", "hIVz", "aAcCejJklmMNopqrStuvW",
                "-a -A -c -C -e -h -I -j -J -k -l -m -M -N -o -p -q -r -S -t -u -v -V -W -z, each but -h -I -V -z with a value,"
                        + " and their long names such as --resource_list",
                "-l select=N and -l nodes=N[:ppn=P] set --nodes (and P × N --ntasks), mpiprocs=M --ntasks-per-node,"
                        + " naccelerators=G --gpus (in all), accelerator=true adds gpu:1 to --gres; PBS Pro's ngpus= is not translated"
                        + " at all, so it requests no GPU, and gpulint reads no other #PBS key",
                new String[] {"start_time:a:1", "account:A:1", "checkpoint:c:1", "working_dir:C:1", "error:e:1", "hold:h:0",
                    "interactive:I:0", "join:j:2", "job_array:J:1", "keep:k:1", "resource_list:l:1", "mail_options:m:1",
                    "mail_user_list:M:1", "job_name:N:1", "out:o:1", "priority:p:1", "destination:q:1", "rerunable:r:1",
                    "script_path:S:1", "array:t:1", "running_user:u:1", "variable_list:v:1", "all_env:V:0", "attributes:W:1",
                    "no_std:z:0"}),
        BSUB("#BSUB", "LSF", "_set_bsub_options", "x", "ceJmMnoqW",
                "-c (-cwd) -e -J -m -M -n -o -q -W -x, each but -x with a value, and their long names; none of LSF's GPU or"
                        + " resource options (-gpu, -R) is among them",
                "-n [MIN,]MAX sets --ntasks (MAX), -x --exclusive, -J --job-name; LSF's -gpu and -R are no options sbatch knows,"
                        + " and sbatch skips the #PBS lines of a script that has #BSUB ones",
                new String[] {"cwd:c:1", "error_file:e:1", "job_name:J:1", "hostname:m:1", "memory_limit:M:1", "output_file:o:1",
                    "queue_name:q:1", "time:W:1", "exclusive:x:0"});

        final String sentinel, format, function, noValue, withValue, known, reads;
        /** Long options: name, the option's character, 0 no value, 1 a value, 2 an optional value ("name=value" only). */
        final String[] longs;

        Xlate(String sentinel, String format, String function, String noValue, String withValue, String known, String reads, String[] longs) {
            this.sentinel = sentinel;
            this.format = format;
            this.function = function;
            this.noValue = noValue;
            this.withValue = withValue;
            this.known = known;
            this.reads = reads;
            this.longs = longs;
        }

        /** getopt_long's match of {@code --name}: the exact name, else the one name it begins (all matches alike); null: none or ambiguous. */
        String[] longOption(String name) {
            String[] found = null;
            boolean ambiguous = false;
            for (String l : longs) {
                String[] f = l.split(":", 3);
                if (f[0].equals(name)) return f;
                if (!name.isEmpty() && f[0].startsWith(name)) {
                    if (found == null) found = f;
                    else if (!found[1].equals(f[1]) || !found[2].equals(f[2])) ambiguous = true;
                }
            }
            return ambiguous ? null : found;
        }
    }

    /** Why sbatch exits on the translated lines (the word, the reason; null: it does not), where, and the last word read. */
    private String[] xlateStop;
    private dev.gpulint.core.Span xlateStopAt;
    private String xlateLast;

    /** The length of the directive sentinel at {@code i}: 7 for a line starting "#SBATCH", 6 for "#SLURM", whatever follows (_opt_batch_script's xstrncmp of the line's start); else 0. */
    private static int sentinel(String s, int i, int end) {
        for (String w : new String[] {"#SBATCH", "#SLURM"}) {
            if (s.startsWith(w, i) && i + w.length() <= end) return w.length();
        }
        return 0;
    }

    /**
     * One argument of the translated lines as getopt_long takes it: {@code state[0]}: the option whose value this argument is
     * (0: none); {@code state[1]}: 1 when the options have ended; {@code state[2]}: the argument's number (1 first), for
     * xlate_batch_script's "-cwd" → "-c" at the odd places of a #BSUB list.
     */
    private void translatedArgument(ScalarText text, Xlate x, Argument a, int[] state) {
        if (state[1] == 1 || xlateStop != null) return;                                // sbatch has exited at the first
        String t = a.text();
        int number = ++state[2];
        char due = (char) state[0];
        state[0] = 0;
        xlateLast = t.length() > 40 ? t.substring(0, 40) + "..." : t;                 // for a message: bounded
        xlateStopAt = pbsSpan(text, a, 0, t.length());
        if (due != 0) { translatedValue(text, x, due, a, 0); return; }
        if (state[1] == 2 || t.length() < 2 || t.charAt(0) != '-') {
            // a word that is not an option ends getopt's scan (and so does "--", before the next word), and sbatch exits
            state[1] = 1;
            xlateStop = new String[] {xlateLast, "a word that is not an option (\"Invalid argument: " + xlateLast + "\")"};
            return;
        }
        if (x == Xlate.BSUB && number % 2 == 1 && t.equals("-cwd")) t = "-c";          // "Slurm doesn't allow long names with a single '-'"
        if (t.equals("--")) { state[1] = 2; return; }
        if (t.startsWith("--")) {
            int eq = t.indexOf('=');
            String[] o = x.longOption(eq < 0 ? t.substring(2) : t.substring(2, eq));
            if (o == null || o[2].equals("0") && eq >= 0) {
                state[1] = 1;
                xlateStop = new String[] {xlateLast, "an option it does not know or that takes no value (" + (eq < 0 ? t : t.substring(0, eq))
                        + ", getopt_long's '?': \"Unrecognized command line parameter\")"};
                return;
            }
            char c = o[1].charAt(0);
            if (eq >= 0) translatedValue(text, x, c, a, eq + 1);
            else if (o[2].equals("1")) state[0] = c;
            else if (o[2].equals("0")) translatedFlag(x, c);
            return;
        }
        for (int k = 1; k < t.length(); k++) {
            char c = t.charAt(k);
            if (x.noValue.indexOf(c) >= 0) { translatedFlag(x, c); continue; }
            if (x.withValue.indexOf(c) < 0) {                                          // getopt's '?': "Unrecognized command line parameter"
                state[1] = 1;
                xlateStop = new String[] {xlateLast, "an option it does not know (-" + c + ", getopt_long's '?': \"Unrecognized command line parameter\")"};
                return;
            }
            if (k + 1 < t.length()) translatedValue(text, x, c, a, k + 1);
            else state[0] = c;
            return;
        }
    }

    /** A translated option without a value: #BSUB -x is --exclusive. */
    private void translatedFlag(Xlate x, char c) {
        if (x == Xlate.BSUB && c == 'x') exclusive = true;
    }

    /** The value of translated option {@code c}, from character {@code from} of {@code a}: #PBS -l's resource list, #BSUB -n's tasks and -J's name. */
    private void translatedValue(ScalarText text, Xlate x, char c, Argument a, int from) {
        if (x == Xlate.PBS && c == 'l') { resources(text, a, from); return; }
        if (x != Xlate.BSUB) return;
        String v = a.text().substring(from);
        if (c == 'J') jobName = new Word(v, true, pbsSpan(text, a, from, a.text().length()));
        if (c == 'n') {
            // "-n MIN,MAX": the MAX; "-n 4," (nothing after the comma) exits: error("#BSUB -n format not correct given: ...")
            int comma = v.indexOf(',');
            int start = comma < 0 ? from : from + comma + 1;
            String n = a.text().substring(start);
            tasks = n.matches("[0-9]{1,9}") ? new Word(n, true, pbsSpan(text, a, start, a.text().length())) : null;
            if (comma >= 0 && n.isEmpty()) {
                xlateStop = new String[] {xlateLast, "a -n value with nothing after its comma (\"#BSUB -n format not correct\")"};
            }
        }
    }

    /**
     * A #PBS -l resource list from character {@code from} of {@code a}, scanned as _parse_pbs_resource_list scans it (a
     * character at a time, each key where it starts, the value of a key it knows skipped to its separator): {@code select=N}
     * (to the next ':') and {@code nodes=N[+M...][:ppn=P]} (to the next ','; the counts of its parts summed, and P summed times
     * that count --ntasks) set --nodes, {@code mpiprocs=M} (to ':') --ntasks-per-node, {@code naccelerators=G} (to ',') --gpus
     * in all; {@code accelerator=true} (any case) adds {@code gpu:1} to --gres once the list is read; each replaces the value
     * before it. Other keys set nothing gpulint reads.
     */
    private void resources(ScalarText text, Argument a, int from) {
        String v = a.text();
        int i = from;
        dev.gpulint.core.Span accelerator = null;
        while (i < v.length()) {
            String key = null;
            for (String k : RESOURCE_KEYS) {
                boolean anyCase = k.equals("accelerator=") || k.equals("mpiprocs=") || k.equals("naccelerators=") || k.equals("ncpus=")
                        || k.equals("select=");
                if (v.regionMatches(anyCase, i, k, 0, k.length())) { key = k; break; }
            }
            if (key == null) { i++; continue; }
            int start = i + key.length();
            if (key.equals("accelerator=")) {
                if (v.regionMatches(true, start, "true", 0, 4) && accelerator == null) accelerator = pbsSpan(text, a, i, start + 4);
                i = start;
                continue;
            }
            char sep = key.equals("select=") || key.equals("mpiprocs=") || key.equals("ncpus=") ? ':' : ',';
            int stop = v.indexOf(sep, start);
            if (stop < 0) stop = v.length();
            String value = v.substring(start, stop);
            if (key.equals("nodes=")) {
                nodesOption(text, a, start, value);
            } else if (value.matches("[0-9]{1,9}") && !key.equals("ncpus=")) {
                Word w = new Word(value, true, pbsSpan(text, a, start, stop));
                switch (key) {
                    case "select=" -> nodes = w;
                    case "mpiprocs=" -> tasksPerNode = w;
                    case "naccelerators=" -> gpus = w;
                    default -> { }
                }
            }
            i = stop + 1;
            if (key.equals("proc=")) { int next = v.indexOf(',', i); i = next < 0 ? v.length() : next + 1; }   // it skips one more
        }
        if (accelerator != null) acceleratorGres(accelerator);
    }

    /** The -l keys _parse_pbs_resource_list knows, whose value it skips (Cray's mpp* keys, compiled in only on Cray, left out). */
    private static final String[] RESOURCE_KEYS = {"accelerator=", "arch=", "cput=", "file=", "host=", "mem=", "mpiprocs=",
        "naccelerators=", "ncpus=", "nice=", "nodes=", "opsys=", "other=", "pcput=", "pmem=", "proc=", "pvmem=", "select=",
        "software=", "vmem=", "walltime="};

    /**
     * {@code nodes=} as _parse_pbs_nodes_opts reads it: each part (to the next '+' or ':') that starts with a digit adds its
     * count to the nodes, each {@code ppn=P} adds P to the tasks per node; --nodes is the count when there is one, and
     * --ntasks is the summed P times the count (times 1 when none).
     */
    private void nodesOption(ScalarText text, Argument a, int start, String value) {
        long count = 0, ppn = 0;
        int p = 0;
        while (p < value.length()) {
            int next = p;
            while (next < value.length() && value.charAt(next) != '+' && value.charAt(next) != ':') next++;
            String part = value.substring(p, next);
            if (!part.isEmpty() && Character.isLetter(part.charAt(0)) && !part.startsWith("ppn=") && part.indexOf('=') > 0
                    && refused.size() < MAX_UNEXPANDED && refused.stream().noneMatch(r -> r.key().equals("#PBS nodes name"))) {
                // a part that starts with a letter is a host name to _parse_pbs_nodes_opts (hostlist_push_host, then -w): Torque's
                // gpus=N becomes --nodelist=gpus=N, a name no node has (a Slurm node name holds no '=')
                String shown = part.length() > 40 ? part.substring(0, 40) + "..." : part;
                refused.add(new Refused(pbsSpan(text, a, start + p, start + next), "'" + shown + "' in #PBS -l nodes=: sbatch's"
                        + " translation takes each part of nodes= that starts with a letter for a host name (_parse_pbs_nodes_opts,"
                        + " SchedMD/slurm src/sbatch/xlate.c at fd49acb8) and passes it as --nodelist=" + shown + ", a name no Slurm node"
                        + " has, so slurmctld refuses the job (ESLURM_INVALID_NODE_NAME, \"Invalid node name specified\"); nor does it"
                        + " translate Torque's gpus= into a GPU request; ask for the GPUs on #SBATCH lines (--gpus-per-node=N) and"
                        + " remove the part, or add #SBATCH --ignore-pbs so that sbatch skips the #PBS lines", "#PBS nodes name"));
            }
            String digits = part.startsWith("ppn=") ? part.substring(4).replaceFirst("[^0-9].*$", "") : part.replaceFirst("[^0-9].*$", "");
            if (!digits.isEmpty() && digits.length() < 10) {
                if (part.startsWith("ppn=")) ppn += Long.parseLong(digits);
                else count += Long.parseLong(digits);
            }
            p = next + 1;
        }
        dev.gpulint.core.Span at = pbsSpan(text, a, start, start + value.length());
        if (count > 0) nodes = new Word(String.valueOf(count), true, at);
        if (ppn > 0 && ppn * Math.max(count, 1) < MAX_COUNT) tasks = new Word(String.valueOf(ppn * Math.max(count, 1)), true, at);
    }

    /**
     * #PBS -l accelerator=true: _parse_pbs_resource_list sets --gres to the --gres before it with ",gpu:1" after it (or to
     * "gpu:1"), and slurmctld reads it as #SBATCH --gres is read ({@link #gres}): one untyped GPU per node, replacing an untyped
     * count before it, refused beside a typed one.
     */
    private void acceleratorGres(dev.gpulint.core.Span at) {
        Word one = new Word("1", true, at);
        String before = gresValue;
        gresValue = before == null ? "gpu:1" : before + ",gpu:1";
        if (gresGpus != null && gresType != null) {
            if (gresMixed == null) gresMixed = new Word("gpu:1", true, at);
            return;
        }
        if (gresMixed != null) return;
        gresGpus = one;
        gresItem = new Word("gpu:1", true, at);
        gresType = null;
        gresWritten = "#PBS -l accelerator=true (--gres=" + (gresValue.length() > 60 ? "...," : "") + (gresValue.length() > 60 ? "gpu:1" : gresValue) + ")";
    }
    /** Where characters {@code from} to {@code to} of argument {@code a} are written. */
    private static dev.gpulint.core.Span pbsSpan(ScalarText text, Argument a, int from, int to) {
        return text.span(a.at()[from], to > from ? a.at()[to - 1] + 1 : a.at()[from]);
    }

    /** C's isspace, which sbatch's line scan and _get_argument test: blank, tab, and the line-ending controls. */
    static boolean isspace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\u000b' || c == '\f';
    }

    /**
     * One argument of a directive line as sbatch's {@code _get_argument} cuts it: its text, and where each of its characters
     * is written ({@code at[k]}, an offset of the script; {@code start} and {@code at[text.length()]}: the argument as
     * written, quotes included).
     * {@code open}: a quote left open, which sbatch refuses ("Unmatched `\"`", fatal): the text runs to the line's end.
     */
    record Argument(String text, int start, int[] at, int openAt) {
        /** A quote left open: {@link #openAt} is where it opens (an offset of the script; -1 when every quote closes). */
        boolean open() {
            return openAt >= 0;
        }
    }

    /**
     * The arguments of a directive line from {@code i} to {@code end}, read as sbatch's {@code _get_argument} reads them
     * (SchedMD/slurm src/sbatch/opt.c, the same at 00d7634a and at the 18.08/19.05 versions read): white space
     * ({@code isspace}) ends an argument outside quotes; a {@code '} or {@code "} opens a quote that only the same
     * character closes, both taken off, so {@code --job-name="a b"} is {@code --job-name=a b}; a backslash is taken off and
     * the character after it kept, in or out of quotes (an escaped blank still ends the argument: the loop tests for white
     * space before the escape); an unquoted, unescaped {@code #} ends the line (a comment: {@code --nodes=2 # two} and
     * {@code --nodes=2#two} are {@code --nodes=2}). An argument of no characters ({@code ""}, or the {@code #} of a
     * comment) ends the line too: _get_argument returns NULL and _opt_batch_script goes to the next line.
     */
    static java.util.List<Argument> arguments(String s, int i, int end) {
        java.util.List<Argument> out = new java.util.ArrayList<>();
        arguments(s, i, end, out::add);
        return out;
    }

    /**
     * {@link #arguments(String, int, int)}, each handed to {@code each} as it is cut: sbatch reads every argument of a line
     * (_opt_batch_script grows its argv for each), however many, and so does this, keeping none but the one at hand, so a
     * line of millions of words costs its length and no more.
     */
    static void arguments(String s, int i, int end, java.util.function.Consumer<Argument> each) {
        while (i < end) {
            while (i < end && isspace(s.charAt(i))) i++;
            int start = i;
            StringBuilder b = new StringBuilder();
            int[] at = new int[16];                                                 // grown as the argument grows
            boolean escape = false, quoted = false;
            char q = 0;
            int openAt = -1;
            while (i < end && (quoted || !isspace(s.charAt(i)))) {
                char c = s.charAt(i);
                if (escape) {
                    escape = false;
                } else if (c == '\\') {
                    escape = true;
                    i++;
                    continue;
                } else if (quoted) {
                    if (c == q) { quoted = false; i++; continue; }
                } else if (c == '"' || c == '\'') {
                    quoted = true;
                    q = c;
                    openAt = i;
                    i++;
                    continue;
                } else if (c == '#') {
                    break;
                }
                if (b.length() + 1 >= at.length) at = java.util.Arrays.copyOf(at, at.length * 2);
                at[b.length()] = i;
                b.append(c);
                i++;
            }
            if (b.length() == 0) {
                // nothing read ("" or '#'), but a quote still open is sbatch's fatal "Unmatched" all the same
                if (quoted) each.accept(new Argument("", start, new int[] {i}, openAt));
                break;
            }
            at[b.length()] = i;
            each.accept(new Argument(b.toString(), start, java.util.Arrays.copyOf(at, b.length() + 1), quoted ? openAt : -1));
            if (quoted || i < end && s.charAt(i) == '#') break;
        }
    }

    /** One directive line's options, from {@code i} to {@code end}, as getopt_long takes them from sbatch's argument list. */
    private void line(ScalarText text, String s, int i, int end) {
        arguments(s, i, end, a -> argument(text, s, a));
    }

    /*
     * sbatch's option table, as slurm_option_table_create builds it for sbatch (the options with a set_func or a
     * set_func_sbatch and a name; SchedMD/slurm src/common/slurm_opt.c at 002a907694609f82564ff36dd8a050d12a57c702), by has_arg.
     * The optstring starts with '+': getopt_long stops at the first word that is not an option, and sbatch exits on it.
     */
    /** The long options that take no value (no_argument): the word after one is not its value. */
    private static final java.util.Set<String> FLAGS = java.util.Set.of("--contiguous", "--help", "--hold", "--ignore-pbs",
            "--no-requeue", "--overcommit", "--oversubscribe", "--parsable", "--quiet", "--reboot", "--requeue", "--spread-job",
            "--stepmgr", "--test-only", "--use-min-nodes", "--usage", "--verbose", "--version", "--wait",
            "--share");                                                              // --share: older releases' alias of -s
    /** The long options whose value is optional (optional_argument): given only as --option=value, the next word is none of it. */
    private static final java.util.Set<String> OPTIONAL = java.util.Set.of("--exclusive", "--get-user-env", "--nice", "--no-kill",
            "--propagate");
    /** The long options that take a value (required_argument): the next word is the value when it is not written with '='. */
    private static final java.util.Set<String> REQUIRED = java.util.Set.of("--account", "--acctg-freq", "--array", "--autocomplete",
            "--batch", "--bb", "--bbf", "--begin", "--chdir", "--cluster", "--cluster-constraint", "--clusters", "--comment",
            "--constraint", "--container", "--container-id", "--context", "--core-spec", "--cores-per-socket", "--cpu-freq",
            "--cpus-per-gpu", "--cpus-per-task", "--deadline", "--delay-boot", "--dependency", "--distribution", "--error",
            "--exclude", "--export", "--export-file", "--extra", "--extra-node-info", "--gid", "--gpu-bind", "--gpu-freq", "--gpus",
            "--gpus-per-node", "--gpus-per-socket", "--gpus-per-task", "--gres", "--gres-flags", "--hint", "--input", "--job-name",
            "--kill-on-invalid-dep", "--licenses", "--mail-type", "--mail-user", "--mcs-label", "--mem", "--mem-bind",
            "--mem-per-cpu", "--mem-per-gpu", "--mincpus", "--network", "--nodefile", "--nodelist", "--nodes", "--ntasks",
            "--ntasks-per-core", "--ntasks-per-gpu", "--ntasks-per-node", "--ntasks-per-socket", "--ntasks-per-tres",
            "--open-mode", "--output", "--partition", "--prefer", "--priority", "--profile", "--qos", "--reservation", "--segment",
            "--signal", "--sockets-per-node", "--switches", "--tasks-per-node", "--thread-spec", "--threads-per-core", "--time",
            "--time-min", "--tmp", "--tres-bind", "--tres-per-task", "--uid", "--wait-all-nodes", "--wckey", "--wrap");
    /** The short options without a value (h help, H hold, O overcommit, Q quiet, s oversubscribe, V version, v verbose, W wait;
     *  u: --usage in older releases, not an sbatch option now, and getopt_long takes no value for an unknown one). */
    private static final String SHORT_FLAGS = "hHOQsuVvW";
    /** The short options that take a value (the optstring's "X:"); k (--no-kill) takes an optional one ("k::"), only attached. */
    private static final String SHORT_REQUIRED = "AabBcCdDeFGiJLmMnNopqStwx";

    /** The option whose value is the next argument (across directive lines: sbatch reads them as one list); null: none. */
    private String pendingOption;
    /** The option before this argument takes an optional value, which the next word is not. */
    private String optionalBefore;
    /** "--" was read: getopt_long ends the options there, and every later word is left over. */
    private boolean optionsEnded;
    /**
     * The option before this argument is not in sbatch's table: a SPANK plugin's (pyxis adds --container-image with a value and
     * --no-container-mount-home without one, to the same table) or one sbatch does not know; whether it takes a value is unknown,
     * so a next word that is not an option may be its value and is not said to be left over.
     */
    private boolean unknownBefore;
    /** The first word left over (neither an option nor an option's value): sbatch exits on it. */
    private Word stray;

    /** One argument of a directive line, as getopt_long takes it from the one argument list of all directive lines. */
    private void argument(ScalarText text, String s, Argument a) {
        if (a.open() && refused.size() < MAX_UNEXPANDED) {
            char q = s.charAt(a.openAt());
            refused.add(new Refused(text.span(a.openAt(), a.at()[a.text().length()]), "this #SBATCH line opens a "
                    + (q == '"' ? "double" : "single") + " quote (" + q + ") that it never closes: sbatch reads each directive line"
                    + " alone and stops at it with \"Unmatched `" + q + "`\", a fatal error (_get_argument, SchedMD/slurm"
                    + " src/sbatch/opt.c), so the whole script is refused at submission and none of its directives is requested;"
                    + " close the quote on this line, or write the character as \\" + q + " if it is part of the value",
                    "#SBATCH unmatched " + q));
        }
        String tok = a.text();
        String value = pendingOption, optional = optionalBefore;
        boolean unknown = unknownBefore;
        pendingOption = null;
        optionalBefore = null;
        unknownBefore = false;
        if (value != null) {
            option(text, value, a, 0);
            return;
        }
        int eq = tok.indexOf('=');
        if (!optionsEnded && tok.startsWith("--") && tok.length() > 2) {
            // getopt_long takes any prefix of one long option as that option (--nod=2 is --nodes=2)
            String written = eq > 0 ? tok.substring(0, eq) : tok;
            String full = longOption(written);
            if (full == null) { ambiguous(text, a, written); return; }
            tok = eq > 0 ? full + tok.substring(eq) : full;                        // eq stays where the value starts as written
        }
        if (optionsEnded || tok.equals("-") || !tok.startsWith("-")) {
            if (!unknown || optionsEnded) leftOver(text, a, optional);
        } else if (tok.equals("--")) {
            optionsEnded = true;                                                    // getopt_long's end of the options
        } else if (tok.startsWith("--") && eq > 0) {
            option(text, tok.substring(0, tok.indexOf('=')), a, eq + 1);
        } else if (tok.equals("--exclusive")) {
            exclusive = true;
            optionalBefore = tok;
        } else if (tok.equals("--ignore-pbs")) {
            ignorePbs = true;
        } else if (FLAGS.contains(tok)) {
            // no value: the next word is an option of its own
        } else if (OPTIONAL.contains(tok)) {
            optionalBefore = tok;
        } else if (REQUIRED.contains(tok)) {
            pendingOption = tok;
        } else if (tok.startsWith("--")) {
            unknownBefore = true;
        } else {
            shortOptions(text, a, tok);
        }
    }

    /** Every long option of sbatch's table (FLAGS, OPTIONAL, REQUIRED and --ignore-pbs), sorted: the names an abbreviation is matched against. */
    private static final java.util.List<String> LONG_OPTIONS;
    static {
        java.util.TreeSet<String> all = new java.util.TreeSet<>(FLAGS);
        all.addAll(OPTIONAL);
        all.addAll(REQUIRED);
        all.add("--ignore-pbs");
        LONG_OPTIONS = java.util.List.copyOf(all);
    }

    /**
     * The long option {@code written} ("--name", without its "=value") names, as getopt_long finds it in sbatch's table: the
     * option of that exact name, else the one option it is a prefix of ({@code --nod} is {@code --nodes}); {@code written}
     * itself when it begins none (a SPANK plugin's option, or one sbatch does not know); null when it begins several
     * ({@code --gpus-per} begins --gpus-per-node, --gpus-per-socket and --gpus-per-task), which getopt_long calls ambiguous.
     * Bounded: one pass over the table (about 110 names) per option word.
     */
    static String longOption(String written) {
        if (LONG_OPTIONS.contains(written)) return written;
        String only = null;
        for (String o : LONG_OPTIONS) {
            if (!o.startsWith(written)) continue;
            if (only != null) return null;
            only = o;
        }
        return only != null ? only : written;
    }

    /** The long options {@code written} is a prefix of, for the message (at most 6 named). */
    private static String possibilities(String written) {
        java.util.List<String> out = new java.util.ArrayList<>();
        int n = 0;
        for (String o : LONG_OPTIONS) {
            if (!o.startsWith(written)) continue;
            if (n++ < 6) out.add(o);
        }
        return String.join(", ", out) + (n > 6 ? " and " + (n - 6) + " more" : "");
    }

    /**
     * SYN012, an error: a long option written as a prefix of several of sbatch's options. getopt_long prints "option
     * '--gpus-per' is ambiguous; possibilities: ..." and returns '?', on which sbatch exits (slurm_process_option_or_exit,
     * SchedMD/slurm src/common/slurm_opt.c), so the job is not submitted. The first is said; getopt_long has taken no value,
     * so the next word is read as an option of its own.
     */
    private void ambiguous(ScalarText text, Argument a, String written) {
        if (stray != null) return;
        String shown = written.length() > 40 ? written.substring(0, 40) + "..." : written;
        stray = new Word(shown, true, text.span(a.start(), a.at()[Math.min(written.length(), a.text().length())]));
        if (refused.size() >= MAX_UNEXPANDED) return;
        refused.add(new Refused(stray.span(), "'" + shown + "' on a #SBATCH line is the start of several of sbatch's long options ("
                + possibilities(written) + "): getopt_long accepts a prefix of one option only, says \"option '" + shown + "' is"
                + " ambiguous\" for this one, and sbatch exits (slurm_process_option_or_exit, SchedMD/slurm src/common/slurm_opt.c),"
                + " so the job is not submitted; write the option's whole name", "#SBATCH ambiguous option"));
    }

    /**
     * A word of short options ({@code -N4}, {@code -H}, {@code -HN 4}), as getopt_long reads one: flags one after another, until
     * an option that takes a value, whose value is the rest of the word or, when nothing is left, the next word.
     */
    private void shortOptions(ScalarText text, Argument a, String tok) {
        for (int j = 1; j < tok.length(); j++) {
            char c = tok.charAt(j);
            if (SHORT_FLAGS.indexOf(c) >= 0) continue;
            if (c == 'k') {
                if (j + 1 == tok.length()) optionalBefore = "-k";                      // -k's value is only attached (-kset)
                return;
            }
            if (SHORT_REQUIRED.indexOf(c) >= 0) {
                if (j + 1 < tok.length()) option(text, "-" + c, a, j + 1);
                else pendingOption = "-" + c;
                return;
            }
            unknownBefore = true;                                                   // not sbatch's: a value or not, unknown
            return;
        }
    }

    /**
     * A word of the directives that is neither an option nor an option's value: getopt_long leaves it over, and sbatch stops
     * with "Invalid directive found in batch script: WORD" and exits (_opt_batch_script: _set_options returns an optind short
     * of argc, SchedMD/slurm src/sbatch/opt.c), so the job is not submitted. The first is said (SYN012, an error).
     */
    private void leftOver(ScalarText text, Argument a, String optional) {
        if (stray != null) return;
        String shown = a.text().length() > 40 ? a.text().substring(0, 40) + "..." : a.text();
        stray = new Word(shown, true, text.span(a.start(), a.at()[a.text().length()]));
        if (refused.size() >= MAX_UNEXPANDED) return;
        String joined = optional == null ? null : optional.startsWith("--") ? optional + "=" + shown : optional + shown;
        String why = optional != null ? optional + " takes a value only written " + (optional.startsWith("--") ? "with '='"
                : "attached") + " (" + joined + "), so the word after it"
                : optionsEnded ? "'--' ends the options, and the word after it" : "the word";
        refused.add(new Refused(stray.span(), "'" + shown + "' on a #SBATCH line is neither an option nor an option's value: sbatch"
                + " reads the words of all the directive lines as one argument list with getopt_long, " + why + " is left over,"
                + " and sbatch stops with \"Invalid directive found in batch script: " + shown + "\" and exits (_opt_batch_script,"
                + " SchedMD/slurm src/sbatch/opt.c), so the job is not submitted; "
                + (optional != null ? "write " + joined + ", or remove the word"
                        : "write the value with its option (--option=value), or start a note with '#'"), "#SBATCH left over"));
    }

    /**
     * The value of {@code option}: argument {@code a} from its character {@code from} on, placed at its own characters when
     * sbatch took nothing off it (no quote nor backslash), else at the whole value as written (WordParts' rule). A value
     * with a quote left open is unknown (sbatch refuses the script).
     */
    private void option(ScalarText text, String option, Argument a, int from) {
        String value = a.text().substring(from);
        // from the character after the option's '=' (or the word's start) as written: a quote opening the value is in it
        int start = from == 0 ? a.start() : a.at()[from - 1] + 1;
        Word w = new Word(value, !a.open(), text.span(start, a.at()[a.text().length()]));
        boolean unexpanded = value.indexOf('$') >= 0;
        if (unexpanded && this.unexpanded.size() < MAX_UNEXPANDED) this.unexpanded.add(new Word[] {new Word(option, true, w.span()), w});
        // the value sbatch sees is the text itself: no number gpulint can use, and it replaces the one before (last wins)
        Word v = unexpanded || a.open() ? null : w;
        switch (option) {
            case "--nodes", "-N" -> nodes = v;
            case "--ntasks-per-node" -> tasksPerNode = v;
            case "--ntasks", "-n" -> tasks = v;
            case "--job-name", "-J" -> jobName = v;
            case "--export" -> export = v == null ? new Word(value, false, w.span()) : w;
            case "--gpus", "-G" -> gpus = v == null ? null : count(v);
            case "--gpus-per-task" -> gpusPerTask = v == null ? null : count(v);
            case "--ntasks-per-gpu" -> tasksPerGpu = v;
            case "--gpus-per-node" -> {
                gpusPerNodeOption = v == null ? null : count(v);
                gpusPerNodeType = v == null ? null : type(value);
            }
            case "--gres" -> {
                // each --gres replaces the one before (arg_set_gres): its first GPU item, or none
                Gres g = v == null ? null : gres(v);
                gresGpus = g == null ? null : g.count();
                gresItem = g == null ? null : g.item();
                gresType = g == null ? null : g.type();
                gresWritten = g == null ? null : "#SBATCH --gres=" + g.written();
                gresOther = g == null ? null : g.other();
                gresMixed = g == null ? null : g.mixed();
                gresValue = v == null ? null : value;
            }
            default -> { }
        }
    }

    /**
     * The GPU request of a {@code --gres} value (sbatch's or srun's: {@code gpu[:type][:count]} items, comma-separated), as
     * gres_job_state_validate and gres_step_state_validate read it (SchedMD/slurm src/interfaces/gres.c at b1fd7528): each
     * item's count (a last piece of digits, else 1: _get_next_gres) is set on the record of its GPU type, found again for a
     * later item of the same type (_get_next_job_gres), so the last count of a type wins. Here: the first GPU item, the last
     * count of its type (placed at that item) and its type (null: none); {@code other}, the first item of another type when
     * both are typed (null: none), which Slurm keeps as a request of its own; {@code mixed}, the first item typed where the
     * first is not or the other way round (null: none), which Slurm refuses (ESLURM_INVALID_GRES_TYPE from
     * _merge_generic_data: "gpu:2,gpu:tesla:1" is its own example); the item whose count is read, as written, with its socket
     * list ({@code gpu:h100:8(S:0-1)}), for messages. Null when no item names a GPU.
     */
    record Gres(Word item, Word count, String type, Word other, Word mixed, String written) {}

    static Gres gres(Word v) {
        String value = v.text();
        Word item = null, count = null, other = null, mixed = null;
        String type = null, written = null;
        int f = 0;
        for (String it : value.split(",", 16)) {
            String n = it.replaceFirst("\\(.*$", "");
            if (n.equals("gpu") || n.startsWith("gpu:")) {
                String[] p = n.split(":", 4);
                boolean counted = p.length > 1 && p[p.length - 1].matches("[0-9]+");
                String t = p.length > (counted ? 2 : 1) ? p[1] : null;
                Word w = WordParts.part(v, f, f + n.length());
                if (item == null || java.util.Objects.equals(t, type)) {
                    if (item == null) item = w;
                    count = counted ? count(w) : new Word("1", true, w.span());
                    type = t;
                    written = it;
                } else if ((t == null) != (type == null)) {
                    if (mixed == null) mixed = w;
                } else if (other == null) {
                    other = w;
                }
            }
            f += it.length() + 1;
        }
        return item == null ? null : new Gres(item, count, type, other, mixed, written);
    }

    /** The GPU type of {@code --gpus-per-node=[type:]N}, or null. */
    private static String type(String value) {
        int colon = value.lastIndexOf(':');
        return colon > 0 ? value.substring(0, colon) : null;
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
        // --gpus-per-node and --gres are two fields (arg_set_gpus_per_node, arg_set_gres), sent as one per-node list with
        // --gpus-per-node's entry first and --gres's after it, whatever order they are written in (slurm_opt_create_job_desc:
        // xfmt_tres(&tres_per_node, "gres/gpu", gpus_per_node), then ",%s" gres); slurmctld sets each entry's count on the
        // job's record of that GRES and type in turn (gres_job_state_validate: gres_per_node = cnt), so --gres's count
        // replaces --gpus-per-node's. A typed and an untyped GPU request are refused (ESLURM_INVALID_GRES_TYPE from
        // _merge_generic_data), and two types are two requests: no one count per node
        String gresShown = gresWritten == null ? null : gresWritten.startsWith("#SBATCH ") ? gresWritten.substring(8) : gresWritten;
        if (gresMixed != null) {
            gpusPerNode = null;
            String typed = gresType != null ? gresType : gresMixed.text().split(":", 4)[1];      // the later item is the typed one
            if (refused.size() < MAX_UNEXPANDED) {
                refused.add(new Refused(gresMixed.span(), mixed("--gres=" + bounded(gresValue), typed, false), "#SBATCH --gres mixed"));
            }
        } else if (gresGpus != null && gpusPerNodeOption != null && !java.util.Objects.equals(gresType, gpusPerNodeType)) {
            gpusPerNode = null;
            if ((gresType == null) != (gpusPerNodeType == null)) {
                String perNode = "--gpus-per-node=" + (gpusPerNodeType == null ? "" : gpusPerNodeType + ":") + gpusPerNodeOption.text();
                String gres = gresShown;
                refused.add(new Refused(gresItem.span(), gres + " and " + perNode + " both ask for GPUs per node, one of "
                        + (gresType != null ? "type " + gresType : "type " + gpusPerNodeType) + " and one of no type: Slurm refuses a"
                        + " typed and an untyped request of the same GRES (ESLURM_INVALID_GRES_TYPE from gres_job_state_validate's"
                        + " _merge_generic_data, SchedMD/slurm src/interfaces/gres.c), so sbatch does not submit the job; request the GPUs"
                        + " once, as --gpus-per-node=[type:]N or --gres=gpu[:type]:N, or give both the same type", "#SBATCH --gres"));
            } else {
                twoTypes(gresItem, gresShown, "--gpus-per-node=" + gpusPerNodeType + ":"
                        + gpusPerNodeOption.text(), gresType, gpusPerNodeType);
            }
        } else if (gresOther != null) {
            gpusPerNode = null;
            twoTypes(gresOther, gresShown + " and " + gresOther.text(), null, gresType,
                    gresOther.text().split(":", 4)[1]);
        } else if (gresGpus != null) {
            gpusPerNode = gresGpus;
            gpusPerNodeWritten = gresWritten;
            gpuType = gresType;
            gpuTypeKnown = true;
        } else if (gpusPerNodeOption != null) {
            gpusPerNode = gpusPerNodeOption;
            gpusPerNodeWritten = "#SBATCH --gpus-per-node";
            gpuType = gpusPerNodeType;
            gpuTypeKnown = true;
        }
        boolean conflicting = gresMixed != null || gresGpus != null && (gpusPerNodeOption != null || gresOther != null) && gpusPerNode == null;
        long n = Launchers.number(nodes), t = Launchers.number(tasksPerNode), all = Launchers.number(tasks);
        if (t < 0 && all > 0 && n > 0 && all % n == 0) t = all / n;
        if (gpusPerNode == null && !conflicting && Launchers.number(gpusPerTask) > 0 && t > 0 && t < MAX_COUNT) {
            gpusPerNode = new Word(String.valueOf(Launchers.number(gpusPerTask) * t), true, gpusPerTask.span());
            gpusPerNodeWritten = "#SBATCH --gpus-per-task × " + (tasksPerNode != null ? "--ntasks-per-node" : "--ntasks ÷ --nodes");
        }
        if (gpusPerNode == null && !conflicting && Launchers.number(gpus) > 0 && n > 0 && Launchers.number(gpus) % n == 0) {
            gpusPerNode = new Word(String.valueOf(Launchers.number(gpus) / n), true, gpus.span());
            gpusPerNodeWritten = "#SBATCH --gpus ÷ --nodes";
        }
        if (tasksPerNode == null && Launchers.number(tasksPerGpu) > 0 && Launchers.number(gpusPerNode) > 0
                && Launchers.number(gpusPerNode) < MAX_COUNT) {
            tasksPerNode = new Word(String.valueOf(Launchers.number(tasksPerGpu) * Launchers.number(gpusPerNode)), true, tasksPerGpu.span());
        }
    }

    /**
     * SYN012: two GPU types asked per node ({@code --gres=gpu:a100:4} with {@code --gpus-per-node=h100:8}, or two GPU items
     * of one --gres). Slurm keeps one request per GRES type (gres_job_state_validate), so a node must hold both, and no one
     * count is the job's GPUs per node: gpulint prices a job on one GPU type, so it leaves that count unknown and says so.
     */
    private void twoTypes(Word at, String first, String second, String typeA, String typeB) {
        if (otherwise.size() >= MAX_UNEXPANDED) return;
        String both = second == null ? first : first + " and " + second;
        otherwise.add(new Refused(at.span(), both + " ask for GPUs of two types per node, " + (typeA == null ? "untyped" : typeA)
                + " and " + (typeB == null ? "untyped" : typeB) + ": Slurm keeps one request per GPU type (gres_job_state_validate,"
                + " SchedMD/slurm src/interfaces/gres.c), so every node must hold both and the job's GPUs per node is neither"
                + " count alone; gpulint prices a job on one GPU type, so it takes the GPUs per node as unknown and the checks"
                + " that need them do not run; request one type per job (--gpus-per-node=TYPE:N or --gres=gpu:TYPE:N), or split"
                + " the two kinds of work into two jobs", "#SBATCH two GPU types"));
    }

    /**
     * SYN012's words for a GPU request per node made once with a type and once without in one --gres (sbatch's, or srun's for
     * a step: {@code step}), which Slurm refuses whichever comes first.
     */
    static String mixed(String written, String type, boolean step) {
        return written + " asks for GPUs per node once of type " + type + " and once of no type: Slurm refuses a typed and an"
                + " untyped request of the same GRES (ESLURM_INVALID_GRES_TYPE, \"Invalid GRES specification (with and without type"
                + " identification)\", from " + (step ? "gres_step_state_validate" : "gres_job_state_validate") + "'s _merge_generic_data,"
                + " SchedMD/slurm src/interfaces/gres.c), so " + (step ? "srun creates no step and what it launches never runs"
                : "sbatch does not submit the job") + "; request the GPUs once, as --gres=gpu:TYPE:N or --gres=gpu:N";
    }

    /** A value quoted in a message, cut at 80 characters. */
    static String bounded(String v) {
        return v.length() > 80 ? v.substring(0, 80) + "..." : v;
    }

    /** SYN012: what sbatch reads here that gpulint does not follow, each said once. */
    private void otherwise(ScalarText text) {
        if (hetjob != null) {
            otherwise.add(new Refused(hetjob.span(), "'" + (hetjob.text().length() > 80 ? hetjob.text().substring(0, 80) + "..."
                    : hetjob.text()) + "' starts component 1 of a heterogeneous job (" + (laterComponents + 1) + " components):"
                    + " sbatch splits the directives at every directive line that holds 'hetjob' or 'packjob' anywhere"
                    + " (_opt_batch_script, SchedMD/slurm src/sbatch/opt.c), and each component gets its own nodes, tasks and"
                    + " GPUs; the batch script, and every srun without --het-group, runs in component 0 only, so gpulint reads"
                    + " the allocation of the directives above this line and none of the later components'; a step launched"
                    + " with --het-group=0,1 spans them all and is larger than gpulint's figures; if the word is part of a value"
                    + " (a job name), rename it, since sbatch splits the job there all the same", "#SBATCH hetjob"));
        }
        if (slurmSentinel != null) {
            otherwise.add(new Refused(slurmSentinel.span(), "'#SLURM' is read by sbatch as '#SBATCH' (_opt_batch_script's"
                    + " second sentinel, SchedMD/slurm src/sbatch/opt.c), which prints \"Change from #SLURM to #SBATCH in your"
                    + " script and verify the options are valid in sbatch\" at every submission; gpulint reads these lines as"
                    + " sbatch does; write #SBATCH", "#SLURM"));
        }
    }

    /** The count of [type:]N, placed at N. */
    private static Word count(Word value) {
        return WordParts.part(value, value.text().lastIndexOf(':') + 1, value.text().length());
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
