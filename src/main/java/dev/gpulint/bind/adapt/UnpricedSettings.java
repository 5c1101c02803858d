package dev.gpulint.bind.adapt;

import static dev.gpulint.bind.adapt.TreeValues.map;
import static dev.gpulint.bind.adapt.TreeValues.scalar;

import dev.gpulint.spec.Located;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.ScalarNode;
import java.util.List;

/**
 * Settings of the frameworks' own configurations that change speed or memory but that the estimate does not price
 * apart: each is read where it is written and becomes one line of the plan's {@code assumptions}
 * (Specs.Origin.unpriced), saying what was read and what the estimate does instead, so nobody takes the figure for
 * more than it is (issue #35). Offloading ZeRO/FSDP states to the host is priced, not listed here (OffloadSettings).
 */
final class UnpricedSettings {
    private UnpricedSettings() {}

    /** PyTorch FSDP's backward prefetch (torch.distributed.fsdp.BackwardPrefetch), as accelerate writes its name. */
    private static final List<String> BACKWARD_PREFETCH = List.of("BACKWARD_PRE", "BACKWARD_POST", "NO_PREFETCH");

    /**
     * accelerate's FSDP prefetch ({@code fsdp_config.fsdp_backward_prefetch}, earlier {@code fsdp_backward_prefetch_policy};
     * {@code fsdp_forward_prefetch}), FullyShardedDataParallelPlugin's backward_prefetch and forward_prefetch. PyTorch's FSDP
     * documentation: BACKWARD_PRE issues the next unit's all-gather before the current unit's gradient computation, so it
     * overlaps compute; BACKWARD_POST only after it, and NO_PREFETCH not at all, so the backward all-gathers sit exposed
     * between the units' gradients; forward_prefetch issues the next forward all-gather before the current unit's forward
     * (for CPU-bound jobs). The estimate hides every FSDP collective behind compute up to the family's dp_overlap whatever the
     * prefetch: pricing BACKWARD_POST's all-gathers as exposed was tried on the llm-foundry rows and left out (docs/plan.md,
     * "FSDP on H100"), so a prefetch other than the default is said, not priced. A value FSDP does not name is SYN002.
     * With {@code fsdp_version: 2} (FSDP2's fully_shard, which prefetches the next unit's all-gathers itself) accelerate's
     * plugin ignores the backward prefetch (it warns "backward_prefetch is not supported in FSDP2" and sets it to None;
     * accelerate's tests/fsdp/test_fsdp.py, test_backward_prefetch), which is said, and refuses a forward prefetch with a
     * ValueError ("forward_prefetch is not yet implemented in FSDP2"): SYN002 at the value.
     */
    static void fsdpPrefetch(JobDraft j, MappingNode fsdp) {
        String key = "fsdp_config.fsdp_backward_prefetch";
        ScalarNode back = scalar(fsdp, "fsdp_backward_prefetch");
        if (back == null) { back = scalar(fsdp, "fsdp_backward_prefetch_policy"); key = "fsdp_config.fsdp_backward_prefetch_policy"; }
        Located<String> b = DraftValues.choice(j, back, key, BACKWARD_PREFETCH,
                "the estimate hides the FSDP all-gathers as it does with BACKWARD_PRE, PyTorch FSDP's default");
        Located<Long> version = TreeValues.integer(scalar(fsdp, "fsdp_version"));
        boolean fsdp2 = version != null && version.value() == 2;
        if (b != null && fsdp2) {
            j.unpriced.add(key + ": " + b.value() + ": accelerate ignores it with fsdp_version 2 (it warns \"backward_prefetch is not"
                    + " supported in FSDP2\" and sets it to None): FSDP2's fully_shard issues the next unit's all-gathers itself;"
                    + " the FSDP collectives are hidden behind compute up to dp_overlap; remove the key");
        } else if (b != null && !b.value().equals("BACKWARD_PRE")) {
            j.unpriced.add(key + ": " + b.value() + ": the next unit's backward all-gather is issued "
                    + (b.value().equals("NO_PREFETCH") ? "only when that unit needs it" : "only after the current unit's gradients")
                    + ", so less of it overlaps compute; not priced apart: the FSDP collectives are hidden behind compute up to"
                    + " dp_overlap whatever the prefetch (docs/plan.md, FSDP on H100)");
        }
        ScalarNode fwd = scalar(fsdp, "fsdp_forward_prefetch");
        Located<Boolean> forward = DraftValues.bool(j, fwd, "fsdp_config.fsdp_forward_prefetch",
                "the estimate takes FSDP's default, no forward prefetch");
        if (forward != null && forward.value() && fsdp2) {
            DraftValues.refuse(j, fwd.span(), "fsdp_config.fsdp_forward_prefetch", fwd.text(), "false with fsdp_version 2"
                    + " (accelerate raises ValueError: forward_prefetch is not yet implemented in FSDP2; set it false, or fsdp_version 1)",
                    "the estimate takes FSDP2's own prefetching");
        } else if (forward != null && forward.value()) {
            j.unpriced.add("fsdp_config.fsdp_forward_prefetch: true: the next unit's forward all-gather is issued before the current"
                    + " unit's forward; not priced apart: the forward all-gathers are already hidden behind compute up to dp_overlap");
        }
    }

    private static boolean on(ScalarNode s) {
        Located<Boolean> b = TreeValues.bool(s);
        return b != null && Boolean.TRUE.equals(b.value());
    }
}
