package dev.gpulint.bind.adapt;

import dev.gpulint.bind.adapt.shell.Shell.Word;
import dev.gpulint.bind.adapt.shell.WordParts;
import dev.gpulint.core.Span;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.RecomputeModule;
import dev.gpulint.tree.ListNode;
import dev.gpulint.tree.Node;
import dev.gpulint.tree.ScalarNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Selective recompute by module as Megatron's formats write it (derive/estimate/RecomputeModules prices it): Megatron's
 * {@code --recompute-modules core_attn moe_act ...} (argparse {@code nargs='*'}: one word per module), Megatron-Core's
 * TransformerConfig {@code recompute_modules} list in NeMo 2 ({@code model.config}) and Megatron-Bridge ({@code model})
 * recipes. Megatron-Core's {@code __post_init__} refuses a name outside its choices ("Invalid choices for
 * recompute_modules"), so such a name is SYN002 at it, and the other modules are priced. The modules count only beside
 * selective granularity, as Megatron applies them: they are the job's recompute modules
 * ({@link dev.gpulint.spec.Recomputation#modules}); without a granularity Megatron recomputes nothing, which the plan's assumptions say
 * when the modules are more than Megatron's default.
 */
final class RecomputeModuleReader {
    private RecomputeModuleReader() {}

    /** What Megatron-Core accepts, for the SYN002 message. */
    private static final String EXPECTED = "Megatron-Core's module names, one word each: " + String.join(", ", RecomputeModule.NAMES)
            + " (TransformerConfig refuses any other: 'Invalid choices for recompute_modules')";

    /** A launch command's or MODEL_ARGS' words after {@code --recompute-modules} (null: not written). */
    static void words(JobDraft j, List<Word> words, String key) {
        if (words == null) return;
        List<RecomputeModule> modules = new ArrayList<>();
        for (Word w : words) {
            if (!w.known()) return;             // a variable: the modules are not known, nothing changes
            check(j, w.text(), w.span(), key, modules);
        }
        apply(j, modules, key);
    }

    /**
     * A scalar of MODEL_ARGS written as the command line takes it ("layernorm moe_act"), or wrapped in brackets ("[layernorm
     * moe_act]": Megatron-LM's functional-test harness, tests/functional_tests/shell_test_utils/_run_training.sh, strips the
     * brackets of a value matching {@code ^\[[^]]+\]$} and passes its words): its words, each at its place.
     */
    static List<Word> words(Word scalar) {
        List<Word> out = new ArrayList<>();
        String t = scalar.text();
        int i = 0, end = t.length();
        String s = t.strip();
        if (s.length() > 2 && s.charAt(0) == '[' && s.indexOf(']') == s.length() - 1) {
            i = t.indexOf('[') + 1;
            end = t.lastIndexOf(']');
        }
        while (i < end) {
            while (i < end && Character.isWhitespace(t.charAt(i))) i++;
            int from = i;
            while (i < end && !Character.isWhitespace(t.charAt(i))) i++;
            if (i > from) out.add(WordParts.part(scalar, from, i));
        }
        return out;
    }

    /**
     * A YAML list of names ({@code recompute_modules: [layernorm, moe_act]}), or null (Megatron's default) or absent:
     * nothing changes; a string instead of a list is SYN002 at it.
     */
    static void yaml(JobDraft j, Node n, String key) {
        if (n instanceof ScalarNode s && !s.isNull() && !TreeValues.placeholder(s.text().strip())) {
            // a string where TransformerConfig takes a list: its __post_init__ checks set(recompute_modules), a string's
            // letters, against the names and refuses them ("Invalid choices for recompute_modules")
            DraftValues.refuse(j, s.span(), key, s.text(), "a YAML list of Megatron-Core's module names, one item each, such as"
                    + " [layernorm, moe_act] (names: " + String.join(", ", RecomputeModule.NAMES) + "; TransformerConfig checks a"
                    + " string's letters as names and refuses them: 'Invalid choices for recompute_modules')",
                    "selective recompute keeps Megatron-Core's default [core_attn] (Megatron would not start)");
            return;
        }
        if (!(n instanceof ListNode l)) return;
        List<RecomputeModule> modules = new ArrayList<>();
        for (Node item : l.items()) {
            if (!(item instanceof ScalarNode s) || s.isNull() || TreeValues.placeholder(s.text().strip())) return;
            check(j, s.text().strip(), s.span(), key, modules);
        }
        apply(j, modules, key);
    }

    private static void check(JobDraft j, String name, Span at, String key, List<RecomputeModule> modules) {
        RecomputeModule m = RecomputeModule.of(name);
        if (m != null) {
            if (!modules.contains(m)) modules.add(m);
            return;
        }
        DraftValues.refuse(j, at, key, name, EXPECTED, "the plan prices the other modules (Megatron would not start)");
    }

    private static void apply(JobDraft j, List<RecomputeModule> modules, String key) {
        Located<String> rc = j.recompute;
        if (rc == null) {
            if (!modules.equals(List.of(RecomputeModule.CORE_ATTN))) {
                j.unpriced.add(key + " [" + String.join(", ", modules.stream().map(RecomputeModule::id).toList()) + "] without a"
                        + " recompute granularity: Megatron-Core applies the modules only to selective recompute"
                        + " (recompute_granularity selective), so none is recomputed");
            }
            return;
        }
        // full recomputes whole layers: the modules are not used; the first list named is the one applied
        if (!"selective".equals(rc.value()) || j.recomputeModules != null) return;
        j.recomputeModules = java.util.EnumSet.noneOf(RecomputeModule.class);
        j.recomputeModules.addAll(modules);
    }
}
