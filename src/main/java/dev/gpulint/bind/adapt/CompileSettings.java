package dev.gpulint.bind.adapt;

import static dev.gpulint.bind.adapt.TreeValues.map;
import static dev.gpulint.bind.adapt.TreeValues.scalar;

import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs;
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
 * <p>The loss is compiled apart from the model (torchtitan/components/loss.py, build_cross_entropy_loss: {@code
 * job_config.compile.enable and "loss" in job_config.compile.components}; earlier {@code job_config.training.compile}): stated
 * under {@link Specs.Origin#LOSS_COMPILE} ("compiled" or "eager") where the file says, for derive/estimate/LossKernel.
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
            if (!on.value()) {
                j.kernels = j.key("[compile] enable", new Located<>("eager", enable.span()));
                loss(j, false, "[compile] enable", enable);
                return;
            }
            List<Node> components = TreeValues.list(table, "components");
            boolean written = table.get("components").isPresent();
            boolean model = !written || component(components, "model");
            // the loss is compiled only with "loss" among the components (default ["model", "loss"]), whatever the model does
            if (written) loss(j, component(components, "loss"), "[compile] components", table.get("components").get());
            else loss(j, true, "[compile] enable", enable);
            if (model) j.kernels = j.key("[compile] enable", new Located<>("fused", enable.span()));
            else j.kernels = j.key("[compile] components", new Located<>("eager", table.get("components").get().span()));
            return;
        }
        ScalarNode older = scalar(map(root, "training"), "compile");
        Located<Boolean> on = DraftValues.bool(j, older, "[training] compile", INSTEAD);
        if (on != null && on.value() != null) {
            j.kernels = j.key("[training] compile", new Located<>(on.value() ? "fused" : "eager", older.span()));
            loss(j, on.value(), "[training] compile", older);      // the older build_cross_entropy_loss compiles with the model
        }
    }

    /** Whether {@code components} names {@code name} (torchtitan compares the strings as written; case folded here as for "model"). */
    private static boolean component(List<Node> components, String name) {
        return components.stream().anyMatch(n -> n instanceof ScalarNode s && !s.isNull() && s.text().strip().toLowerCase(Locale.ROOT).equals(name));
    }

    /** States whether the loss is compiled, at the key that says so. */
    private static void loss(JobDraft j, boolean compiled, String key, Node at) {
        j.stated.add(new Specs.Stated(Specs.Origin.LOSS_COMPILE, compiled ? "compiled" : "eager", key, Specs.StatedKind.CONFIG, at.span()));
    }
}
