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
     * The NVTE_*_ATTN variables of a job as the launch that names its backend sees them (PAR018 judges them against it): the
     * value in effect at the command that writes the backend ({@link LaunchEnvironment}), not the first statement that
     * {@link JobDraft#env} binds. {@code export NVTE_FUSED_ATTN=0} then {@code =1}, an {@code unset}, an export after the
     * launch or a {@code NAME=value} before another command would otherwise be judged as the value Megatron-Core reads. A
     * variable the script does not set before that command keeps its value in {@code base}, the environment the script
     * starts with (a container's env, SkyPilot's envs; none for a batch script), or is left out; one the launcher sets
     * itself (srun --export, mpirun -x) stays as bound; one of a value gpulint cannot tell is left out (not judged). No
     * change where no script's command writes the backend.
     */
    static void launchEnvironment(JobDraft j, List<Shell.Script> scripts, List<Launchers.EnvSet> launcherSet,
                                  Map<String, Located<String>> base) {
        if (j.attentionBackend == null) return;
        for (Shell.Script script : scripts) {
            int c = LaunchEnvironment.commandAt(script, j.attentionBackend.span());
            if (c < 0) continue;
            Map<String, Shell.Assignment> env = LaunchEnvironment.at(script, c, base.keySet());
            for (String name : AttentionBackendFact.VARIABLES) {
                if (launcherSet.stream().anyMatch(e -> e.name().equals(name))) continue;
                Located<String> v = base.get(name);
                if (env.containsKey(name)) {
                    Shell.Assignment a = env.get(name);
                    v = a == null || a.value() == null || !a.value().known() ? null : new Located<>(a.value().text(), a.value().span());
                }
                if (v == null) j.env.remove(name);
                else if (j.env.containsKey(name) || j.env.size() < Specs.MAX_ENV) j.env.put(name, v);
            }
            return;
        }
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
