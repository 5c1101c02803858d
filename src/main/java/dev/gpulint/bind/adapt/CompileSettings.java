package dev.gpulint.bind.adapt;

import static dev.gpulint.bind.adapt.TreeValues.map;
import static dev.gpulint.bind.adapt.TreeValues.scalar;

import dev.gpulint.spec.Located;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.Node;
import dev.gpulint.tree.ScalarNode;
import java.util.List;
import java.util.Locale;

/**
 * Whether a job's elementwise kernels run fused or eager, where its format says so ({@code JobDraft.kernels}: "fused" or
 * "eager", priced by derive/estimate/EagerKernels). torchtitan (torchtitan/config/job_config.py): {@code [compile] enable}
 * with {@code components} (since mid 2025; default {@code ["model", "loss"]}: the model is compiled only when "model" is
 * among them), earlier {@code [training] compile}. Not written: null, and the estimate takes torchtitan's default (off);
 * written with a value that is not a boolean: SYN002 at the value (DraftValues), and the same default.
 */
final class CompileSettings {
    private CompileSettings() {}

    /** What the estimate takes for a switch written with a value torchtitan's boolean field would not take (SYN002). */
    private static final String INSTEAD = "the estimate takes torchtitan's default, torch.compile off: eager elementwise kernels";

    static void torchtitan(JobDraft j, MappingNode root) {
        MappingNode table = map(root, "compile");
        ScalarNode enable = scalar(table, "enable");
        if (enable != null) {
            Located<Boolean> on = DraftValues.bool(j, enable, "[compile] enable", INSTEAD);
            if (on == null || on.value() == null) return;
            if (!on.value()) { j.kernels = j.key("[compile] enable", new Located<>("eager", enable.span())); return; }
            List<Node> components = TreeValues.list(table, "components");
            boolean written = table.get("components").isPresent();
            boolean model = !written || components.stream().anyMatch(n -> n instanceof ScalarNode s && !s.isNull()
                    && s.text().strip().toLowerCase(Locale.ROOT).equals("model"));
            if (model) j.kernels = j.key("[compile] enable", new Located<>("fused", enable.span()));
            else j.kernels = j.key("[compile] components", new Located<>("eager", table.get("components").get().span()));
            return;
        }
        ScalarNode older = scalar(map(root, "training"), "compile");
        Located<Boolean> on = DraftValues.bool(j, older, "[training] compile", INSTEAD);
        if (on != null && on.value() != null) j.kernels = j.key("[training] compile", new Located<>(on.value() ? "fused" : "eager", older.span()));
    }
}
