package dev.gpulint.derive.env;

import dev.gpulint.core.TextEdit;
import dev.gpulint.derive.Facts;
import dev.gpulint.derive.Resolved;
import dev.gpulint.derive.nccl.EnvLines;
import dev.gpulint.facts.AttentionBackendFact;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs;
import dev.gpulint.core.Span;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * PAR018's analysis (derive.env: a job's environment read against its launch's own settings; NCCL's variables are
 * derive.nccl's): a job whose file names Megatron-Core's attention backend (Specs.Attention.backend: Megatron-LM's
 * {@code --attention-backend}, NeMo 2's and Megatron-Bridge's {@code attention_backend}) beside Transformer Engine's
 * NVTE_FLASH_ATTN, NVTE_FUSED_ATTN and NVTE_UNFUSED_ATTN in its environment ({@link AttentionBackendFact}).
 *
 * <p>Only a written backend is judged. Megatron-Core's {@code LanguageModule._set_attention_backend}
 * (megatron/core/models/common/language_module/language_module.py, NVIDIA/Megatron-LM at 00c2c0ad; not yet at 3d5f704c) asserts each variable
 * unset or the backend's value, and its default is auto, so a job that names none fails the same way on a Megatron-Core that
 * has the check; but jobs that ran set these variables on stacks older than the check (NVIDIA's DGX Cloud Grok-1 recipe
 * NVTE_FUSED_ATTN=0; NeMo 2's first performance scripts, scripts/llm/performance/utils.py, NVTE_FLASH_ATTN=0, which
 * scripts/performance/executors.py later set to 1 "needed to enable cuDNN fused attention"), and gpulint cannot date the
 * stack a job runs. The flag, the config field and the check come with the AttnBackend enum: the assert's own text tells
 * the user to "Use the --attention-backend argument", and every Megatron-Core version read that has the enum has the check.
 * A value gpulint cannot read (empty, a shell expansion, a YAML value Kubernetes refuses) is not judged and is named as
 * unknown; the known ones are still judged. Each launch command of a script that names the backend is judged with the
 * environment it sees (Specs.Attention#launches). In a launch script the
 * three variables are bound as the command that names the backend runs with them (bind.adapt's LaunchEnvironment: the last
 * export before it, none after an unset, its own NAME=value prefix first), not as the script first sets them.
 */
public final class AttentionBackendAnalysis {
    private AttentionBackendAnalysis() {}

    public static void job(Resolved.Job r, Facts out) {
        Specs.Job j = r.spec();
        Specs.Attention a = j.model() == null ? null : j.model().attention();
        Located<String> backend = a == null ? null : a.backend();
        // only the adapters of Megatron's formats write it: Megatron-LM's flags in any launch (a Slurm script, a Kubernetes
        // container's command, a Megatron-LM test case), NeMo 2's and Megatron-Bridge's configurations
        if (backend == null || backend.value() == null) return;
        List<Specs.BackendLaunch> launches = a.launches();
        if (launches.isEmpty()) {
            // the job's env is what its one launch sees (a Megatron-LM test case's ENV_VARS, a NeMo 2 or Bridge recipe)
            if (j.env() == null || j.env().isEmpty()) return;
            Map<String, Located<String>> known = new LinkedHashMap<>(), unknown = new LinkedHashMap<>();
            for (String name : AttentionBackendFact.VARIABLES) {
                Located<String> v = j.env().get(name);
                if (v == null || v.value() == null) continue;
                (literal(v.value().strip(), v.span()) ? known : unknown).put(name, v);
            }
            launches = List.of(new Specs.BackendLaunch(backend, known, unknown, null));
        }
        String key = j.origin() != null && j.origin().key(Specs.Origin.ATTENTION_BACKEND) != null
                ? j.origin().key(Specs.Origin.ATTENTION_BACKEND) : "--attention-backend";
        Set<Span> reported = new HashSet<>();
        for (int k = 0; k < launches.size(); k++) judge(r, key, launches.get(k), k + 1, reported, out);
    }

    /**
     * One launch: the known variables against its backend (one unknown does not silence the others: the job stops on a known
     * one that disagrees whatever the unknown holds). A setting an earlier launch's finding already stands at is reported at
     * this launch's backend instead (at the caller's command where the script is run again: its backend is the earlier
     * run's), with no second removal.
     */
    private static void judge(Resolved.Job r, String key, Specs.BackendLaunch launch, int ordinal, Set<Span> reported, Facts out) {
        Specs.Job j = r.spec();
        String b = launch.backend().value();
        List<AttentionBackendFact.Setting> disagreeing = new ArrayList<>();
        List<String> unknown = new ArrayList<>();
        boolean[] on = new boolean[3];
        for (int i = 0; i < 3; i++) {
            String name = AttentionBackendFact.VARIABLES.get(i);
            int expected = AttentionBackendFact.expected(b, name);
            if (expected < 0) return;
            if (launch.unknown().containsKey(name)) { unknown.add(name); on[i] = true; continue; }
            Located<String> v = launch.known().get(name);
            String value = v == null || v.value() == null ? null : v.value().strip();
            on[i] = value == null || AttentionBackendFact.on(value);
            // Megatron-Core compares the string: unset, or exactly "1" / "0"
            if (value != null && !value.equals(String.valueOf(expected))) {
                disagreeing.add(new AttentionBackendFact.Setting(name, value, expected, v.span()));
            }
        }
        if (disagreeing.isEmpty()) return;
        Map<String, Located<String>> env = j.env() == null ? Map.of() : j.env();
        List<TextEdit> removals = List.of();
        boolean again = !reported.add(disagreeing.get(0).span());
        if (disagreeing.size() == 1 && !again) {
            AttentionBackendFact.Setting d = disagreeing.get(0);
            removals = EnvLines.removals(d.name(), d.value(), d.span(), env.size() > 1);
        }
        // the variables ask for another kernel only where one turns a kernel off that the backend keeps on; a "1" the
        // backend does not take (NVTE_UNFUSED_ATTN=1 under flash) restricts nothing, and the backend the job names stands
        boolean turnsOff = disagreeing.stream().anyMatch(d -> !AttentionBackendFact.on(d.value()));
        out.add(new AttentionBackendFact(r.name(), j.file(), key, b, launch.backend().span(), disagreeing,
                turnsOff ? AttentionBackendFact.intendedBackend(on[0], on[1], on[2]) : null, removals, unknown, ordinal, again,
                launch.call()));
    }

    /**
     * A value written as it is, so the process gets exactly it: its span holds the value alone, bare or quoted (not a shell
     * expansion such as {@code ${FUSED:-0}}, whose default gpulint reads but the environment may override).
     */
    private static boolean literal(String value, Span span) {
        if (value.isEmpty() || value.length() > 64 || span == null || span.startLine() != span.endLine()) return false;
        if (value.chars().anyMatch(c -> c == '$' || c == '`' || c == '{' || c == '}')) return false;
        int width = span.endColumn() - span.startColumn(), n = value.codePointCount(0, value.length());
        return width == n || width == n + 2;
    }
}
