package dev.gpulint.derive.estimate;

import dev.gpulint.spec.ParallelDim;
import java.util.List;
import java.util.Map;

/**
 * What one step of a layout costs (../spec/PLAN.md's PLAN object without the findings and rank, which the plan stage
 * adds): memory per pipeline stage, time split into compute, bubble and communication per dimension and tier, and
 * the throughput. Bytes and seconds.
 *
 * @param stages     memory per GPU of each pipeline stage, the first first
 * @param time       the step and its parts
 * @param throughput tokens/s/GPU, model TFLOP/s/GPU, MFU
 * @param notes      each term as a study note writes it: what it is, its formula, its numbers
 * @param traffic    each communication term as numbers: its dimension, collective, count per step or micro-batch, and cost
 */
public record Estimate(Layout layout, ModelShape model, String gpu, double capacityBytes, List<MemoryModel.Stage> stages,
                       Time time, Throughput throughput, List<Note> notes, List<Traffic> traffic) {

    public Estimate {
        stages = List.copyOf(stages);
        notes = List.copyOf(notes);
        traffic = List.copyOf(traffic);
    }

    /**
     * One communication term: {@code count} times {@code cost} (per micro-batch for tp, cp, ep and pp; per step for dp
     * without ZeRO-3, per micro-batch with it).
     */
    public record Traffic(ParallelDim dim, String what, double count, CollectiveCost cost) {}

    /** The first term of a dimension with this collective, if any. */
    public java.util.Optional<Traffic> traffic(ParallelDim dim, Collective c) {
        return traffic.stream().filter(t -> t.dim() == dim && t.cost().collective() == c).findFirst();
    }

    /**
     * The step: {@code step = compute + bubble + exposed communication + optimizer}.
     *
     * @param comm     time each dimension's collectives take (tp, cp, ep, pp, dp), hidden or not
     * @param tiers    the tier each dimension's group runs on
     * @param exposed  communication not hidden behind compute, per tier
     * @param optimizer the optimizer's update of the local shard
     */
    public record Time(double step, double compute, double bubble, Map<ParallelDim, Double> comm, Map<ParallelDim, Tier> tiers,
                       Map<Tier, Double> exposed, double optimizer) {
        public Time {
            comm = Map.copyOf(comm);
            tiers = Map.copyOf(tiers);
            exposed = Map.copyOf(exposed);
        }

        public double exposedTotal() {
            return exposed.values().stream().mapToDouble(Double::doubleValue).sum();
        }
    }

    public record Throughput(double tokensPerSecondPerGpu, double modelTflopsPerGpu, double mfu) {}

    /**
     * One term of the breakdown: "tp all-gather/reduce-scatter", its formula and its figures, in words. The words are
     * written when first read: a plan prices thousands of layouts and prints the notes of a few, and formatting them
     * took most of an estimate's time. A note is its term and text, as a record's would be.
     */
    public static final class Note {
        private final String term;
        private java.util.function.Supplier<String> words;
        private String text;

        public Note(String term, String text) {
            this.term = java.util.Objects.requireNonNull(term);
            this.text = java.util.Objects.requireNonNull(text);
        }

        /** A note whose words {@code text} writes when they are first read (it must read only what does not change). */
        public Note(String term, java.util.function.Supplier<String> text) {
            this.term = java.util.Objects.requireNonNull(term);
            this.words = java.util.Objects.requireNonNull(text);
        }

        public String term() { return term; }

        public synchronized String text() {
            if (text == null) {
                text = java.util.Objects.requireNonNull(words.get());
                words = null;
            }
            return text;
        }

        @Override public boolean equals(Object o) {
            return o instanceof Note n && term.equals(n.term) && text().equals(n.text());
        }

        @Override public int hashCode() { return 31 * term.hashCode() + text().hashCode(); }

        @Override public String toString() { return "Note[term=" + term + ", text=" + text() + "]"; }
    }

    /** The stage with the most bytes. */
    public MemoryModel.Stage largestStage() {
        MemoryModel.Stage best = stages.get(0);
        for (MemoryModel.Stage s : stages) if (s.total() > best.total()) best = s;
        return best;
    }

    /** Some stage needs more memory than the GPU has. */
    public boolean outOfMemory() { return largestStage().total() > capacityBytes; }
}
