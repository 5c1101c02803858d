package dev.gpulint.bind.adapt.shell;

import dev.gpulint.bind.adapt.shell.Shell.Command;
import dev.gpulint.bind.adapt.shell.Shell.Word;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the launch commands of a script say about a job: mpirun/mpiexec ranks and exported
 * variables, torchrun/torch.distributed.run and accelerate process counts, GPUs a program asks
 * for itself (LAMMPS Kokkos {@code -k on g N}, nccl-tests {@code -g N}), and Megatron-LM flags.
 */
public final class Launchers {

    /** An environment variable set on a launcher's command line (mpirun -x NAME=VALUE, srun --export=ALL,NAME=VALUE), by {@code kind}. */
    public record EnvSet(String name, Word value, Kind kind, dev.gpulint.core.Span nameSpan) {
        /** The same set with a value gpulint cannot know (its text and place kept, for messages). */
        EnvSet unknown() { return new EnvSet(name, new Word(value.text(), false, value.span()), kind, nameSpan); }
    }

    /**
     * Which launcher option sets an {@link EnvSet}, and the words messages name it by ({@link #where}). The MPI launchers'
     * own values go over the environment they start with (LaunchEnvironment.launcherSets); srun's list is read where its
     * command's environment is (LaunchEnvironment.at: with ALL the caller's exported value wins).
     */
    public enum Kind {
        MPIRUN_X("mpirun -x"), MPIEXEC_ENV("mpiexec -env"), MPIEXEC_GENV("mpiexec -genv"), SRUN_EXPORT("srun --export");

        private final String where;

        Kind(String where) { this.where = where; }

        /** The option as messages name it: "mpirun -x", "srun --export". */
        public String where() { return where; }

        /** Set by an MPI launcher (mpirun -x, mpiexec -env / -genv): its value goes over the environment mpirun starts with. */
        public boolean mpi() { return this != SRUN_EXPORT; }
    }

    /** What one script says. Each field is the first statement of it; null when not stated. */
    public static final class Launch {
        public Word mpiRanks, mpiPerNode, torchPerNode, torchNodes, accelProcesses, accelMachines;
        public Word kokkosGpus, ncclTestGpus, deepspeedGpus, deepspeedNodes;
        /** The DeepSpeed configuration a training script is given (--deepspeed_config ds.json, --deepspeed ds.json). */
        public Word deepspeedConfig;
        /** The job configuration a training program is given (torchtitan --job.config_file x.toml, --config_file). */
        public Word configFile;
        /** An inference server the script starts (SERVING_LAUNCHERS), as its launcher is written; null when none. */
        public String serving;
        public String mpiProgram;
        /** The options as written, for messages: "-np 64", "--map-by ppr:8:node". */
        public String mpiRanksWritten, mpiPerNodeWritten;
        public final List<EnvSet> env = new ArrayList<>();
        /** The sets of the MPI launchers (mpirun -x, mpiexec -env / -genv), which go over the environment they start with:
         *  srun --export's are read at the srun command, as part of its environment (LaunchEnvironment.at). */
        public List<EnvSet> mpiSets() { return env.stream().filter(e -> e.kind().mpi()).toList(); }
        /** The scripts of a container-style command ({@link #command}), in order. */
        public final List<Shell.Script> scripts = new ArrayList<>();
        /** Megatron-LM flags (and a few serving engines' tensor-parallel flags), first value each. */
        public final Map<String, Word> flags = new LinkedHashMap<>();
        /** The flags of {@link #flags} written as NeMo's dotted overrides (model.tensor_model_parallel_size=2): the key as written. */
        public final Map<String, String> nemoSpelled = new java.util.HashMap<>();
        /** Megatron-LM's flags of the model and precision that only the estimate reads (--ffn-hidden-size, --bf16,
         *  --grad-reduce-in-bf16...), first value each: they do not make a script a launch (--bf16 is also Hugging Face's). */
        public final Map<String, Word> planFlags = new LinkedHashMap<>();
        /** Megatron-LM's switches (argparse store_true: --bf16, --sequence-parallel, --use-distributed-optimizer...) written
         *  with a word after them ({@code --bf16 false}, {@code --bf16=true}), first each: the word as written. Megatron's
         *  parser refuses both forms, so a launch that is Megatron's binds none of them (LaunchStatements: SYN002 at the word). */
        public final Map<String, Word> switchWords = new LinkedHashMap<>();
        /** Megatron's {@code --recompute-modules} (argparse nargs='*'): the words after it up to the next option, first
         *  occurrence (null: not written). */
        public List<Word> recomputeModules;
        /** Where the command names its model, by flag ({@link ModelFlags#FLAGS}), first value each. */
        public final Map<String, Word> modelNames = new LinkedHashMap<>();
        /** The model flags of awsome-distributed-training's FSDP program ({@link FsdpTrainFlags}), first value each. */
        public final Map<String, Word> fsdpTrainFlags = new LinkedHashMap<>();
        public boolean any() {
            return mpiRanks != null || mpiPerNode != null || torchPerNode != null || torchNodes != null || accelProcesses != null
                    || kokkosGpus != null || ncclTestGpus != null || deepspeedGpus != null || !flags.isEmpty() || !env.isEmpty();
        }
    }

