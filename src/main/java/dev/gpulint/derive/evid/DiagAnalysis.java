package dev.gpulint.derive.evid;

import dev.gpulint.derive.Facts;
import dev.gpulint.facts.DiagResultFact;
import dev.gpulint.read.evidence.Evidence;

/** dcgmi diag's results, one fact each. */
final class DiagAnalysis {
    private DiagAnalysis() {}

    static void facts(Evidence.DcgmDiag d, Target t, Facts out) {
        for (Evidence.DiagTest test : d.tests()) {
            // "GPU: 3" reads "GPU 3" in a sentence; a reason's closing period is the message's to place
            out.add(new DiagResultFact(d.file(), test.category(), test.name(), test.result().text(), test.result().span(),
                    test.gpus().replaceFirst("^(GPUs?):\\s*", "$1 "), test.reason().replaceFirst("\\.+$", ""), test.span(), t.linked()));
        }
    }
}
