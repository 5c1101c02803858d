package dev.gpulint.derive.estimate;

import dev.gpulint.spec.ParallelDim;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What one step of a layout costs (../spec/PLAN.md's PLAN object without the findings and rank, which the plan stage
 * adds): memory per pipeline stage, time split into compute, bubble and communication per dimension and tier, and
 * the throughput. Bytes and seconds.
 *
 * @param stages     memory per GPU of each pipeline stage, the first first
 * @param time       the step and its parts
 * @param throughput tokens/s/GPU, model TFLOP/s/GPU, MFU
 * @param terms      each term of the breakdown as numbers ({@link Term}; the plan's report words them), in the order printed
 * @param traffic    each communication term as numbers: its dimension, collective, count per step or micro-batch, and cost
 */
public record Estimate(Layout layout, ModelShape model, String gpu, double capacityBytes, List<MemoryModel.Stage> stages,
                       Time time, Throughput throughput, List<Term> terms, List<Traffic> traffic) {

    public Estimate {
        stages = List.copyOf(stages);
        terms = List.copyOf(terms);
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
            comm = copy(comm, ParallelDim.class);
            tiers = copy(tiers, ParallelDim.class);
            exposed = copy(exposed, Tier.class);
        }

        /**
         * An unmodifiable copy in the enum's order, with no null key or value (as {@code Map.copyOf} would make): an EnumMap
         * copies the Estimator's EnumMaps as an array, where {@code Map.copyOf} hashed every entry into a new table for each
         * layout priced (~1.4 % of a plan-hybrid profile's samples, 2026-12-07).
         */
        private static <K extends Enum<K>, V> Map<K, V> copy(Map<K, V> m, Class<K> type) {
            EnumMap<K, V> c = new EnumMap<>(type);
            c.putAll(m);
            for (V v : c.values()) Objects.requireNonNull(v);
            return Collections.unmodifiableMap(c);
        }

        /**
         * The exposed communication summed in {@link Tier}'s order, whatever map the caller iterates (a sum in another order
         * could differ in its last bit).
         */
        public double exposedTotal() {
            double sum = 0;
            for (Tier x : Tier.values()) sum += exposed.getOrDefault(x, 0.0);
            return sum;
        }
    }

    public record Throughput(double tokensPerSecondPerGpu, double modelTflopsPerGpu, double mfu) {}

    /** The stage with the most bytes. */
    public MemoryModel.Stage largestStage() { return largestStage(stages); }

    /** The first stage of {@code stages} with the most bytes (the search's score reads it: {@link Estimator#score}). */
    static MemoryModel.Stage largestStage(List<MemoryModel.Stage> stages) {
        MemoryModel.Stage best = stages.get(0);
        for (MemoryModel.Stage s : stages) if (s.total() > best.total()) best = s;
        return best;
    }

    /**
     * The stage with the most model states (weights + gradients + optimizer states, no activations), the first of equals:
     * MEM001's for a job whose states are the estimate's (MemoryAnalysis#named). At pp &gt; 1 it need not be
     * {@link #largestStage}: a first stage holding more micro-batches' activations can be the fullest while the last, with
     * the output layer, holds more states.
     */
    public MemoryModel.Stage mostStates() {
        MemoryModel.Stage best = stages.get(0);
        for (MemoryModel.Stage s : stages) if (states(s) > states(best)) best = s;
        return best;
    }

    private static double states(MemoryModel.Stage s) { return s.weights() + s.gradients() + s.optimizer(); }

    /** Some stage needs more memory than the GPU has. */
    public boolean outOfMemory() { return largestStage().total() > capacityBytes; }
}
