package dev.gpulint.bind.adapt;

import dev.gpulint.bind.adapt.shell.Launchers;
import dev.gpulint.bind.adapt.shell.Shell.Word;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs.StatedKind;

/**
 * What a script's launch commands state about its job, written into the job's draft: ranks and ranks per node
 * (mpirun, torchrun, accelerate, deepspeed), GPUs a program asks for itself, environment variables set on the
 * command line, and Megatron-LM's flags. Launchers reads the command lines; this puts what they say into a draft.
 */
final class LaunchStatements {
    private LaunchStatements() {}

    /** The launch commands' statements: ranks, ranks per node, GPUs the program asks for, env, Megatron flags. */
    static void apply(JobDraft j, Launchers.Launch l) {
        long perRank = Math.max(1, Launchers.number(l.ncclTestGpus));
        String np = l.mpiProgram == null ? "mpirun" : l.mpiProgram;
        if (l.mpiRanks != null && Launchers.number(l.mpiRanks) > 0) {
            long v = Launchers.number(l.mpiRanks) * perRank;
            j.state("world", v, np + " " + l.mpiRanksWritten + (perRank > 1 ? " × -g " + perRank : ""), StatedKind.LAUNCHER, l.mpiRanks.span());
        }
        if (l.mpiPerNode != null && Launchers.number(l.mpiPerNode) > 0) {
            j.state("per_node", Launchers.number(l.mpiPerNode) * perRank, np + " " + l.mpiPerNodeWritten
                    + (perRank > 1 ? " × -g " + perRank : ""), StatedKind.LAUNCHER, l.mpiPerNode.span());
        }
        if (l.torchPerNode != null) j.state("per_node", Launchers.number(l.torchPerNode), "torchrun --nproc_per_node", StatedKind.LAUNCHER, l.torchPerNode.span());
        if (l.torchNodes != null) j.state("nodes", Launchers.number(l.torchNodes), "torchrun --nnodes", StatedKind.LAUNCHER, l.torchNodes.span());
        if (l.accelProcesses != null) j.state("world", Launchers.number(l.accelProcesses), "accelerate launch --num_processes", StatedKind.LAUNCHER, l.accelProcesses.span());
        if (l.accelMachines != null) j.state("nodes", Launchers.number(l.accelMachines), "accelerate launch --num_machines", StatedKind.LAUNCHER, l.accelMachines.span());
        if (l.deepspeedGpus != null) j.state("per_node", Launchers.number(l.deepspeedGpus), "deepspeed --num_gpus", StatedKind.LAUNCHER, l.deepspeedGpus.span());
        if (l.deepspeedNodes != null) j.state("nodes", Launchers.number(l.deepspeedNodes), "deepspeed --num_nodes", StatedKind.LAUNCHER, l.deepspeedNodes.span());
        if (l.kokkosGpus != null) j.state("app_gpus_per_node", Launchers.number(l.kokkosGpus), "LAMMPS Kokkos -k on g " + l.kokkosGpus.text(), StatedKind.LAUNCHER, l.kokkosGpus.span());
        // an MPI launcher's -x / -env values; srun --export's are the launch's srun's only (LaunchEnvironment.bind), not a
        // helper step's (srun --ntasks-per-node=1 --export=... mkdir)
        for (Launchers.EnvSet e : l.mpiSets()) if (e.value().known()) j.env(e.name(), e.value().text(), e.value().span(), e.kind().where());
        if (l.deepspeedConfig != null && l.deepspeedConfig.known() && j.deepspeedRef == null) j.deepspeedRef = new Located<>(l.deepspeedConfig.text(), l.deepspeedConfig.span());
        // a serving engine's model (vllm serve --model, sglang --model-path with --tp) is not trained: its shape would
        // price a training step nobody runs
        boolean served = Launchers.SERVING_TP_FLAGS.stream().anyMatch(l.flags::containsKey);
        // the configuration the launch names (--config_file): while no linted file is it (ScriptLinks drops this then), the
        // plan says its settings were not read where it assumes them (JobInputs: the ZeRO stage)
        if (l.configFile != null && l.configFile.known() && j.stated.stream().noneMatch(x -> x.quantity().equals("launch_config"))) {
            j.stated.add(new dev.gpulint.spec.Specs.Stated("launch_config", l.configFile.text(), l.configFile.text(), StatedKind.LAUNCHER,
                    l.configFile.span()));
        }
        // an inference server's launch: `plan` says the job serves a model rather than asking for a training shape (Planner)
        if (l.serving != null && j.stated.stream().noneMatch(x -> x.quantity().equals("serving"))) {
            j.stated.add(new dev.gpulint.spec.Specs.Stated("serving", l.serving, l.serving, StatedKind.LAUNCHER, null));
        }
        for (String f : dev.gpulint.bind.adapt.shell.ModelFlags.FLAGS) {
            Word m = l.modelNames.get(f);
            if (m != null && !served) j.modelNames.add(j.key(f, new Located<>(m.text(), m.span())));
        }
        java.util.Map<String, Word> flags = new java.util.LinkedHashMap<>(l.flags);
        l.planFlags.forEach(flags::putIfAbsent);
        boolean binding = j.tp == null && !l.flags.isEmpty();
        // Megatron's switches are argparse store_true: a word after one ("--bf16 false") or "=word" makes the parser exit
        // ("unrecognized arguments: false", "ignored explicit argument"), so it is read as neither on nor off: SYN002 at the
        // word, and the switch binds nothing (a launch with no Megatron flag, a Hugging Face script's "--bf16 True", is not judged)
        if (binding) {
            for (var e : l.switchWords.entrySet()) {
                Word v = e.getValue();
                if (!v.known()) continue;
                flags.remove(e.getKey());
                DraftValues.refuse(j, v.span(), e.getKey(), v.text(), DraftValues.scriptSwitch(e.getKey()),
                        MegatronAdapter.switchInstead(e.getKey()));
            }
        }
        MegatronAdapter.apply(j, flags, "the launch command", binding);
        // NeMo's dotted overrides keep the key they are written under (as MODEL_ARGS' spelled keys do, MegatronAdapter): a NeMo
        // launch runs NeMo's configuration, not Megatron-LM's argparse (JobInputs.sequenceParallelDefaultFormat reads tp's key)
        if (binding && !l.nemoSpelled.isEmpty()) j.keys.replaceAll((v, k) -> l.nemoSpelled.getOrDefault(k, k));
        // --recompute-modules a b c: beside --recompute-granularity selective (RecomputeModuleReader)
        if (binding) RecomputeModuleReader.words(j, l.recomputeModules, "--recompute-modules");
        FsdpTrainShape.apply(j, l.fsdpTrainFlags);
        Word serving = null;
        for (String f : Launchers.SERVING_TP_FLAGS) if (l.flags.containsKey(f)) serving = l.flags.get(f);
        if (j.tp == null && serving != null) j.tp = MegatronAdapter.located(serving);
    }
}
