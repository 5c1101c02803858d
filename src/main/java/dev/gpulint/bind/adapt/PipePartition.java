package dev.gpulint.bind.adapt;

import dev.gpulint.spec.Located;
import dev.gpulint.tree.ScalarNode;
import java.util.Locale;

/**
 * DeepSpeed's pipeline partition method, as gpt-neox writes it ({@code pipe-partition-method}, NeoXArgsParallelism;
 * default {@code "type:transformer|mlp"}) and passes to DeepSpeed's PipelineModule (deepspeed/runtime/pipe/module.py,
 * _partition_layers, which lower-cases it):
 * <ul>
 * <li>{@code "type:REGEX"}: the layers whose class name matches REGEX weigh 1, the others 0, and the stages get balanced
 *     weights: the transformer blocks split as evenly as they go, the embedding and the head not counted — the even split
 *     the estimate prices;</li>
 * <li>{@code "parameters"}: each layer weighs its trainable parameters, so the embedding (vocabulary × hidden) and an untied
 *     head count, and the first and last stages hold fewer transformer blocks;</li>
 * <li>{@code "uniform"}: every layer spec counts one (the embedding, the final norm and the head among them), so the first
 *     and last stages again hold fewer blocks.</li>
 * </ul>
 * Any other method DeepSpeed refuses (NotImplementedError): SYN002 at the value. The estimate prices an even split of the
 * blocks with the embedding on the first stage; a method that counts the embedding is said in the plan's assumptions
 * (that split is the heavier one for the first stage's memory, so the estimate errs towards it), as is a block count pp
 * does not divide (DeepSpeed then gives some stages one block more, and the estimate prices the average; PAR004 says so).
 */
final class PipePartition {
    private PipePartition() {}

    static void read(JobDraft j, ScalarNode s, String key) {
        boolean pipeline = j.pp != null && j.pp.value() > 1;
        if (s == null || s.isNull() || TreeValues.placeholder(s.text().strip())) {
            if (pipeline && uneven(j)) j.unpriced.add(unevenLine(j, key + " not written, gpt-neox's \"type:transformer|mlp\""));
            return;
        }
        String m = s.text().strip().toLowerCase(Locale.ROOT);
        if (!m.equals("parameters") && !m.equals("uniform") && !(m.startsWith("type:") && m.length() > 5)) {
            j.refused.add(new DraftValues.Refused(s.span(), key, s.text(), "\"parameters\", \"uniform\" or \"type:REGEX\" (the"
                    + " methods DeepSpeed's PipelineModule implements)", "the estimate prices an even split of the transformer blocks"));
            return;
        }
        if (!pipeline) return;
        String written = key + " = \"" + dev.gpulint.spec.Quantities.shortText(s.text().strip()) + "\"";
        if (m.startsWith("type:")) {
            if (uneven(j)) j.unpriced.add(unevenLine(j, written));
            return;
        }
        j.unpriced.add(written + ": DeepSpeed balances the stages by " + (m.equals("parameters")
                ? "trainable parameters, so the embedding (and an untied head) counts" : "layer specs, one each, so the embedding,"
                + " the final norm and the head count as layers") + " and the first and last stages hold fewer transformer blocks;"
                + " priced as an even split of the blocks with the embedding on the first stage, the heavier layout for its memory");
    }

    private static boolean uneven(JobDraft j) {
        return j.layers != null && j.layers.value() > 0 && j.layers.value() % j.pp.value() != 0;
    }

    private static String unevenLine(JobDraft j, String written) {
        long l = j.layers.value(), pp = j.pp.value();
        return written + ": DeepSpeed balances the " + l + " transformer blocks over pp " + pp + ", " + (l / pp) + " or " + (l / pp + 1)
                + " a stage; priced as their average, " + l + " ÷ " + pp + " = " + dev.gpulint.spec.Quantities.shortText(
                        java.math.BigDecimal.valueOf((double) l / pp).stripTrailingZeros().toPlainString())
                + " on every stage, so the busiest stage's time and memory are under-counted";
    }
}