    /** Megatron-LM's flags that carry the numbers gpulint checks. */
    public static final Set<String> MEGATRON_FLAGS = Set.of("--tensor-model-parallel-size", "--pipeline-model-parallel-size",
            "--context-parallel-size", "--expert-model-parallel-size", "--expert-tensor-parallel-size",
            "--num-layers-per-virtual-pipeline-stage", "--virtual-pipeline-model-parallel-size", "--num-layers",
            "--num-attention-heads", "--num-query-groups", "--group-query-attention", "--micro-batch-size",
            "--global-batch-size", "--seq-length", "--num-experts", "--sequence-parallel", "--hidden-size",
            "--data-parallel-size", "--use-distributed-optimizer", "--pipeline-model-parallel-layout",
            "--decoder-first-pipeline-num-layers", "--decoder-last-pipeline-num-layers",
            "--num-virtual-stages-per-pipeline-rank", "--account-for-embedding-in-pipeline-split",
            "--account-for-loss-in-pipeline-split", "--use-tp-pp-dp-mapping");
    /** Megatron-LM's flags that only `gpulint plan` reads; the switches among them are {@link #PLAN_SWITCHES}. */
    public static final Set<String> PLAN_FLAGS = Set.of("--ffn-hidden-size", "--kv-channels", "--vocab-size", "--swiglu",
            "--untie-embeddings-and-output-weights", "--fp8-format", "--fp8-recipe", "--fp4-format", "--fp4-recipe", "--bf16", "--fp16",
            "--recompute-granularity", "--step-batch-size-schedule",
            "--recompute-activations", "--grad-reduce-in-bf16", "--cpu-offloading", "--cpu-offloading-num-layers",
            "--optimizer-cpu-offload", "--optimizer-offload-fraction", "--moe-router-topk", "--moe-ffn-hidden-size",
            "--moe-shared-expert-intermediate-size", "--moe-layer-freq", "--moe-expert-capacity-factor", "--moe-pad-expert-input-to-capacity",
            "--moe-token-dispatcher-type", "--moe-flex-dispatcher-backend", "--moe-enable-deepep", "--overlap-moe-expert-parallel-comm", "--moe-grouped-gemm", "--window-size",
            "--moe-router-num-groups", "--moe-router-group-topk", "--window-attn-skip-freq", "--multi-latent-attention", "--kv-lora-rank", "--q-lora-rank", "--qk-head-dim",
            "--qk-pos-emb-head-dim", "--v-head-dim", "--tp-comm-overlap", "--attention-backend", "--fp8-param-gather",
            "--first-last-layers-bf16", "--num-layers-at-start-in-bf16", "--num-layers-at-end-in-bf16", "--is-hybrid-model",
            "--hybrid-layer-pattern", "--hybrid-override-pattern", "--mamba-num-heads", "--mamba-head-dim", "--mamba-state-dim",
            "--mamba-num-groups", "--linear-num-key-heads", "--linear-num-value-heads", "--linear-key-head-dim",
            "--linear-value-head-dim", "--linear-conv-kernel-dim", "--mtp-num-layers", "--checkpoint-activations", "--use-legacy-models",
            "--transformer-impl", "--use-flash-attn", "--use-flash-attn-v1", "--use-flash-attn-v2", "--use-flash-attn-triton", "--overlap-param-gather-with-optimizer-step",
            "--variable-seq-lengths", "--cross-entropy-loss-fusion", "--cross-entropy-fusion-impl");
    private static final Set<String> PLAN_SWITCHES = Set.of("--is-hybrid-model", "--swiglu", "--untie-embeddings-and-output-weights", "--bf16", "--fp16",
            "--recompute-activations", "--grad-reduce-in-bf16", "--cpu-offloading", "--optimizer-cpu-offload",
            "--moe-pad-expert-input-to-capacity", "--moe-enable-deepep",
            "--overlap-moe-expert-parallel-comm", "--moe-grouped-gemm", "--multi-latent-attention", "--tp-comm-overlap",
            "--fp8-param-gather", "--first-last-layers-bf16", "--checkpoint-activations", "--use-legacy-models", "--use-flash-attn",
            "--use-flash-attn-v1", "--use-flash-attn-v2", "--use-flash-attn-triton", "--overlap-param-gather-with-optimizer-step",
            "--variable-seq-lengths", "--cross-entropy-loss-fusion");
    /** NeMo's names (model.*, model.config.*, trainer.strategy.*, data.*) of the quantities Megatron's flags carry. */
    private static final Map<String, String> NEMO_NAMES = Map.ofEntries(
            Map.entry("tensor_model_parallel_size", "--tensor-model-parallel-size"),
            Map.entry("pipeline_model_parallel_size", "--pipeline-model-parallel-size"),
            Map.entry("context_parallel_size", "--context-parallel-size"),
            Map.entry("expert_model_parallel_size", "--expert-model-parallel-size"),
            Map.entry("expert_tensor_parallel_size", "--expert-tensor-parallel-size"),
            Map.entry("virtual_pipeline_model_parallel_size", "--virtual-pipeline-model-parallel-size"),
            Map.entry("sequence_parallel", "--sequence-parallel"), Map.entry("num_layers", "--num-layers"),
            Map.entry("num_attention_heads", "--num-attention-heads"), Map.entry("num_query_groups", "--num-query-groups"),
            Map.entry("num_moe_experts", "--num-experts"), Map.entry("hidden_size", "--hidden-size"),
            Map.entry("micro_batch_size", "--micro-batch-size"), Map.entry("global_batch_size", "--global-batch-size"),
            Map.entry("seq_length", "--seq-length"), Map.entry("encoder_seq_length", "--seq-length"));
    /** The dotted prefixes under which NeMo 1 and NeMo 2 (recipes, Megatron's gpt-nemo test cases) write them. */
    private static final List<String> NEMO_PREFIXES = List.of("trainer.strategy.", "strategy.", "model.config.", "model.", "data.");

