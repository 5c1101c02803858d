package dev.gpulint.bind.adapt;

import dev.gpulint.spec.ParallelDim;
import dev.gpulint.bind.adapt.shell.Launchers;
import dev.gpulint.bind.adapt.shell.ScalarText;
import dev.gpulint.bind.adapt.shell.Shell;
import dev.gpulint.bind.adapt.shell.Shell.Word;
import dev.gpulint.read.Readers;
import dev.gpulint.spec.Format;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs;
import dev.gpulint.spec.Specs.StatedKind;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.ScalarNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Shell and Slurm launch scripts ({@code .sh}, {@code .bash}, {@code .sbatch}, {@code .slurm}, {@code .slrm}, {@code .sb}, or a
 * shell's {@code #!}): the {@code #SBATCH} directives ({@link SlurmDirectives}), {@code srun}'s own
 * options, and the script read by the shell scan (variables, {@code $((...))}, bash arrays of flags,
 * exports) down to its launch: torchrun, {@code python -m torch.distributed.launch}, deepspeed,
 * mpirun, accelerate, {@code srun python}, with Megatron-LM and Hydra ({@code trainer.num_nodes=2})
 * flags. The allocation is the job's size (RESOURCE); the launcher's and the flags' copies are
 * compared with it. A script with no training launch binds nothing and is skipped quietly.
 */
final class LaunchScriptAdapter implements FormatAdapter {
    static final String FORMAT = Format.LAUNCH_SCRIPT.display();

    /** NeMo (Hydra) command-line overrides → the quantity they state. */
    private static final Map<String, String> HYDRA = Map.of(
            "trainer.num_nodes", "nodes", "trainer.devices", "per_node",
            "model.tensor_model_parallel_size", ParallelDim.TP.label(), "model.pipeline_model_parallel_size", ParallelDim.PP.label(),
            "model.context_parallel_size", ParallelDim.CP.label(), "model.expert_model_parallel_size", ParallelDim.EP.label());
    private static final Set<String> PROGRAMS = Set.of("torchrun", "deepspeed", "mpirun", "mpiexec", "accelerate");

    LaunchScriptAdapter() {}


    @Override public String id() { return "launch-script"; }

    @Override public String displayName() { return FORMAT; }

    @Override public boolean accepts(ForeignDocument doc) { return accepts(doc.root()); }

    @Override public void bind(ForeignDocument doc, DraftSink sink) {
        bind(doc.root(), doc.file(), doc.name(), doc.text(), sink);
    }

    static boolean accepts(MappingNode root) {
        return root.entries().size() == 1 && root.entries().get(0).key().text().equals(Readers.SCRIPT_KEY)
                && root.entries().get(0).value() instanceof ScalarNode;
    }

    /** What a script's srun command says before the program it starts. */
    static final class Srun {
        Word nodes, tasksPerNode, tasks;
        /** srun's --gres GPU count per node (SlurmDirectives.gres, as #SBATCH --gres is read), and its item as written. */
        Word gpusPerNode;
        String gresWritten;
        /** Each srun's GPU request (its --gres read as one GPU type and count), in the script's order, at most {@link #MAX_STEPS}. */
        final List<Step> steps = new ArrayList<>();
        /** The srun --gres requests past {@link #MAX_STEPS}, not compared (SYN012 at the first). */
        int stepsLeftOut;
        Word firstLeftOut;
        boolean python;
        /** Each srun that starts Python or a launcher directly: what it writes of its tasks and GPUs, at most {@link #MAX_STEPS}. */
        final List<Tasks> tasked = new ArrayList<>();
        /** What an srun's --gres asks that gpulint does not read as its GPUs per node (SYN012): an error, then a warning. */
        final List<SlurmDirectives.Refused> refused = new ArrayList<>(), otherwise = new ArrayList<>();
    }

    /** One step's GPU request: the count per node, the GPU item (its type, null for none), as written for messages. */
    record Step(Word count, Word item, String type, String written) {}

    /**
     * One srun that starts a program gpulint reads the ranks of: its own --ntasks-per-node, -n and -N (null: not written), whether
     * every option word before the program is known (no unexpanded variable that could set them), its own GPUs per node (--gres,
     * else --gpus-per-node; null: the job's) as written, and the program: null for Python started directly (srun is the launcher:
     * one rank per task), else the launcher's name (torchrun, deepspeed, accelerate launch) and the ranks per node it is told to
     * start in this command (null: not written).
     */
    record Tasks(Word perNode, Word n, Word nodes, boolean known, Word gpus, String gpusWritten, Word program, String launcher,
                 Word launcherPerNode, String launcherPerNodeWritten) {}

    /** The most srun --gres requests compared with the allocation per script; SYN012 says the later are not. */
    static final int MAX_STEPS = 64;

    /**
     * Binds a script: its job, when it launches training, and the fabric its {@code mlnx_qos} lines set
     * ({@link MlnxQos}), when it has some; the job runs on that fabric unless configuration says otherwise.
     * A script with neither binds nothing.
     */
    static void bind(MappingNode root, String file, String jobName, String source, DraftSink sink) {
        ScalarNode s = (ScalarNode) root.entries().get(0).value();
        ScalarText text = ScalarText.of(source, s);
        SlurmDirectives sb = SlurmDirectives.read(text);
        for (Word[] u : sb.unexpanded) sink.finding(unexpanded(jobName, u[0].text(), u[1]));
        for (Word[] m : sb.misspelt) sink.finding(MisspeltDirectives.finding(FORMAT, jobName, m));
        syn012(sink, jobName, dev.gpulint.core.Level.ERROR, sb.refused);
        syn012(sink, jobName, dev.gpulint.core.Level.WARNING, sb.otherwise);
        Shell.Script script = Shell.parse(text, sb.environment());
        for (dev.gpulint.core.Finding f : SrunExportCuts.of(script, sb.export, FORMAT, jobName)) sink.finding(f);
        Specs.Cluster qos = MlnxQos.read(script, file, jobName, root.entries().get(0).key().span(), root.span());
        if (qos != null) sink.cluster(qos);
        Launchers.Launch l = Launchers.scan(script);
        Srun srun = new Srun();
        JobDraft j = job(root, file, jobName, sb, script, l, srun);
        if (srun.stepsLeftOut > 0) {
            srun.otherwise.add(new SlurmDirectives.Refused(srun.firstLeftOut.span(), "this srun's --gres and the "
                    + (srun.stepsLeftOut - 1) + " after it are past the first " + MAX_STEPS + " srun GPU requests of the script,"
                    + " which gpulint compares with the job's allocation (a bound on the work a script can ask for); these are not"
                    + " compared; split the steps into scripts of fewer srun lines, or check them by hand", "srun --gres past the cap"));
        }
        syn012(sink, jobName, dev.gpulint.core.Level.ERROR, srun.refused);
        syn012(sink, jobName, dev.gpulint.core.Level.WARNING, srun.otherwise);
        if (j != null) {
            DeepSpeedHeredoc.Written ds = DeepSpeedHeredoc.find(script, text, l.deepspeedConfig);
            if (ds != null) DeepSpeedHeredoc.apply(j, ds);
            ShellDefaults.mark(j, source, ShellDefaults.of(text.value()));
        }
        if (j == null) return;
        if (qos != null && j.cluster == null) j.cluster = new Located<>(qos.name().value(), qos.fabric().type().span());
        sink.draft(j);
    }

    /** The bound job, or null when the script launches no training. */
    private static JobDraft job(MappingNode root, String file, String jobName, SlurmDirectives sb, Shell.Script script,
                                Launchers.Launch l, Srun srun) {
        Map<String, Word> hydra = new LinkedHashMap<>();
        boolean launches = false, srunSeen = false;
        for (Shell.Command c : script.commands()) {
            List<Word> w = c.words();
            for (int i = 0; i < w.size(); i++) {
                String prog = Shell.program(w.get(i).text());
                if (prog.equals("srun")) { srunSeen = true; i = srun(w, i + 1, srun) - 1; }
                else if (PROGRAMS.contains(prog) || prog.startsWith("torch.distributed.")) launches = true;
                hydra(w.get(i), hydra);
            }
        }
        // a batch script that allocates GPUs and runs a step (srun bash train.sh) is the job, even when the launch is elsewhere
        launches |= srunSeen && (sb.gpusPerNode != null || sb.gpus != null || srun.gpusPerNode != null);
        launches |= srun.python || !l.flags.isEmpty() || !hydra.isEmpty() || l.deepspeedConfig != null || l.configFile != null;
        if (!launches) return null;

        JobDraft j = new JobDraft(FORMAT, file, root.span());
        j.name = new Located<>(jobName, sb.jobName != null ? sb.jobName.span() : root.entries().get(0).key().span());
        sb.state(j);
        LaunchStatements.apply(j, l);
        LaunchEnvironment.stateLaunchExport(j, script);
        j.exports(script.assignments(), "export");
        j.script = script;
        // srun --export's values are the launch environment's own (LaunchEnvironment.at reads each srun's list at its command)
        j.launcherEnv = l.mpiSets();
        j.sbatchExport = sb.export;
        java.util.Set<String> launcherNames = new java.util.HashSet<>();
        for (Launchers.EnvSet e : j.launcherEnv) launcherNames.add(e.name());
        LaunchEnvironment.bind(j, script, launcherNames, sb.export, Map.of());
        LaunchEnvironment.launcherSets(j, j.launcherEnv, new java.util.HashSet<>());
        AttentionBackends.launchEnvironment(j, List.of(script), j.launcherEnv, Map.of());
        if (srun.nodes != null) j.state("nodes", Launchers.number(srun.nodes), "srun --nodes", StatedKind.LAUNCHER, srun.nodes.span());
        for (Step st : srun.steps) {
            // the step's GPUs, not ranks: compared with the allocation's GPUs per node only (OriginAnalysis, CONSIST001)
            j.state("step_gpus_per_node", Launchers.number(st.count()), st.written(), StatedKind.LAUNCHER, st.count().span());
            // a typed step is looked up among the job's GPU requests by its type (_validate_step_counts): compared with the job's
            if (st.type() != null && sb.gpuTypeKnown()) {
                j.stateText("step_gpu_type", "type " + st.type(), st.written(), StatedKind.LAUNCHER, st.item().span());
                if (j.stated.stream().noneMatch(x -> x.quantity().equals("gpu_type"))) {
                    j.stateText("gpu_type", sb.gpuType() == null ? dev.gpulint.facts.StatedQuantity.NO_GPU_TYPE : "type " + sb.gpuType(), sb.gpusPerNodeWritten,
                            StatedKind.RESOURCE, sb.gpusPerNode.span());
                }
            }
        }
        boolean directRanks = srun.python && l.torchPerNode == null && l.deepspeedGpus == null && l.mpiRanks == null;
        Word perNodeTasks = srun.tasksPerNode != null ? srun.tasksPerNode : sb.tasksPerNode;
        if (directRanks && perNodeTasks != null) {
            j.state("per_node", Launchers.number(perNodeTasks), (perNodeTasks == srun.tasksPerNode ? "srun" : "#SBATCH")
                    + " --ntasks-per-node (one rank per task)", StatedKind.LAUNCHER, perNodeTasks.span());
        }
        for (Tasks t : srun.tasked) {
            // each step's tasks per node against its own GPUs per node (OriginAnalysis pairs each statement with the next, CONSIST001)
            Object[] tpn = tasksPerNode(t, sb);
            if (tpn == null) continue;
            long tasks = (Long) tpn[0];
            Word at = (Word) tpn[2];
            if (t.launcher() != null) {
                // a launcher starts the node's ranks itself: more than one task per node starts it several times on each node
                if (tasks <= 1) continue;
                j.state("step_launchers_per_node", tasks, (String) tpn[1], StatedKind.LAUNCHER, at.span());
                if (t.launcherPerNode() != null && Launchers.number(t.launcherPerNode()) > 0) {
                    j.state("step_launcher_ranks", Launchers.number(t.launcherPerNode()), t.launcherPerNodeWritten(), StatedKind.LAUNCHER,
                            t.launcherPerNode().span());
                } else {
                    j.stateText("step_launcher_ranks", t.launcher(), t.launcher(), StatedKind.LAUNCHER, t.program().span());
                }
                continue;
            }
            Word gpus = t.gpus() != null ? t.gpus() : sb.gpusPerNode;
            long g = Launchers.number(gpus);
            // a step the job-wide statement above already compares (its tasks, the job's GPUs) is not said twice
            if (g <= 0 || tasks <= g || (directRanks && at == perNodeTasks && t.gpus() == null)) continue;
            j.state("step_tasks_per_node", tasks, (String) tpn[1], StatedKind.LAUNCHER, at.span());
            j.state("step_task_gpus", g, t.gpus() != null ? t.gpusWritten() : sb.gpusPerNodeWritten,
                    t.gpus() != null ? StatedKind.LAUNCHER : StatedKind.RESOURCE, gpus.span());
        }
        for (Map.Entry<String, Word> h : hydra.entrySet()) {
            String q = HYDRA.get(h.getKey());
            j.state(q, Launchers.number(h.getValue()), "the launch command " + h.getKey(), StatedKind.CONFIG, h.getValue().span());
        }
        if (l.configFile != null) j.configRef = new Located<>(l.configFile.text(), l.configFile.span());

        // the job's size: the allocation first, else what the launch says
        j.nodes = first(j, sb.nodes, "#SBATCH --nodes", hydra.get("trainer.num_nodes"), "trainer.num_nodes",
                l.torchNodes, "torchrun --nnodes", l.deepspeedNodes, "deepspeed --num_nodes", srun.nodes, "srun --nodes");
        if (j.nodes == null && l.torchPerNode != null && l.torchNodes == null && sb.nodes == null && srun.nodes == null
                && !hydra.containsKey("trainer.num_nodes") && sb.unexpanded.stream().noneMatch(u -> u[0].text().matches("--nodes|-N"))) {
            // torchrun without --nnodes runs on one node (its default --nnodes=1)
            j.nodes = j.key("torchrun's default --nnodes 1", new Located<>(1L, l.torchPerNode.span()));
        }
        Word perNode = sb.gpusPerNode;
        String where = sb.gpusPerNodeWritten;
        Word[] launcher = {hydra.get("trainer.devices"), l.torchPerNode, l.deepspeedGpus, directRanks ? perNodeTasks : null, srun.gpusPerNode};
        String[] names = {"trainer.devices", "torchrun --nproc_per_node", "deepspeed --num_gpus", "--ntasks-per-node", srun.gresWritten};
        for (int i = 0; perNode == null && i < launcher.length; i++) {
            if (launcher[i] != null) { perNode = launcher[i]; where = names[i]; }
        }
        if (Launchers.digits(perNode)) {
            j.gpusPerNode = j.key(where, TreeValues.whole(perNode.text(), perNode.span()));
            j.gpusPerNodeWhere = where;
        }
        if (j.tp == null && hydra.containsKey("model.tensor_model_parallel_size")) {
            j.tp = j.key("model.tensor_model_parallel_size", MegatronAdapter.located(hydra.get("model.tensor_model_parallel_size")));
            j.pp = j.key("model.pipeline_model_parallel_size", MegatronAdapter.located(hydra.get("model.pipeline_model_parallel_size")));
            j.cp = j.key("model.context_parallel_size", MegatronAdapter.located(hydra.get("model.context_parallel_size")));
            j.ep = j.key("model.expert_model_parallel_size", MegatronAdapter.located(hydra.get("model.expert_model_parallel_size")));
        }
        j.srunScripts.addAll(srunScripts(script));
        return j;
    }

    /** The #SBATCH options whose value sbatch must read as a number, a size or a time: a variable there fails the submission. */
    private static final Set<String> SBATCH_PARSED = Set.of("--nodes", "-N", "--ntasks", "-n", "--ntasks-per-node", "--gpus", "-G",
            "--gpus-per-node", "--gpus-per-task", "--ntasks-per-gpu", "--cpus-per-task", "-c", "--cpus-per-gpu", "--mem",
            "--mem-per-cpu", "--mem-per-gpu", "--time", "-t", "--gres", "--array", "-a");

    /** SYN007: sbatch reads #SBATCH lines itself, so a shell variable there is never expanded. */
    /** SYN012 at each line sbatch or srun refuses (an error) or reads otherwise than written (a warning). */
    private static void syn012(DraftSink sink, String jobName, dev.gpulint.core.Level level, List<SlurmDirectives.Refused> found) {
        for (SlurmDirectives.Refused r : found) {
            sink.finding(new dev.gpulint.core.Finding("SYN012", level, r.span(), r.message(), List.of(), FORMAT + ":" + jobName + "/" + r.key()));
        }
    }

    private static dev.gpulint.core.Finding unexpanded(String jobName, String option, Word value) {
        boolean parsed = SBATCH_PARSED.contains(option);
        String written = "#SBATCH " + option + (option.startsWith("--") ? "=" : " ") + value.text();
        String message = written + ": sbatch reads #SBATCH lines itself before any shell runs (to the shell they are comments), "
                + "so " + value.text() + " is not expanded; "
                + (parsed ? "sbatch cannot read the text '" + value.text() + "' as the value of " + option + " and refuses the script at submission"
                          : "sbatch takes the text '" + value.text() + "' literally")
                + "; write the value in the directive, or give it when submitting (sbatch " + option
                + (option.startsWith("--") ? "=" : " ") + "... script) and delete this line";
        return new dev.gpulint.core.Finding("SYN007", parsed ? dev.gpulint.core.Level.ERROR : dev.gpulint.core.Level.WARNING,
                value.span(), message, List.of(), FORMAT + ":" + jobName + "/#SBATCH " + option);
    }

    private static Located<Long> first(JobDraft j, Object... wordsAndNames) {
        for (int i = 0; i + 1 < wordsAndNames.length; i += 2) {
            if (wordsAndNames[i] instanceof Word w && Launchers.digits(w)) {
                return j.key((String) wordsAndNames[i + 1], TreeValues.whole(w.text(), w.span()));
            }
        }
        return null;
    }

    /** srun's options up to the program it starts (SrunOptions, srun's own option table); returns the index of that program. */
    private static int srun(List<Word> w, int i, Srun s) {
        dev.gpulint.bind.adapt.shell.SrunOptions.Parsed p = dev.gpulint.bind.adapt.shell.SrunOptions.read(w, i);
        if (p.ambiguous() != null && s.refused.size() + s.otherwise.size() < SlurmDirectives.MAX_UNEXPANDED) {
            String shown = SlurmDirectives.bounded(p.ambiguous().text());
            s.refused.add(new SlurmDirectives.Refused(p.ambiguous().span(), "'" + shown + "' is the start of several of srun's long"
                    + " options (" + dev.gpulint.bind.adapt.shell.SrunOptions.possibilities(p.ambiguous().text().substring(2)) + "):"
                    + " getopt_long accepts a prefix of one option only, says \"option '" + shown + "' is ambiguous\" for this one,"
                    + " and srun exits (slurm_process_option_or_exit, SchedMD/slurm src/common/slurm_opt.c), so what it launches never"
                    + " runs; write the option's whole name", "srun ambiguous option"));
        }
        if (s.nodes == null) s.nodes = p.last("nodes");
        if (s.tasksPerNode == null) s.tasksPerNode = p.last("ntasks-per-node");
        if (s.tasks == null) s.tasks = p.last("ntasks");
        Word gres = p.last("gres");
        SlurmDirectives.Gres g = gres == null || gres.text().indexOf('$') >= 0 ? null : SlurmDirectives.gres(gres);
        Word gpn = p.last("gpus-per-node");
        if (g == null && gres == null && gpn != null && gpn.known() && gpn.text().matches("([A-Za-z0-9_.-]{1,64}:)?[0-9]{1,9}")) {
            // srun --gpus-per-node=[type:]N asks the step for GPUs per node as --gres=gpu[:type]:N does (slurm_opt.c's
            // arg_set_gpus_per_node fills tres_per_node "gres/gpu[:type]:N" for the step as for the job)
            int colon = gpn.text().lastIndexOf(':');
            g = new SlurmDirectives.Gres(gpn, dev.gpulint.bind.adapt.shell.WordParts.part(gpn, colon + 1, gpn.text().length()),
                    colon < 0 ? null : gpn.text().substring(0, colon), null, null, "gpu" + (colon < 0 ? "" : ":" + gpn.text().substring(0, colon))
                    + ":" + gpn.text().substring(colon + 1));
        }
        String gresOption = gres == null && g != null ? "srun --gpus-per-node=" + gpn.text() : null;
        if (g != null && g.other() == null && g.mixed() == null) {
            // every srun is a step of its own, each compared with the allocation (bounded: MAX_STEPS, SYN012 past it)
            String written = gresOption != null ? gresOption : "srun --gres=" + g.written();
            if (s.steps.size() < MAX_STEPS) s.steps.add(new Step(g.count(), g.item(), g.type(), written));
            else if (s.stepsLeftOut++ == 0) s.firstLeftOut = g.item();
            if (s.gpusPerNode == null) {
                s.gpusPerNode = g.count();
                s.gresWritten = written;
            }
        } else if (g != null && s.refused.size() + s.otherwise.size() < SlurmDirectives.MAX_UNEXPANDED) {
            // a step's --gres is read as a job's (gres_step_state_validate, SchedMD/slurm src/interfaces/gres.c at b1fd7528)
            String written = "srun --gres=" + SlurmDirectives.bounded(gres.text());
            if (g.mixed() != null) {
                String typed = g.type() != null ? g.type() : g.mixed().text().split(":", 4)[1];
                s.refused.add(new SlurmDirectives.Refused(g.mixed().span(), SlurmDirectives.mixed(written, typed, true), "srun --gres mixed"));
            } else {
                s.otherwise.add(new SlurmDirectives.Refused(g.other().span(), written + " asks for GPUs of two types per node, "
                        + g.type() + " and " + g.other().text().split(":", 4)[1] + ": Slurm keeps one request per GPU type for a step"
                        + " as for a job (gres_step_state_validate, SchedMD/slurm src/interfaces/gres.c), so every node of the step"
                        + " must hold both and the step's GPUs per node is neither count alone; gpulint prices a job on one GPU type,"
                        + " so it does not take this srun's GPUs per node, and the checks that compare them with the allocation do"
                        + " not run; request one type per step (--gres=gpu:TYPE:N)", "srun --gres two GPU types"));
            }
        }
        if (p.program() < w.size() && Shell.program(w.get(p.program()).text()).startsWith("python")) s.python = true;
        if (p.program() < w.size() && s.tasked.size() < MAX_STEPS) {
            boolean known = true;
            for (int k = i; k < p.program(); k++) known &= w.get(k).known() && w.get(k).text().indexOf('$') < 0;
            Word gpus = g != null && g.other() == null && g.mixed() == null ? g.count() : null;
            String gpusWritten = gpus == null ? null : gresOption != null ? gresOption : "srun --gres=" + g.written();
            Tasks t = tasks(w, p.program(), p, known, gpus, gpusWritten);
            if (t != null) s.tasked.add(t);
        }
        return p.program();
    }

    /**
     * What an srun starting {@code w[at]} says of its tasks, when the program is Python (one rank per task) or a launcher
     * (torchrun, {@code python -m torch.distributed.run} or {@code .launch}, deepspeed, accelerate launch); null for any other
     * program (a shell, a wrapper: what it runs is not read here).
     */
    private static Tasks tasks(List<Word> w, int at, dev.gpulint.bind.adapt.shell.SrunOptions.Parsed p, boolean known, Word gpus,
                               String gpusWritten) {
        Word program = w.get(at);
        String prog = Shell.program(program.text());
        String launcher = null;
        String[] perNodeNames = {};
        int from = at + 1;
        if (prog.equals("torchrun")) {
            launcher = "torchrun";
            perNodeNames = new String[] {"--nproc_per_node", "--nproc-per-node"};
        } else if (prog.startsWith("python") && at + 2 < w.size() && w.get(at + 1).text().equals("-m")
                && (w.get(at + 2).text().equals("torch.distributed.run") || w.get(at + 2).text().equals("torch.distributed.launch"))) {
            launcher = "python -m " + w.get(at + 2).text();
            perNodeNames = new String[] {"--nproc_per_node", "--nproc-per-node"};
            from = at + 3;
        } else if (prog.equals("deepspeed")) {
            launcher = "deepspeed";
            perNodeNames = new String[] {"--num_gpus", "--num-gpus"};
        } else if (prog.equals("accelerate") && at + 1 < w.size() && w.get(at + 1).text().equals("launch")) {
            launcher = "accelerate launch";     // its --num_processes counts every node's: no per-node count here
            from = at + 2;
        } else if (!prog.startsWith("python")) {
            return null;
        }
        Word perNode = null;
        String perNodeWritten = null;
        for (int k = from; launcher != null && perNodeNames.length > 0 && k < w.size(); k++) {
            Word v = Launchers.optionValue(w, k, perNodeNames);
            if (v != null) { perNode = v; perNodeWritten = launcher + " " + w.get(k).text().replaceFirst("=.*$", ""); break; }
            String t = w.get(k).text();
            if (!t.startsWith("-") && (t.endsWith(".py") || t.equals("-m"))) break;     // the training script's own flags follow
        }
        return new Tasks(p.last("ntasks-per-node"), p.last("ntasks"), p.last("nodes"), known, gpus, gpusWritten, program, launcher,
                perNode, perNodeWritten);
    }

    /**
     * The tasks per node of an srun step, as srun settles them: its own --ntasks-per-node; else its -n ÷ -N when both are
     * written and divide; else, when it writes neither -n nor --ntasks-per-node and every option word is known, the job's
     * #SBATCH --ntasks-per-node, which sbatch passes down as SLURM_NTASKS_PER_NODE and srun reads as its own
     * --ntasks-per-node (env_vars and _opt_env, SchedMD/slurm src/srun/libsrun/opt.c at 91d68b03, before the command line).
     * Null when none of these gives a number: nothing is claimed.
     */
    private static Object[] tasksPerNode(Tasks t, SlurmDirectives sb) {
        if (t.perNode() != null) {
            long v = Launchers.number(t.perNode());
            return v < 0 ? null : new Object[] {v, "srun --ntasks-per-node", t.perNode()};
        }
        if (t.n() != null) {
            long n = Launchers.number(t.n()), nodes = Launchers.number(t.nodes());
            if (n < 0 || nodes <= 0 || n % nodes != 0) return null;
            return new Object[] {n / nodes, "srun -n " + n + " ÷ -N " + nodes, t.n()};
        }
        if (!t.known() || sb.tasksPerNode == null) return null;
        long v = Launchers.number(sb.tasksPerNode);
        return v < 0 ? null : new Object[] {v, "#SBATCH --ntasks-per-node (srun reads it from SLURM_NTASKS_PER_NODE)", sb.tasksPerNode};
    }

    /** A Hydra override: trainer.num_nodes=2, +model.tensor_model_parallel_size=4. */
    private static void hydra(Word w, Map<String, Word> out) {
        String t = w.text();
        int plus = t.startsWith("++") ? 2 : t.startsWith("+") ? 1 : 0;
        int eq = t.indexOf('=');
        if (eq <= plus) return;
        String key = t.substring(plus, eq);
        if (HYDRA.containsKey(key)) out.putIfAbsent(key, Launchers.valueOf(w, eq + 1));
    }

    /** Scripts the script runs through srun or bash: {@code srun bash train.sh}, {@code srun ./train.sh}. */
    private static List<Word> srunScripts(Shell.Script script) {
        List<Word> out = new ArrayList<>();
        for (Shell.Command c : script.commands()) {
            for (Word w : c.words()) {
                String t = w.text().toLowerCase(Locale.ROOT);
                if (w.known() && (t.endsWith(".sh") || t.endsWith(".bash") || t.endsWith(".slurm") || t.endsWith(".slrm") || t.endsWith(".sb"))
                        && !t.startsWith("-")) out.add(w);
            }
        }
        return out;
    }
}
