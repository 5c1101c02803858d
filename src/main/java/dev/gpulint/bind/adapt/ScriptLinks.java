package dev.gpulint.bind.adapt;

import dev.gpulint.bind.adapt.shell.Launchers;
import dev.gpulint.bind.adapt.shell.Shell;
import dev.gpulint.bind.adapt.shell.Shell.Word;
import dev.gpulint.facts.AttentionBackendFact;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs.Stated;
import dev.gpulint.spec.Specs.StatedKind;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The files of one job, linked when they are linted together: a Slurm script and the script it runs
 * ({@code srun bash train.sh}) are one job, whose allocation is the caller's and whose launch is the
 * callee's; a launch script and the torchtitan, nanotron, Fast-LLM or Levanter configuration it passes
 * ({@code --job.config_file}, {@code --config-file}, {@code --config}, {@code --config_path}) state the same GPU count twice, or only the script states it. Files are matched by path, or by base name when only one linted
 * file has it; a reference that matches no file, or several, links nothing.
 */
final class ScriptLinks {
    private ScriptLinks() {}

    /** The formats of a job configuration a launch script passes by a flag (--job.config_file, --config-file, --config). */
    static final Set<String> CONFIG_FORMATS = Set.of(TorchtitanAdapter.FORMAT, NanotronAdapter.FORMAT, FastLlmAdapter.FORMAT,
            LevanterAdapter.FORMAT);

    /**
     * The most scripts one caller runs that are linked ({@code srun bash a.sh}, then {@code srun bash b.sh}, ...): the first
     * is the caller's launch (absorbed), each later one keeps its own job and starts with the caller's environment at its
     * own call; a caller's words past this many calls link nothing more (as {@link AttentionBackends#MAX_LAUNCHES} bounds
     * one script's launches).
     */
    static final int MAX_CALLS = AttentionBackends.MAX_LAUNCHES;

    /** Links the drafts in place; returns the drafts that were merged into another (not built as jobs of their own). */
    static Set<JobDraft> link(List<JobDraft> all) {
        Set<JobDraft> merged = Collections.newSetFromMap(new IdentityHashMap<>());
        Set<JobDraft> seeded = Collections.newSetFromMap(new IdentityHashMap<>());
        for (JobDraft caller : all) {
            if (!caller.format.equals(LaunchScriptAdapter.FORMAT)) continue;
            JobDraft first = null;
            int calls = 0;
            Set<JobDraft> mine = Collections.newSetFromMap(new IdentityHashMap<>());   // the callees this caller linked
            for (Word w : caller.srunScripts) {
                if (calls >= MAX_CALLS) break;
                JobDraft callee = find(all, w.text(), d -> d != caller && d.format.equals(LaunchScriptAdapter.FORMAT)
                        && (!merged.contains(d) || mine.contains(d)));
                if (callee == null || callee.srunScripts.stream().anyMatch(x -> find(all, x.text(), d -> d == caller) != null)) continue;
                calls++;
                if (mine.contains(callee)) {
                    // the same script run again (srun bash train.sh twice, other exports between): its launches are judged
                    // again with the caller's environment at this call, on the job that holds them (the caller's for the
                    // first script, absorbed; the callee's own for a later step)
                    JobDraft judged = callee == first ? caller : callee;
                    if (caller.script != null && callee.script != null) {
                        AttentionBackends.launchedAgain(judged, callee.script, callee.launcherEnv, callerEnvironment(caller, w), w.span());
                    }
                } else if (first == null) {
                    absorb(caller, callee, w);
                    merged.add(callee);
                    mine.add(callee);
                    first = callee;
                } else if (seeded.add(callee)) {
                    // a later step (srun bash a.sh, then srun bash b.sh): its own job, whose launches start with what the
                    // caller's environment holds at its own call
                    mine.add(callee);
                    if (callee.attentionBackend != null && caller.script != null && callee.script != null) {
                        AttentionBackends.launchEnvironment(callee, List.of(callee.script), callee.launcherEnv, callerEnvironment(caller, w));
                    }
                }
            }
        }
        for (JobDraft script : all) {
            if (merged.contains(script) || script.configRef == null) continue;
            JobDraft config = find(all, script.configRef.value(), d -> CONFIG_FORMATS.contains(d.format));
            if (config != null) {
                configuration(script, config);
                script.stated.removeIf(x -> x.quantity().equals("launch_config"));     // read: its settings are the job's
            }
        }
        return merged;
    }

    /** The one draft of {@code ref}'s file among those {@code which} accepts, or null. */
    static JobDraft find(List<JobDraft> all, String ref, Predicate<JobDraft> which) {
        String r = ref.startsWith("./") ? ref.substring(2) : ref;
        String base = r.substring(r.lastIndexOf('/') + 1);
        JobDraft byPath = null, byName = null;
        int paths = 0, names = 0;
        for (JobDraft d : all) {
            if (!which.test(d)) continue;
            if (d.file.equals(r) || d.file.endsWith("/" + r)) { byPath = d; paths++; }
            else if (d.file.equals(base) || d.file.endsWith("/" + base)) { byName = d; names++; }
        }
        if (paths == 1) return byPath;
        return paths == 0 && names == 1 ? byName : null;
    }

