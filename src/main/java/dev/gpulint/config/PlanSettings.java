package dev.gpulint.config;

import dev.gpulint.core.Finding;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.ScalarNode;
import java.util.List;
import java.util.Map;

/** The {@code plan:} section of .gpulint.yaml: efficiencies of `gpulint plan` overriding the catalog's. */
final class PlanSettings {
    private PlanSettings() {}

    /** `plan:` efficiencies of `gpulint plan` (docs/plan.md): a name of the catalog's efficiencies, a number from 0 to 1 (kernel and layer times in seconds). */
    static void read(MappingNode.Entry e, String display, List<Finding> problems, Map<String, Double> plan) {
        if (!(e.value() instanceof MappingNode m)) {
            problems.add(Finding.of("SYN002", e.value().span(), "config/plan", "'plan' in " + display + " must map efficiency names to numbers"));
            return;
        }
        for (MappingNode.Entry x : m.entries()) {
            String k = x.key().text();
            if (!dev.gpulint.catalog.Compute.EFFICIENCIES.contains(k) && !dev.gpulint.catalog.Compute.BLOCK_SCALED_EFFICIENCIES.contains(k)) {
                problems.add(Finding.of("SYN002", x.key().span(), "config/plan/" + k, "unknown plan efficiency '" + k + "' in " + display
                        + "; known: " + String.join(", ", dev.gpulint.catalog.Compute.EFFICIENCIES) + ", "
                        + String.join(", ", dev.gpulint.catalog.Compute.BLOCK_SCALED_EFFICIENCIES)));
                continue;
            }
            double v;
            try {
                v = Double.parseDouble(x.value() instanceof ScalarNode sv ? sv.text().trim() : "x");
            } catch (NumberFormatException ex) {
                v = -1;
            }
            boolean fraction = !k.endsWith("_s") && !k.equals("traffic");
            double max = k.equals("traffic") ? 100 : 1;
            if (!(v >= 0) || v > max || (fraction && v == 0 && !k.endsWith("overlap"))) {
                problems.add(Finding.of("SYN002", x.value().span(), "config/plan/" + k, "plan efficiency '" + k + "' in " + display
                        + " must be a number " + (fraction ? "above 0 and at most 1" : k.equals("traffic") ? "from 0 to 100" : "of seconds from 0 to 1")));
                continue;
            }
            plan.put(k, v);
        }
    }
}