    /**
     * The Megatron flag a NeMo dotted key stands for ({@code trainer.strategy.tensor_model_parallel_size},
     * {@code --model.num_layers}, {@code ++data.micro_batch_size} → {@code --tensor-model-parallel-size}...);
     * null for any other key.
     */
    public static String nemoFlag(String key) {
        String k = key.startsWith("--") || key.startsWith("++") ? key.substring(2) : key.startsWith("+") ? key.substring(1) : key;
        for (String prefix : NEMO_PREFIXES) {
            if (k.startsWith(prefix)) return NEMO_NAMES.get(k.substring(prefix.length()));
        }
        return null;
    }

    /**
     * The launchers of the inference servers jobs run in the corpora's shapes, by module ({@code python -m
     * sglang.launch_server}, {@code python -m vllm.entrypoints.openai.api_server}) or program ({@code vllm serve},
     * {@code trtllm-serve}): such a job serves a model, it trains none (what `plan` prices).
     */
    static final Set<String> SERVING_MODULES = Set.of("sglang.launch_server", "vllm.entrypoints.openai.api_server",
            "vllm.entrypoints.api_server");

    /** The inference server a command starts, as written ("sglang.launch_server", "vllm serve"), or null. */
    static String serving(List<Word> w, int i) {
        String t = w.get(i).text();
        String prog = Shell.program(t);
        if (SERVING_MODULES.contains(t) && i > 0 && w.get(i - 1).text().equals("-m")) return t;
        if (prog.equals("vllm") && i + 1 < w.size() && w.get(i + 1).text().equals("serve")) return "vllm serve";
        if (prog.equals("trtllm-serve")) return "trtllm-serve";
        return null;
    }

