package dev.gpulint.bind.adapt;

import dev.gpulint.bind.adapt.shell.Launchers;
import dev.gpulint.bind.adapt.shell.Shell;
import dev.gpulint.bind.adapt.shell.Shell.Word;
import dev.gpulint.facts.AttentionBackendFact;
import dev.gpulint.spec.Specs;
import dev.gpulint.spec.Located;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Megatron-Core's attention backend ({@code --attention-backend}; NeMo 2 and Megatron-Bridge {@code attention_backend},
 * written {@code flash} or {@code AttnBackend.flash}) as the kernel the estimate prices (model.attention.kernel,
 * derive/estimate/AttentionKernel). Megatron-Core's AttnBackend: {@code flash} Transformer Engine's FlashAttention
 * (the flash-attn package: FlashAttention-2, or 3 on Hopper when flash-attn 3 is installed), {@code fused} its cuDNN
 * fused attention, {@code auto} Transformer Engine's own choice (the fused kernel of the calibration), {@code unfused}
 * and {@code local} attention in plain PyTorch ops (Megatron-Core's DotProductAttention: the s² scores through HBM), the
 * kernel {@code unfused}.
 */
final class AttentionBackends {
    private AttentionBackends() {}

    /**
     * The kernel for a written backend, or null (absent, or one the estimate does not price apart: a line of {@code j.unpriced}).
     * A backend Megatron-Core names (flash, fused, unfused, local, auto) is also kept as written in {@code j.attentionBackend},
     * under {@code key}: Megatron-Core checks Transformer Engine's NVTE_*_ATTN variables against it (PAR018).
     */
    static Located<String> kernel(JobDraft j, String key, Located<String> written) {
        if (written == null || written.value() == null) return null;
        String v = written.value().strip().toLowerCase(Locale.ROOT);
        if (v.startsWith("attnbackend.")) v = v.substring("attnbackend.".length());
        if (BACKENDS.contains(v)) j.attentionBackend = j.key(key, new Located<>(v, written.span()));
        switch (v) {
            case "flash":
                j.unpriced.add("attention backend flash (" + key + "): Transformer Engine's FlashAttention, priced as FlashAttention-2"
                        + " (FlashAttention-3 when the flash-attn 3 package is installed on Hopper is not told apart; write"
                        + " model.attention.kernel: flash3 in a native manifest)");
                return j.key(key, new Located<>("flash2", written.span()));
            case "fused", "auto":
                return j.key(key, new Located<>("fused", written.span()));
            case "unfused", "local":
                // Megatron-Core's DotProductAttention: baddbmm, fused scale-mask-softmax, dropout, bmm (derive/estimate/UnfusedAttention)
                return j.key(key, new Located<>("unfused", written.span()));
            default:
                return null;
        }
    }
    /** Megatron-Core's AttnBackend names (megatron/core/transformer/enums.py). */
    private static final List<String> BACKENDS = List.of("flash", "fused", "unfused", "local", "auto");

    /**
     * The NVTE_*_ATTN variables of a job as each launch that names its backend sees them (PAR018 judges them against it): the
     * value in effect at the command that writes the backend ({@link LaunchEnvironment}), not the first statement that
     * {@link JobDraft#env} binds. {@code export NVTE_FUSED_ATTN=0} then {@code =1}, an {@code unset}, an export after the
     * launch or a {@code NAME=value} before another command would otherwise be judged as the value Megatron-Core reads. A
     * variable the script does not set before that command keeps its value in {@code base}, the environment the script
     * starts with (a container's env, SkyPilot's envs, the caller's exports at {@code srun bash train.sh}; none for a batch
     * script), or is unset; one the launcher sets itself (srun --export, mpirun -x) stays as bound; one of a value gpulint
     * cannot tell (a word not {@link Word#known}) is kept apart as unknown, and the others are still judged. The job's env
     * takes the variables as the first such command sees them; {@link JobDraft#backendLaunches} has every such command of
     * that script (another launch after it, with its own environment, is judged on its own). No change where no script's
     * command writes the backend.
     */
    static void launchEnvironment(JobDraft j, List<Shell.Script> scripts, List<Launchers.EnvSet> launcherSet, Map<String, Word> base) {
        if (j.attentionBackend == null) return;
        for (Shell.Script script : scripts) {
            int first = LaunchEnvironment.commandAt(script, j.attentionBackend.span());
            if (first < 0) continue;
            j.backendLaunches = launches(j, script, first, launcherSet, base, true, MAX_LAUNCHES, null);
            return;
        }
    }

    /**
     * The same script run again ({@code srun bash train.sh} a second time, with other exports between): its launches that
     * name the backend, judged with {@code base}, the environment this call starts them with, after those {@code j} already
     * has ({@link JobDraft#backendLaunches}, at most {@link #MAX_LAUNCHES} in all), each with {@code call}, the caller's word
     * that runs it. {@code j.env} stays the first call's.
     */
    static void launchedAgain(JobDraft j, Shell.Script script, List<Launchers.EnvSet> launcherSet, Map<String, Word> base,
                              dev.gpulint.core.Span call) {
        if (j.attentionBackend == null || j.backendLaunches.size() >= MAX_LAUNCHES) return;
        int first = LaunchEnvironment.commandAt(script, j.attentionBackend.span());
        if (first < 0) return;
        List<Specs.BackendLaunch> all = new java.util.ArrayList<>(j.backendLaunches);
        all.addAll(launches(j, script, first, launcherSet, base, false, MAX_LAUNCHES - all.size(), call));
        j.backendLaunches = List.copyOf(all);
    }

    /** The launches of {@code script} from command {@code first} on (at most {@code most}); {@code bind}: the first's variables into j.env. */
    private static List<Specs.BackendLaunch> launches(JobDraft j, Shell.Script script, int first, List<Launchers.EnvSet> launcherSet,
                                                      Map<String, Word> base, boolean bind, int most, dev.gpulint.core.Span call) {
        List<Specs.BackendLaunch> launches = new java.util.ArrayList<>();
        List<Shell.Command> commands = script.commands();
        for (int c = first; c < commands.size() && launches.size() < most; c++) {
            Located<String> backend = c == first ? j.attentionBackend : backend(commands.get(c));
            if (backend == null) continue;
            Map<String, Shell.Assignment> env = LaunchEnvironment.at(script, c, base.keySet(), script == j.script ? j.sbatchExport : null);
            Map<String, Located<String>> known = new java.util.LinkedHashMap<>(), unknown = new java.util.LinkedHashMap<>();
            for (String name : AttentionBackendFact.VARIABLES) {
                if (launcherSet.stream().anyMatch(e -> e.name().equals(name))) {
                    if (j.env.get(name) != null) known.put(name, j.env.get(name));
                    continue;
                }
                Word v = base.get(name);
                if (env.containsKey(name)) {
                    Shell.Assignment a = env.get(name);
                    v = a == null ? null : a.value() != null && literal(a.value()) ? a.value() : new Word("", false, a.nameSpan());
                }
                if (v == null) continue;
                (v.known() ? known : unknown).put(name, new Located<>(v.text(), v.span()));
            }
            if (c == first && bind) {
                for (String name : AttentionBackendFact.VARIABLES) {
                    if (launcherSet.stream().anyMatch(e -> e.name().equals(name))) continue;
                    Located<String> v = known.get(name);
                    if (v == null) j.env.remove(name);
                    else if (j.env.containsKey(name) || j.env.size() < Specs.MAX_ENV) j.env.put(name, v);
                }
            }
            launches.add(new Specs.BackendLaunch(backend, known, unknown, call));
        }
        return launches;
    }

    /**
     * A script's word the process gets exactly as gpulint reads it: known, and its span holding the value alone, bare or
     * quoted (not an expansion such as {@code ${FUSED:-0}}, whose default gpulint reads but the environment may override).
     */
    static boolean literal(Word w) {
        String value = w.text();
        dev.gpulint.core.Span span = w.span();
        if (!w.known() || value.isEmpty() || value.length() > 64 || span == null || span.startLine() != span.endLine()) return false;
        int width = span.endColumn() - span.startColumn(), n = value.codePointCount(0, value.length());
        return width == n || width == n + 2;
    }

    /**
     * The variables of the environment a container or task starts with, for PAR018, where no script of its command names
     * the backend (an exec-form Kubernetes command: {@code [torchrun, ..., --attention-backend=auto]}): one launch that sees
     * them as written. No change where a script's command already gave the launches.
     */
    static void startEnvironment(JobDraft j, Map<String, Word> base) {
        if (j.attentionBackend == null || !j.backendLaunches.isEmpty()) return;
        Map<String, Located<String>> known = new java.util.LinkedHashMap<>(), unknown = new java.util.LinkedHashMap<>();
        for (String name : AttentionBackendFact.VARIABLES) {
            Word v = base.get(name);
            if (v != null) (v.known() ? known : unknown).put(name, new Located<>(v.text(), v.span()));
        }
        j.backendLaunches = List.of(new Specs.BackendLaunch(j.attentionBackend, known, unknown, null));
    }

    /** The most launches of one script PAR018 judges apart (the first {@value} commands that name the backend). */
    static final int MAX_LAUNCHES = 16;

    /**
     * The backend one command names for Megatron-Core ({@code --attention-backend flash} beside one of Megatron-LM's own
     * flags, not under {@code --use-legacy-models}), as {@link MegatronAdapter} reads a script's first; null for any other
     * command.
     */
    private static Located<String> backend(Shell.Command command) {
        Launchers.Launch l = new Launchers.Launch();
        Launchers.scan(command.words(), l);
        Word ab = l.planFlags.get("--attention-backend");
        if (ab == null || !ab.known() || on(l.planFlags.get("--use-legacy-models"))
                || l.flags.keySet().stream().noneMatch(Launchers.MEGATRON_FLAGS::contains)) return null;
        String v = ab.text().strip().toLowerCase(Locale.ROOT);
        if (v.startsWith("attnbackend.")) v = v.substring("attnbackend.".length());
        return BACKENDS.contains(v) ? new Located<>(v, ab.span()) : null;
    }

    /** Megatron's switches that run a flash kernel in the legacy model (Megatron-LM since 2023, Megatron-DeepSpeed). */
    static final List<String> FLASH_SWITCHES = List.of("--use-flash-attn", "--use-flash-attn-v1", "--use-flash-attn-v2",
            "--use-flash-attn-triton");

    /**
     * The kernel a Megatron script runs when it names none (no {@code --attention-backend}): {@code unfused} where the script
     * is one of the legacy model's — {@code --use-legacy-models}, {@code --transformer-impl local}, or
     * {@code --checkpoint-activations} (Megatron-LM's full-recompute switch until mid-2022, replaced by
     * {@code --recompute-activations}/{@code --recompute-granularity}; Megatron-DeepSpeed's to this day) — without one of
     * {@link #FLASH_SWITCHES}: that model's core attention (ParallelAttention / CoreAttention, Megatron-Core's local
     * DotProductAttention) runs baddbmm, the fused scale-mask-softmax, dropout and bmm unless a flash switch is given, and
     * Megatron of 2021–22 had none (flash attention was published in May 2022, Megatron's --use-flash-attn came in 2023).
     * Null otherwise (Transformer Engine's fused kernel, Megatron-Core's default since 2024). A line of {@code j.unpriced}
     * says what was inferred from which flag.
     */
    static Located<String> legacy(JobDraft j, Map<String, Word> flags) {
        for (String f : FLASH_SWITCHES) if (on(flags.get(f))) return null;
        Word because = null;
        String why = null, flag = null;
        Word impl = flags.get("--transformer-impl");
        if (impl != null && impl.known() && impl.text().strip().equalsIgnoreCase("local")) {
            because = impl;
            flag = "--transformer-impl";
            why = "--transformer-impl local (Megatron-Core's local layer spec: DotProductAttention)";
        } else if (on(flags.get("--use-legacy-models"))) {
            because = flags.get("--use-legacy-models");
            flag = "--use-legacy-models";
            why = "--use-legacy-models (the legacy model's CoreAttention)";
        } else if (on(flags.get("--checkpoint-activations"))) {
            because = flags.get("--checkpoint-activations");
            flag = "--checkpoint-activations";
            why = "--checkpoint-activations (Megatron-LM's switch before mid-2022 and Megatron-DeepSpeed's: the legacy model's"
                    + " ParallelAttention)";
        }
        if (because == null) return null;
        j.unpriced.add("attention kernel unfused, inferred from " + why + " without --use-flash-attn: the s² scores through HBM"
                + " (baddbmm, fused scale-mask-softmax, dropout, bmm); --use-flash-attn or --attention-backend states another");
        return j.key(flag, new Located<>("unfused", because.span()));
    }

    static boolean on(Word w) {
        if (w == null || !w.known()) return false;
        String t = w.text().strip().toLowerCase(Locale.ROOT);
        return !t.equals("false") && !t.equals("0");
    }
}