    /** The callee's launch becomes the caller's: its statements, and every value the caller does not state. */
    private static void absorb(JobDraft a, JobDraft b, Word call) {
        for (Stated s : b.stated) {
            String where = s.where() + " in " + b.file;
            a.stated.add(new Stated(s.quantity(), s.value(), where, s.kind(), s.span()));
        }
        if (a.nodes == null) a.nodes = b.nodes;
        if (a.gpusPerNode == null) { a.gpusPerNode = b.gpusPerNode; a.gpusPerNodeWhere = b.gpusPerNodeWhere; }
        if (a.tp == null && a.pp == null && a.cp == null && a.dp == null) {
            a.tp = b.tp; a.pp = b.pp; a.cp = b.cp; a.ep = b.ep; a.etp = b.etp; a.dp = b.dp; a.vpp = b.vpp;
            a.sequenceParallel = b.sequenceParallel; a.layersPerVirtualStage = b.layersPerVirtualStage; a.tpCommOverlap = b.tpCommOverlap;
            a.embeddingInSplit = b.embeddingInSplit; a.lossInSplit = b.lossInSplit;
            a.firstStageLayers = b.firstStageLayers; a.lastStageLayers = b.lastStageLayers;
            a.pipelineLayout = b.pipelineLayout; a.stageLayers = b.stageLayers; a.mtpLossStages = b.mtpLossStages;
            a.unknown.addAll(b.unknown);
        }
        if (a.layers == null && a.heads == null && a.hidden == null && a.unknownShape.isEmpty()) {
            a.layers = b.layers; a.heads = b.heads; a.kvHeads = b.kvHeads; a.experts = b.experts; a.hidden = b.hidden;
            a.unknownShape.addAll(b.unknownShape);
        }
        if (a.seqLength == null) a.seqLength = b.seqLength;
        for (String u : b.unpriced) if (!a.unpriced.contains(u)) a.unpriced.add(u);
        a.modelNames.addAll(b.modelNames);
        if (a.micro == null && a.global == null) { a.micro = b.micro; a.global = b.global; }
        for (var e : b.env.entrySet()) a.env.putIfAbsent(e.getKey(), e.getValue());
        if (a.attentionBackend == null && b.attentionBackend != null) {
            // the callee's launch names Megatron-Core's backend (PAR018): it starts with what the caller's environment holds
            // at the call (srun bash train.sh: an export after it, or one unset before it, does not reach it), and its own
            // NVTE_*_ATTN over them (AttentionBackends.launchEnvironment walks the callee's script from there)
            a.attentionBackend = b.attentionBackend;
            List<Launchers.EnvSet> calleeSet = b.launcherEnv;
            for (String name : AttentionBackendFact.VARIABLES) {
                if (calleeSet.stream().anyMatch(e -> e.name().equals(name)) && b.env.containsKey(name)) a.env.put(name, b.env.get(name));
            }
            if (a.script != null && b.script != null) {
                AttentionBackends.launchEnvironment(a, List.of(b.script), calleeSet, callerEnvironment(a, call));
            }
        }
        if (a.deepspeedRef == null) a.deepspeedRef = b.deepspeedRef;
        if (a.configRef == null) a.configRef = b.configRef;
        a.keys.putAll(b.keys);
    }

    /**
     * NVTE_FLASH_ATTN, NVTE_FUSED_ATTN and NVTE_UNFUSED_ATTN as the caller's environment holds them when it runs the callee
     * at {@code call}: its exports before that command ({@link LaunchEnvironment}), or the value its srun sets (srun
     * --export=ALL,NAME=value); a value gpulint cannot read is an unknown word.
     */
    private static Map<String, Word> callerEnvironment(JobDraft a, Word call) {
        Map<String, Word> out = new LinkedHashMap<>();
        int at = LaunchEnvironment.commandAt(a.script, call.span());
        if (at < 0) return out;
        Map<String, Shell.Assignment> env = LaunchEnvironment.at(a.script, at, Set.of(), a.sbatchExport);
        for (String name : AttentionBackendFact.VARIABLES) {
            if (a.launcherEnv.stream().anyMatch(e -> e.name().equals(name))) {
                Located<String> v = a.env.get(name);
                if (v != null) out.put(name, new Word(v.value(), true, v.span()));
                continue;
            }
            if (!env.containsKey(name) || env.get(name) == null) continue;
            Shell.Assignment s = env.get(name);
            out.put(name, s.value() != null && AttentionBackends.literal(s.value()) ? s.value() : new Word("", false, s.nameSpan()));
        }
        return out;
    }

    /**
     * The script's GPU count is the configuration's: the configuration gets the script's nodes and GPUs
     * per node (so the parallel, batch and memory rules see the whole job), and the script's GPU count
     * as a statement beside its degrees' product. When that product is written and disagrees, the
     * disagreement is CONSIST007's, and the GPU count is not bound (PAR001 would report it again).
     */
    private static void configuration(JobDraft script, JobDraft toml) {
        long world = JobDraft.product(script.nodes, script.gpusPerNode);
        if (world <= 0) return;
        String where = "the launch script " + script.file + " (" + script.nodes.value() + (script.nodes.value() == 1 ? " node × " : " nodes × ") + script.gpusPerNode.value()
                + " GPUs: " + script.keys.getOrDefault(script.nodes, "nodes") + ", " + script.gpusPerNodeWhere + ")";
        toml.stated.add(new Stated("world", String.valueOf(world), where, StatedKind.RESOURCE, script.nodes.span()));
        boolean disagrees = false;
        for (Stated s : new ArrayList<>(toml.stated)) {
            if (s.quantity().equals("world") && s.kind() == StatedKind.CONFIG && !s.value().equals(String.valueOf(world))) disagrees = true;
        }
        if (disagrees || toml.nodes != null || toml.gpusPerNode != null) return;
        toml.nodes = toml.key(script.keys.getOrDefault(script.nodes, "nodes"), script.nodes);
        toml.gpusPerNode = script.gpusPerNode;
        toml.gpusPerNodeWhere = script.gpusPerNodeWhere + " (launch script " + script.file + ")";
        if (toml.gpuModel == null) toml.gpuModel = script.gpuModel;
    }
}