    /** Serving engines' spellings of tensor parallelism (vLLM, SGLang). */
    public static final Set<String> SERVING_TP_FLAGS = Set.of("--tensor-parallel-size", "--tp-size", "--tp");
    private static final Set<String> BOOLEAN_FLAGS = Set.of("--group-query-attention", "--sequence-parallel",
            "--use-distributed-optimizer", "--account-for-embedding-in-pipeline-split", "--account-for-loss-in-pipeline-split",
            "--use-tp-pp-dp-mapping");

    private Launchers() {}

    public static Launch scan(Shell.Script script) {
        Launch l = new Launch();
        for (Command c : script.commands()) scan(c.words(), l);
        return l;
    }

    public static void scan(List<Word> w, Launch l) {
        for (int i = 0; i < w.size(); i++) {
            String t = w.get(i).text();
            String prog = Shell.program(t);
            if (l.serving == null) l.serving = serving(w, i);
            if (prog.equals("mpirun") || prog.equals("mpiexec") || prog.equals("orterun") || prog.equals("mpiexec.hydra")) {
                if (l.mpiProgram == null) l.mpiProgram = prog;
                i = mpi(w, i + 1, l) - 1;
                continue;
            }
            if (prog.equals("srun")) SrunExport.scan(w, i + 1, l);
            // hyperpodrun: SageMaker HyperPod's elastic agent, which takes every torchrun argument (PyPI hyperpod-elastic-agent)
            if (prog.equals("torchrun") || prog.equals("hyperpodrun") || ((t.equals("torch.distributed.run") || t.equals("torch.distributed.launch"))
                    && i > 0 && w.get(i - 1).text().equals("-m"))) {
                torch(w, i + 1, l);
                continue;
            }
            if (prog.equals("accelerate") && i + 1 < w.size() && w.get(i + 1).text().equals("launch")) {
                for (int j = i + 2; j < w.size(); j++) {
                    Word v = optionValue(w, j, "--num_processes", "--num-processes");
                    if (v != null && l.accelProcesses == null) l.accelProcesses = v;
                    Word m = optionValue(w, j, "--num_machines", "--num-machines");
                    if (m != null && l.accelMachines == null) l.accelMachines = m;
                }
                continue;
            }
            if (prog.equals("deepspeed") && !t.endsWith(".json")) {
                for (int j = i + 1; j < w.size(); j++) {
                    Word v = optionValue(w, j, "--num_gpus", "--num-gpus");
                    if (v != null && l.deepspeedGpus == null) l.deepspeedGpus = v;
                    Word m = optionValue(w, j, "--num_nodes", "--num-nodes");
                    if (m != null && l.deepspeedNodes == null) l.deepspeedNodes = m;
                }
                continue;
            }
            if (prog.endsWith("_perf") && l.ncclTestGpus == null) {
                for (int j = i + 1; j < w.size(); j++) {
                    Word v = optionValue(w, j, "-g", "--ngpus");
                    if (v != null) { l.ncclTestGpus = v; break; }
                }
            }
            if (t.equals("-k") && i + 2 < w.size() && w.get(i + 1).text().equals("on") && l.kokkosGpus == null) {
                for (int j = i + 2; j + 1 < w.size(); j += 2) {
                    String k = w.get(j).text();
                    if (k.equals("g")) { l.kokkosGpus = w.get(j + 1); break; }
                    if (!k.equals("t") && !k.equals("d")) break;
                }
            }
            Word ds = optionValue(w, i, "--deepspeed_config", "--deepspeed-config", "--deepspeed");
            // a file the script names by an unknown variable ($script_dir/ds_config.json) is kept: a here-document may write it
            if (ds != null && l.deepspeedConfig == null && ds.text().endsWith(".json")) l.deepspeedConfig = ds;
            // torchtitan's --job.config_file, nanotron's --config-file, Fast-LLM's --config, Levanter's --config_path
            Word cf = optionValue(w, i, "--job.config_file", "--job.config-file", "--config_file", "--config-file", "--config", "--config_path");
            if (cf != null && l.configFile == null && cf.known() && !cf.text().startsWith("-")) l.configFile = cf;
            ModelFlags.scan(w, i, l.modelNames);
            FsdpTrainFlags.scan(w, i, l.fsdpTrainFlags);
            flag(w, i, l);
        }
    }

