package dev.gpulint.diagnose;

import dev.gpulint.core.Span;
import dev.gpulint.derive.estimate.MeasuredLinks;
import java.util.List;

/**
 * Why a job is slower than it should be (docs/diagnose.md): what it measured, what the estimate says it should take on
 * the catalog's links and on the links as measured, the troubleshooting path step by step, and the attribution.
 *
 * @param job         the job's name
 * @param gpu         its GPU as the catalog names it
 * @param gpus        its GPUs
 * @param measured    the step as its training log shows it; null when no training log was given
 * @param expected    the estimate on both sets of links
 * @param path        GPU utilisation → NVLink status → PCIe topology → NCCL performance → InfiniBand/RoCE → bottleneck
 * @param attribution what explains the gap
 * @param captures    what to capture next, one command each, for what could not be told
 * @param nothingCaptured no capture of the job was read at all (no training log, telemetry, nvidia-smi, NCCL log,
 *                    nccl-tests or ibstat output linked to it or to none): the estimate stands alone and nothing
 *                    was diagnosed, which is not the same as "nothing found" ({@link #verdict})
 */
public record Diagnosis(String job, String gpu, long gpus, Measured measured, Expected expected, List<Step> path,
                        Attribution attribution, List<String> captures, boolean nothingCaptured) {

    /** The run's outcome: {@code nothing-captured} (exit 2), {@code found} (exit 1) or {@code nothing-found} (exit 0). */
    public String verdict() {
        return nothingCaptured ? "nothing-captured" : attribution.found() ? "found" : "nothing-found";
    }

    public Diagnosis {
        path = List.copyOf(path);
        captures = List.copyOf(captures);
    }

    /** The verdict of one step of the path. */
    public enum Verdict {
        OK("ok"), SUSPECT("suspect"), BAD("bad"), NOT_CAPTURED("not captured");

        private final String word;

        Verdict(String word) { this.word = word; }

        /** As the report prints it. */
        public String word() { return word; }

        /** The JSON value: ok, suspect, bad, not-captured. */
        public String id() { return word.replace(' ', '-'); }
    }

    /**
     * The step as the training log shows it: the median step time of the steps after the first (warm-up), the MFU (the
     * log's when it prints one, else the estimate's model FLOPs over the measured step), where the median step is.
     */
    public record Measured(double stepSeconds, double mfu, boolean mfuStated, int steps, String framework, Span where) {}

    /**
     * The estimate's step and MFU on the catalog's links, on the measured ones, and on each replacement alone.
     *
     * @param changes each replacement with the step it alone gives
     */
    public record Expected(double catalogStep, double catalogMfu, double measuredStep, double measuredMfu, List<Priced> changes) {
        public Expected {
            changes = List.copyOf(changes);
        }
    }

    /** One replacement of the catalog's links and the step the estimate gives with it alone. */
    public record Priced(MeasuredLinks.Change change, double stepSeconds) {}

    /**
     * One step of the path.
     *
     * @param id       gpu-utilisation, nvlink, pcie, nccl, network, bottleneck
     * @param name     as the study note names it
     * @param verdict  what it shows
     * @param finding  what was found, in words, with its figures
     * @param where    the evidence line that decided it; null when none
     * @param rules    the EVID findings that say the same (their rule IDs)
     * @param capture  the command whose output would decide it, when it was not captured or cannot be told; "" otherwise
     */
    public record Step(String id, String name, Verdict verdict, String finding, Span where, List<String> rules, String capture) {
        public Step {
            rules = List.copyOf(rules);
        }
    }

    /**
     * What explains the gap between the measured and the expected step.
     *
     * @param cause     network, nvlink, pcie, compute, data-loading, none (within the estimate's tolerance), unknown
     * @param explained seconds of the gap the cause explains, priced through the estimate (0 when none)
     * @param gap       measured step minus the catalog's estimate (0 without a measured step)
     * @param text      the sentence that says it, with its figures and evidence lines
     * @param found     something is wrong: the exit status is 1
     */
    public record Attribution(String cause, double explained, double gap, String text, boolean found) {}
}
