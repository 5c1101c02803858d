package dev.gpulint.bind.adapt;

import dev.gpulint.spec.Located;
import dev.gpulint.tree.ScalarNode;
import java.util.Locale;

/**
 * DeepSpeed's pipeline partition method, as gpt-neox writes it ({@code pipe-partition-method}, NeoXArgsParallelism;
 * default {@code "type:transformer|mlp"}) and passes to DeepSpeed's PipelineModule (deepspeed/runtime/pipe/module.py,
 * _partition_layers, which lower-cases it):
 * <ul>
 * <li>{@code "type:REGEX"}: the layers whose class name matches REGEX weigh 1, the others 0, and partition_balanced
 *     (deepspeed/runtime/utils.py) finds the contiguous split whose heaviest stage is lightest: the embedding and the head
 *     weigh nothing, so no stage holds more than ⌈L/pp⌉ transformer blocks, and some hold that many whenever pp does not
 *     divide L. DeepSpeed accepts any block count (PAR004 stays quiet: Format.splitsItsOwnPipeline). Which stages hold
 *     the extra block depends on DeepSpeed's version (the dynamic program of current releases evens the stages to
 *     ⌊L/pp⌋ or ⌈L/pp⌉; the bisection of earlier ones fills the first stages to ⌈L/pp⌉ and leaves the rest to the last),
 *     so the estimate prices L mod pp stages of ⌈L/pp⌉ blocks first and the others ⌊L/pp⌋ (Specs.Parallelism.stageLayers):
 *     the busiest stage's time exactly, and the first stage, which holds the most micro-batches in flight, at its
 *     heaviest; said in the plan's assumptions;</li>
 * <li>{@code "parameters"}: each layer weighs its trainable parameters, so the embedding (vocabulary × hidden) and an untied
 *     head count, and the first and last stages hold fewer transformer blocks;</li>
 * <li>{@code "uniform"}: every layer spec counts one (the embedding, the final norm and the head among them), so the first
 *     and last stages again hold fewer blocks.</li>
 * </ul>
 * Any other method DeepSpeed refuses (NotImplementedError): SYN002 at the value. For {@code parameters} and
 * {@code uniform} the estimate prices an even split of the blocks with the embedding on the first stage and says so in
 * the plan's assumptions (that split is the heavier one for the first stage's memory, so the estimate errs towards it);
 * a block count pp does not divide is then priced as the type: split (⌈L/pp⌉ on the busier stages, first), the least
 * the busiest stage holds, said too (the middle stages' share depends on gpt-neox's layer specs, which change between
 * its versions). Beyond {@link dev.gpulint.spec.DeepSpeedSplit#MAX_STAGES} stages the uneven split is priced as the average, said.
 */
final class PipePartition {
    private PipePartition() {}

    static void read(JobDraft j, ScalarNode s, String key) {
        boolean pipeline = j.pp != null && j.pp.value() > 1;
        if (s == null || s.isNull() || TreeValues.placeholder(s.text().strip())) {
            if (pipeline && uneven(j)) split(j, key + " not written, gpt-neox's \"type:transformer|mlp\"", key, j.pp.span(), true);
            return;
        }
        String m = s.text().strip().toLowerCase(Locale.ROOT);
        if (!m.equals("parameters") && !m.equals("uniform") && !(m.startsWith("type:") && m.length() > 5)) {
            DraftValues.refuse(j, s.span(), key, s.text(), "\"parameters\", \"uniform\" or \"type:REGEX\" (the"
                    + " methods DeepSpeed's PipelineModule implements)", "the estimate prices an even split of the transformer blocks");
            return;
        }
        if (!pipeline) return;
        String written = key + " = \"" + dev.gpulint.spec.Quantities.shortText(s.text().strip()) + "\"";
        if (m.startsWith("type:")) {
            if (uneven(j)) split(j, written, key, s.span(), true);
            return;
        }
        j.unpriced.add(written + ": DeepSpeed balances the stages by " + (m.equals("parameters")
                ? "trainable parameters, so the embedding (and an untied head) counts" : "layer specs, one each, so the embedding,"
                + " the final norm and the head count as layers") + " and the first and last stages hold fewer transformer blocks;"
                + " priced as an even split of the blocks with the embedding on the first stage, the heavier layout for its memory");
        if (uneven(j)) split(j, written, key, s.span(), false);
    }

    /**
     * L blocks that pp does not divide: L mod pp stages of ⌈L/pp⌉ blocks, the busier first, then ⌊L/pp⌋ (see the class
     * comment), written into the job's stage layers with the line that says so. {@code balanced}: a {@code type:} method,
     * whose busiest stage holds exactly ⌈L/pp⌉; else ({@code parameters}, {@code uniform}) that is the least it holds.
     */
    private static void split(JobDraft j, String written, String key, dev.gpulint.core.Span at, boolean balanced) {
        long l = j.layers.value(), pp = j.pp.value();
        // split runs on blocks pp does not divide, so the split is null only beyond DeepSpeedSplit.MAX_STAGES stages
        java.util.List<Long> stages = dev.gpulint.spec.DeepSpeedSplit.stages(l, pp);
        if (stages == null) { j.unpriced.add(unevenLine(j, written)); return; }
        long floor = l / pp, busier = l % pp;
        j.stageLayers = j.key(key, new Located<>(stages, at));
        String priced = "priced as " + busier + " stage" + (busier == 1 ? "" : "s") + " of " + (floor + 1) + " first and "
                + (pp - busier) + " of " + floor;
        j.unpriced.add(written + (balanced
                ? ": DeepSpeed's partition_balanced splits the " + l + " transformer blocks over pp " + pp + " so that no stage"
                        + " holds more than ⌈" + l + " ÷ " + pp + "⌉ = " + (floor + 1) + "; " + priced + ": the busiest stage's time"
                        + " as DeepSpeed splits it, and the first stage, with the most micro-batches in flight, at its heaviest"
                        + " (which stages hold the extra block depends on DeepSpeed's version)"
                : ": the " + l + " transformer blocks do not divide over pp " + pp + "; " + priced + ", the least the busiest"
                        + " stage holds (DeepSpeed's split counts the embedding and the head too, by gpt-neox's layer specs, so"
                        + " the busiest stage may hold more)"));
    }

    private static boolean uneven(JobDraft j) {
        return j.layers != null && j.layers.value() > 0 && j.layers.value() % j.pp.value() != 0;
    }

    private static String unevenLine(JobDraft j, String written) {
        long l = j.layers.value(), pp = j.pp.value();
        return written + ": the " + l + " transformer blocks do not divide over pp " + pp + ", and DeepSpeed's split of them"
                + " is not worked out here; priced as their average, " + l + " ÷ " + pp + " = " + dev.gpulint.spec.Quantities.shortText(
                        java.math.BigDecimal.valueOf((double) l / pp).stripTrailingZeros().toPlainString())
                + " on every stage, so the busiest stage's time and memory are under-counted";
    }
}