    private static void flag(List<Word> w, int i, Launch l) {
        String t = w.get(i).text();
        int eq = t.indexOf('=');
        // NeMo's dotted overrides: --trainer.strategy.tensor_model_parallel_size 2, model.num_layers=12 (Hydra)
        String nemo = nemoFlag(eq > 0 ? t.substring(0, eq) : t);
        if (!t.startsWith("--") && (nemo == null || eq < 0)) return;
        String name = t, value = null;
        Word valueWord = null;
        if (eq > 0) {
            name = t.substring(0, eq);
            value = t.substring(eq + 1);
        }
        if (name.equals("--recompute-modules") && nemo == null) {
            if (l.recomputeModules != null) return;
            l.recomputeModules = new ArrayList<>();
            if (value != null) { if (!value.isEmpty()) l.recomputeModules.add(valueOf(w.get(i), eq + 1)); }
            else for (int k = i + 1; k < w.size() && !w.get(k).text().startsWith("-"); k++) l.recomputeModules.add(w.get(k));
            return;
        }
        if (nemo != null) {
            name = nemo;
            if (value == null && name.equals("--sequence-parallel") && i + 1 < w.size() && !w.get(i + 1).text().startsWith("-")) {
                if (!l.flags.containsKey(name)) l.flags.put(name, w.get(i + 1));
                return;
            }
        }
        if (PLAN_FLAGS.contains(name)) {
            Word v = value != null ? valueOf(w.get(i), eq + 1) : PLAN_SWITCHES.contains(name) ? switchWord(w, i)
                    : i + 1 < w.size() && !w.get(i + 1).text().startsWith("--") ? w.get(i + 1) : null;
            if (v != null) l.planFlags.putIfAbsent(name, v);
            if (v != null && nemo == null && PLAN_SWITCHES.contains(name) && v.span() != w.get(i).span()) l.switchWords.putIfAbsent(name, v);
            return;
        }
        if (!MEGATRON_FLAGS.contains(name) && !SERVING_TP_FLAGS.contains(name)) return;
        if (l.flags.containsKey(name)) return;
        if (nemo != null) l.nemoSpelled.put(name, eq > 0 ? t.substring(0, eq) : t);
        Word here = w.get(i);
        if (value != null) {
            valueWord = valueOf(here, eq + 1);
        } else if (BOOLEAN_FLAGS.contains(name)) {
            valueWord = switchWord(w, i);
        } else if (i + 1 < w.size() && !w.get(i + 1).text().startsWith("--")) {
            valueWord = w.get(i + 1);
        }
        if (valueWord != null && nemo == null && BOOLEAN_FLAGS.contains(name) && valueWord.span() != here.span()) {
            l.switchWords.putIfAbsent(name, valueWord);
        }
        if (valueWord != null) l.flags.put(name, valueWord);
    }

    /**
     * A switch written bare reads "true"; a word of letters after it ({@code --tp-comm-overlap maybe}, {@code --bf16 false})
     * is taken as its value, for the adapter to judge: Megatron's parser takes no value after a switch, so such a word is
     * never a program argument of its own.
     */
    private static Word switchWord(List<Word> w, int i) {
        Word next = i + 1 < w.size() ? w.get(i + 1) : null;
        if (next != null && next.known() && SWITCH_VALUE.matcher(next.text()).matches()) return next;
        return new Word("true", true, w.get(i).span());
    }

    private static final java.util.regex.Pattern SWITCH_VALUE = java.util.regex.Pattern.compile("[A-Za-z]{1,32}");

