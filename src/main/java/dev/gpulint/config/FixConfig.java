package dev.gpulint.config;

import dev.gpulint.core.DidYouMean;
import dev.gpulint.core.Finding;
import dev.gpulint.core.Span;
import dev.gpulint.tree.ListNode;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.Node;
import dev.gpulint.tree.ScalarNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code fix:} section of .gpulint.yaml (ruff's fixable / unfixable): which rules' fixes {@code check --fix}
 * applies and the reports offer, and how safe each rule's fixes count (fix.FixSettings applies it).
 *
 * <pre>
 * fix:
 *   unfixable: [PAR004]            # never offered (a rule ID or name; ALL for every rule)
 *   fixable: [UNIT001, NCCL004]    # only these (default: every rule)
 *   rules: { HW003: safe, UNIT003: unsafe, OPS001: off }   # per-rule level: safe, unsafe or off
 * </pre>
 *
 * A rule set {@code safe} has its unsafe fixes applied by {@code --fix}; {@code unsafe}, its safe fixes only with
 * {@code --unsafe-fixes}; {@code off}, none (as unfixable).
 *
 * @param names every rule ID or name written, with where (to check they name rules)
 */
public record FixConfig(Set<String> fixable, Set<String> unfixable, Map<String, String> levels, Map<String, Span> names) {
    public static final FixConfig NONE = new FixConfig(Set.of(), Set.of(), Map.of(), Map.of());
    static final List<String> KEYS = List.of("fixable", "unfixable", "rules");
    static final List<String> LEVELS = List.of("safe", "unsafe", "off");

    /** SYN002 findings for names in {@code fix:} that are no rule ID or name (ALL aside). */
    public List<Finding> check(RuleNames rules, String file) {
        List<Finding> out = new ArrayList<>();
        List<String> known = rules.idsAndNames();
        names.forEach((k, at) -> {
            if (k.equals("ALL") || known.contains(k)) return;
            String guess = DidYouMean.closest(k, known);
            out.add(Finding.of("SYN002", at, "config/fix/" + k, "'" + k + "' in the fix settings of " + file
                    + " is no gpulint rule ID or name" + (guess != null ? "; did you mean '" + guess + "'?" : "")));
        });
        return out;
    }

    static FixConfig read(MappingNode.Entry e, String display, List<Finding> problems) {
        if (!(e.value() instanceof MappingNode m)) {
            problems.add(Finding.of("SYN002", e.value().span(), "config/fix", "'fix' in " + display
                    + " must be a mapping with fixable, unfixable and rules"));
            return NONE;
        }
        Set<String> fixable = new LinkedHashSet<>(), unfixable = new LinkedHashSet<>();
        Map<String, String> levels = new LinkedHashMap<>();
        Map<String, Span> names = new LinkedHashMap<>();
        for (MappingNode.Entry x : m.entries()) {
            String k = x.key().text();
            switch (k) {
                case "fixable" -> rules(x, display, problems, fixable, names);
                case "unfixable" -> rules(x, display, problems, unfixable, names);
                case "rules" -> {
                    if (!(x.value() instanceof MappingNode rm)) {
                        problems.add(Finding.of("SYN002", x.value().span(), "config/fix/rules", "'fix.rules' in " + display
                                + " must map rule IDs or names to safe, unsafe or off"));
                        break;
                    }
                    for (MappingNode.Entry r : rm.entries()) {
                        String v = r.value() instanceof ScalarNode sv ? sv.text().toLowerCase(java.util.Locale.ROOT) : "";
                        if (v.equals("false")) v = "off";      // YAML reads a plain off as false
                        if (!LEVELS.contains(v)) {
                            problems.add(Finding.of("SYN002", r.value().span(), "config/fix/rules/" + r.key().text(), "fix level '" + v
                                    + "' for " + r.key().text() + " in " + display + " must be safe, unsafe or off"));
                            continue;
                        }
                        levels.put(r.key().text(), v);
                        names.putIfAbsent(r.key().text(), r.key().span());
                    }
                }
                default -> {
                    String guess = DidYouMean.closest(k, KEYS);
                    problems.add(Finding.of("SYN002", x.key().span(), "config/fix/" + k, "unknown key '" + k + "' under fix in " + display
                            + (guess != null ? "; did you mean '" + guess + "'?" : "; valid keys: " + String.join(", ", KEYS))));
                }
            }
        }
        return new FixConfig(Set.copyOf(fixable), Set.copyOf(unfixable), Map.copyOf(levels), Map.copyOf(names));
    }

    private static void rules(MappingNode.Entry x, String display, List<Finding> problems, Set<String> into, Map<String, Span> names) {
        List<Node> items = x.value() instanceof ListNode l ? l.items() : List.of(x.value());
        for (Node n : items) {
            if (n instanceof ScalarNode s && !s.isNull() && !s.text().isBlank()) {
                into.add(s.text());
                names.putIfAbsent(s.text(), s.span());
            } else {
                problems.add(Finding.of("SYN002", n.span(), "config/fix/" + x.key().text(), "'fix." + x.key().text() + "' in " + display
                        + " must be a rule ID or name, or a list of them, found " + n.describe()));
            }
        }
    }
}
