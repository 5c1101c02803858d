package dev.gpulint.config;

import dev.gpulint.core.DidYouMean;
import dev.gpulint.core.Finding;
import dev.gpulint.core.Span;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.ScalarNode;
import java.util.List;
import java.util.Map;

/**
 * Rule parameters set in .gpulint.yaml: {@code params: { MEM002: { warn_at: 0.85 } }}, and the
 * older {@code thresholds:} names, which set the same parameters. Names are checked against the
 * rules' metadata later ({@link Config#checkParams}); values here: a finite number, a fraction in
 * (0, 1] for parameters named {@code *_at}, else positive.
 */
final class ParamSettings {
    private ParamSettings() {}

    /** The older `thresholds:` names and the rule parameter each sets (memory_warning_percent is a percentage). */
    static final Map<String, String[]> THRESHOLDS = Map.of(
            "allreduce_seconds", new String[] {"NET003", "budget_seconds"},
            "bubble_warning", new String[] {"PAR006", "warn_at"},
            "bubble_note", new String[] {"PAR006", "note_at"},
            "memory_warning_percent", new String[] {"MEM002", "warn_at"});

    static void thresholds(MappingNode.Entry e, String display, List<Finding> problems, List<Config.ParamSetting> out) {
        if (!(e.value() instanceof MappingNode m)) {
            problems.add(Finding.of("SYN002", e.value().span(), "config/thresholds", "'thresholds' in " + display + " must be a mapping"));
            return;
        }
        for (MappingNode.Entry t : m.entries()) {
            String k = t.key().text();
            if (!Config.THRESHOLDS.contains(k)) {
                String guess = DidYouMean.closest(k, Config.THRESHOLDS);
                problems.add(Finding.of("SYN002", t.key().span(), "config/thresholds/" + k, "unknown threshold '" + k + "' in "
                        + display + (guess != null ? "; did you mean '" + guess + "'?" : "; valid: " + String.join(", ", Config.THRESHOLDS))));
                continue;
            }
            Double v = number(t, "config/thresholds/" + k, "threshold '" + k + "'", problems);
            if (v == null) continue;
            boolean fraction = k.startsWith("bubble");
            if (v <= 0 || (fraction && v >= 1) || (k.endsWith("percent") && v > 100)) {
                problems.add(Finding.of("SYN002", t.value().span(), "config/thresholds/" + k, "threshold '" + k + "' is " + v
                        + "; it must be " + (fraction ? "a fraction between 0 and 1" : k.endsWith("percent") ? "a percentage above 0 and at most 100" : "positive")));
                continue;
            }
            String[] param = THRESHOLDS.get(k);
            out.add(new Config.ParamSetting(param[0], param[1], k.endsWith("percent") ? v / 100 : v, t.key().span(), t.key().span()));
        }
    }

    static void params(MappingNode.Entry e, String display, List<Finding> problems, List<Config.ParamSetting> out) {
        if (!(e.value() instanceof MappingNode m)) {
            problems.add(Finding.of("SYN002", e.value().span(), "config/params", "'params' in " + display
                    + " must be a mapping of rule IDs to their parameters, e.g. params: { MEM002: { warn_at: 0.85 } }"));
            return;
        }
        for (MappingNode.Entry r : m.entries()) {
            String rule = r.key().text();
            if (!(r.value() instanceof MappingNode ps)) {
                problems.add(Finding.of("SYN002", r.value().span(), "config/params/" + rule, "the params of " + rule + " in "
                        + display + " must be a mapping of parameter names to numbers"));
                continue;
            }
            for (MappingNode.Entry p : ps.entries()) {
                String name = p.key().text();
                String where = "parameter '" + name + "' of " + rule;
                Double v = number(p, "config/params/" + rule + "/" + name, where, problems);
                if (v == null) continue;
                boolean fraction = name.endsWith("_at");
                if (v <= 0 || (fraction && v > 1)) {
                    problems.add(Finding.of("SYN002", p.value().span(), "config/params/" + rule + "/" + name, where + " is "
                            + ScalarText.of(p) + "; it must be " + (fraction ? "a fraction above 0 and at most 1" : "positive")));
                    continue;
                }
                out.add(new Config.ParamSetting(rule, name, v, r.key().span(), p.key().span()));
            }
        }
    }

    /** A finite number, or null with a finding. */
    private static Double number(MappingNode.Entry t, String identity, String what, List<Finding> problems) {
        String text = t.value() instanceof ScalarNode s ? s.text().strip() : "";
        try {
            double v = Double.parseDouble(text);
            if (Double.isFinite(v) && text.length() <= 64) return v;
        } catch (NumberFormatException ex) {
            // reported below
        }
        problems.add(Finding.of("SYN002", t.value().span(), identity, what + " must be a number"));
        return null;
    }

    /** The scalar's text, for messages. */
    private static final class ScalarText {
        static String of(MappingNode.Entry e) { return e.value() instanceof ScalarNode s ? s.text().strip() : "?"; }
    }

}