    /** mpirun's options up to the program it starts; returns the index of that program. */
    private static int mpi(List<Word> w, int i, Launch l) {
        Map<String, EnvSet> sets = new LinkedHashMap<>();    // this command's variables, one a name (mpiSet)
        int program = mpiOptions(w, i, l, sets);
        l.env.addAll(sets.values());
        return program;
    }

    private static int mpiOptions(List<Word> w, int i, Launch l, Map<String, EnvSet> sets) {
        for (; i < w.size(); i++) {
            String t = w.get(i).text();
            if (!t.startsWith("-")) {
                // a word that is not an option ends mpirun's options (its own option values were consumed below)
                return i;
            }
            Word next = i + 1 < w.size() ? w.get(i + 1) : null;
            switch (t) {
                case "-np", "-n", "--np", "-c", "--n" -> {
                    if (l.mpiRanks == null && next != null) { l.mpiRanks = next; l.mpiRanksWritten = t + " " + next.text(); }
                    i++;
                }
                case "-N", "-npernode", "--npernode", "-ppn", "--ppn", "-perhost" -> {
                    if (l.mpiPerNode == null && next != null) { l.mpiPerNode = next; l.mpiPerNodeWritten = t + " " + next.text(); }
                    i++;
                }
                case "--map-by", "-map-by" -> {
                    if (next != null && next.text().toLowerCase(java.util.Locale.ROOT).matches("ppr:[0-9]+:node.*") && l.mpiPerNode == null) {
                        String n = next.text().split(":")[1];
                        l.mpiPerNode = new Word(n, next.known(), next.span());
                        l.mpiPerNodeWritten = t + " " + next.text();
                    }
                    i++;
                }
                case "-x" -> {
                    if (next != null) {
                        int eq = next.text().indexOf('=');
                        if (eq > 0) {
                            String name = next.text().substring(0, eq);
                            mpiSet(sets, new EnvSet(name, valueOf(next, eq + 1), Kind.MPIRUN_X, next.span()));
                        } else {
                            // -x NAME passes mpirun's own value on, over an earlier -x NAME=value where mpirun's environment
                            // has NAME, else the earlier stays (Open MPI 4 create_app: getenv, overwrite, else a warning; 5,
                            // openpmix/prrte src/mca/schizo/ompi/schizo_ompi.c process_envar: getenv, else the prior entry
                            // stays): which, gpulint cannot tell (the caller's environment), so the value is unknown
                            EnvSet prior = sets.get(next.text());
                            if (prior != null) {
                                sets.put(prior.name(), prior.unknown());
                            }
                        }
                    }
                    i++;
                }
                case "-mca", "--mca", "-gmca", "--gmca" -> i += 2;
                case "-H", "--host", "-host", "-hostfile", "--hostfile", "-machinefile", "--machinefile", "-bind-to", "--bind-to",
                        "-rank-by", "--rank-by", "-wdir", "--wdir", "-genv", "-env", "-f", "--prefix", "-output-filename",
                        "--output-filename", "--report-bindings-file", "-launcher", "-bootstrap", "-iface", "-rf", "--rankfile" -> {
                    if ((t.equals("-genv") || t.equals("-env")) && i + 2 < w.size()) {
                        mpiSet(sets, new EnvSet(w.get(i + 1).text(), w.get(i + 2), t.equals("-env") ? Kind.MPIEXEC_ENV : Kind.MPIEXEC_GENV,
                                w.get(i + 1).span()));
                        i += 2;
                    } else {
                        i++;
                    }
                }
                default -> {
                    // a flag without a value (--allow-run-as-root, --tag-output, ...), or one we do not know
                }
            }
        }
        return i;
    }

    /**
     * One MPI launcher option's variable, over an earlier one of the same name on the same command ({@code sets}, in the
     * order of each name's first statement; a map, as a command may hold 100,000 of them), as the launcher applies them:
     * the last wins. Open MPI's mpirun takes each {@code -x} in order and
     * "overwrite[s] any prior entry" (open-mpi/ompi orte/orted/orted_submit.c, create_app: {@code opal_setenv(param, value,
     * true, &app->env)}); MPICH's Hydra (Intel MPI's mpiexec.hydra too) appends each {@code -env} / {@code -genv} to its list
     * and, for a name already in it, "just update[s] it" (pmodels/mpich src/pm/hydra utils/env/env.c,
     * HYDU_append_env_to_list). A name both {@code -env} (the executable's list) and {@code -genv} (the global one) set is
     * kept with a value gpulint does not know: which list the launcher applies last is not read here.
     */
    private static void mpiSet(Map<String, EnvSet> sets, EnvSet e) {
        EnvSet prior = sets.get(e.name());
        boolean mixed = prior != null && prior.kind() != e.kind() && prior.kind() != Kind.MPIRUN_X && e.kind() != Kind.MPIRUN_X;
        if (mixed) e = e.unknown();
        sets.put(e.name(), e);
    }

