package dev.gpulint.engine;

import dev.gpulint.facts.RuleParam;
import dev.gpulint.meta.RuleCatalog;
import dev.gpulint.meta.RuleMeta;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The RuleParam facts of a run: every parameter of every rule's metadata at its default, or at
 * the value the configuration sets ({@code "MEM002.warn_at" → 0.85}).
 */
public final class RuleParams {
    private RuleParams() {}

    public static List<RuleParam> facts(RuleCatalog rules, Map<String, Double> overrides) {
        List<RuleParam> out = new ArrayList<>();
        for (RuleMeta m : rules.all()) {
            m.params().forEach((name, dflt) -> out.add(new RuleParam(m.id(), name, overrides.getOrDefault(m.id() + "." + name, dflt))));
        }
        return out;
    }
}