    private static void torch(List<Word> w, int i, Launch l) {
        for (; i < w.size(); i++) {
            Word v = optionValue(w, i, "--nproc_per_node", "--nproc-per-node");
            if (v != null && l.torchPerNode == null) l.torchPerNode = v;
            Word n = optionValue(w, i, "--nnodes");
            if (n != null && l.torchNodes == null) l.torchNodes = n;
            String t = w.get(i).text();
            if (!t.startsWith("-") && (t.endsWith(".py") || t.equals("-m"))) return;
        }
    }

    /** The value of option {@code names} at w[i], written "--opt value" or "--opt=value"; null if w[i] is not it. */
    public static Word optionValue(List<Word> w, int i, String... names) {
        String t = w.get(i).text();
        for (String n : names) {
            if (t.equals(n) && i + 1 < w.size()) return w.get(i + 1);
            if (t.startsWith(n + "=")) return valueOf(w.get(i), n.length() + 1);
        }
        return null;
    }

    /**
     * A container-style command: a list of words (an item after {@code -c}, or one of several lines,
     * is a script of its own) or one script. Scripts are scanned into {@code l} at once, their
     * exports added to {@code exports}; plain words are added to {@code words}, for the caller to
     * scan together with the rest of the command line (command and args are one line).
     */
    public static void command(dev.gpulint.tree.Node n, String source, Launch l, List<Word> words, List<Shell.Assignment> exports) {
        if (n instanceof dev.gpulint.tree.ScalarNode s && !s.isNull()) {
            script(s, source, l, exports);
        } else if (n instanceof dev.gpulint.tree.ListNode list) {
            // command: ["/bin/bash", "-c"] with the script in args: the -c carries over to the next list
            boolean dashC = !words.isEmpty() && shellDashC(words.get(words.size() - 1).text());
            for (dev.gpulint.tree.Node item : list.items()) {
                if (!(item instanceof dev.gpulint.tree.ScalarNode s)) continue;
                if (dashC || s.text().contains("\n")) { script(s, source, l, exports); dashC = false; continue; }
                words.add(new Word(s.text(), !s.text().contains("$"), s.span()));
                dashC = shellDashC(s.text());
            }
        }
    }

    /** A shell's option word that ends in -c: -c, -lc, -ec, -xc (the next word is the script). */
    public static boolean shellDashC(String t) {
        return t.matches("-[a-z]{0,3}c");
    }

    private static void script(dev.gpulint.tree.ScalarNode s, String source, Launch l, List<Shell.Assignment> exports) {
        Shell.Script sc = Shell.parse(ScalarText.of(source, s), java.util.Map.of());
        l.scripts.add(sc);
        for (Command c : sc.commands()) scan(c.words(), l);
        for (Shell.Assignment a : sc.assignments()) if (a.exported()) exports.add(a);
    }

    /** The part of a word after its first {@code skip} characters (--flag=value), placed after them when the word is on one line. */
    public static Word valueOf(Word x, int skip) {
        return WordParts.part(x, skip, x.text().length());
    }

    /** Whether a word's value is written as digits alone, of any length (a value a schema field bounds: see TreeValues.whole). */
    public static boolean digits(Word w) {
        return w != null && w.known() && w.text().trim().matches("[0-9]+");
    }

    /** A word's value as a whole number, or -1 when unknown or not a number (a range 1:4, "auto", a placeholder). */
    public static long number(Word w) {
        if (w == null || !w.known()) return -1;
        String t = w.text().trim();
        return t.matches("[0-9]{1,12}") ? Long.parseLong(t) : -1;
    }
}
