package dev.gpulint.plan;

import dev.gpulint.derive.estimate.Estimate;
import dev.gpulint.derive.estimate.Estimator;
import dev.gpulint.derive.estimate.JobInputs;
import dev.gpulint.derive.estimate.Layout;
import dev.gpulint.derive.estimate.MemoryModel;
import dev.gpulint.derive.estimate.ModelShape;
import dev.gpulint.derive.estimate.StateBytes;
import dev.gpulint.core.Span;
import dev.gpulint.facts.StageMemoryFact;
import dev.gpulint.plan.search.CandidateSearch;
import dev.gpulint.spec.Specs;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The estimate as the search's score: each layout priced by {@link Estimator} with the job's model, hardware, rank
 * order and optimizer bytes (../spec/PLAN.md), the vocabulary padded again for the layout's tp as Megatron pads it.
 * An estimate the report asks for is kept (priced once, on any thread); a score keeps none (tens of thousands of valid
 * layouts are scored, a few printed), and as Estimator is a function of its inputs the report shows the same numbers the
 * ranking used. Each layout's memory fact is the estimate's fullest stage, which MEM003 (states and activations over the
 * GPU's memory) and MEM002 (states above its warning share) judge.
 */
final class Pricer implements CandidateSearch.Pricing {

    private final JobInputs in;
    private final long rawVocab;
    private final String jobFile;
    private final Span span;
    private final boolean overridesCatalog;
    private final Map<Layout, Estimate> estimates = new ConcurrentHashMap<>();
    private final Map<Long, ModelShape> shapes = new ConcurrentHashMap<>();

    Pricer(JobInputs in, Specs.Job job) { this(in, job, false); }

    /** @param overridesCatalog the node group's declared gpu.memory differs from the catalog's (its messages say so) */
    Pricer(JobInputs in, Specs.Job job, boolean overridesCatalog) {
        this.in = in;
        this.overridesCatalog = overridesCatalog;
        Specs.Model m = job.model();
        long v = m == null || m.vocabSize() == null || m.vocabSize().value() == null ? 0 : m.vocabSize().value();
        this.rawVocab = v > 0 ? v : 50257;
        this.jobFile = job.file();
        this.span = m == null ? null : m.layers() != null ? m.layers().span() : m.hiddenSize() != null ? m.hiddenSize().span() : job.span();
    }

    /** The GPU's memory: what MEM003 holds a layout's fullest stage to (MEM002 holds its model states to 90 % of it). */
    double usable() { return in.hardware().memoryBytes(); }

    /** The layout's estimate (priced once, and kept: the report prints it). */
    Estimate estimate(Layout l) { return estimates.computeIfAbsent(l, this::price); }

    private Estimate price(Layout l) {
        return Estimator.estimate(shape(l.tp()), l, in.hardware(), in.order(), in.bytes(), in.variants());
    }

    /** The model with its vocabulary padded for {@code tp}. */
    private ModelShape shape(long tp) {
        return shapes.computeIfAbsent(tp, t -> {
            ModelShape m = in.model();
            return m.withVocab(ModelShape.padVocab(rawVocab, t));
        });
    }

    /** Its fullest stage's bytes per GPU. */
    double peakBytes(Layout l) { return fullest(l).total(); }

    /**
     * The fullest stage of a layout, from {@link MemoryModel} as {@link Estimator} calls it (the job's optimizer bytes, or
     * those of its precision and ZeRO stage), without pricing the step: every layout's memory is checked, only the
     * valid ones are priced (PricerTest holds the two equal). Computed at each call, not kept: {@link MemoryModel#fullest}
     * sums a layout's stages from what they share, which costs less than finding it again among the search's ~190,000
     * layouts in a map (the 1,024-GPU hybrid plan's lookups took more CPU than computing them).
     */
    MemoryModel.Stage fullest(Layout l) {
        return MemoryModel.fullest(shape(l.tp()), l, stateBytes(l.zeroStage(), l.distributedOptimizer()), in.variants());
    }

    /**
     * The job's optimizer bytes at a ZeRO stage and distributed-optimizer choice, or those of its precision: a function of
     * the two alone (a record of the job's inputs), made once for each of the eight pairs rather than once per layout
     * (the hybrid plan's 189,012 layouts made 25 MB of them). Filled from every core: a racing fill stores an equal record.
     */
    private StateBytes stateBytes(int zeroStage, boolean distributed) {
        int at = zeroStage * 2 + (distributed ? 1 : 0);
        StateBytes b = at >= 0 && at < bytesAt.length ? bytesAt[at] : null;
        if (b != null) return b;
        b = in.bytes() != null ? in.bytes().at(zeroStage, distributed)
                : StateBytes.of(in.model().dtype(), zeroStage, distributed, null, null);
        if (at >= 0 && at < bytesAt.length) bytesAt[at] = b;
        return b;
    }

    private final StateBytes[] bytesAt = new StateBytes[8];

    /**
     * What the memory facts of a layout's recompute choices share: its stages' model states ({@link MemoryModel#states},
     * which recompute does not change), for the layout with its recompute set aside ({@code key}).
     */
    private record Shared(Layout key, MemoryModel.States states) {}

    /**
     * The last {@link Shared} each thread made: the search asks for a checked layout's memory facts one recompute choice
     * after the other on one thread, so two of its three find the states made for the first (a function of the key alone:
     * the same doubles whichever thread or order made them).
     */
    private final ThreadLocal<Shared> lastShared = new ThreadLocal<>();

    /** Every component of the layout but its recompute (the canonical constructor: a component Layout gains is one more here). */
    private static Layout keyOf(Layout l) {
        return new Layout(l.tp(), l.pp(), l.dp(), l.cp(), l.ep(), l.virtualPp(), l.microBatchSize(), l.globalBatchSize(),
                l.zeroStage(), l.distributedOptimizer(), Layout.Recompute.NONE, l.sequenceParallel(), l.split(), l.offloadLayers(),
                l.recomputeEvery(), l.dpShard(), l.scheduleBatch());
    }

    private Shared shared(Layout l) {
        Layout key = keyOf(l);
        Shared s = lastShared.get();
        if (s != null && s.key().equals(key)) return s;
        s = new Shared(key, MemoryModel.states(shape(l.tp()), l, stateBytes(l.zeroStage(), l.distributedOptimizer()), in.variants()));
        lastShared.set(s);
        return s;
    }

    @Override
    public CandidateSearch.Score score(Layout l) { return score(l, null); }

    /**
     * The model states {@link #memory} made for a layout ({@code of}), which its memory facts and its score read: handed back
     * with that very layout (by identity: no key made and compared again), they are its own.
     */
    private record Made(Layout of, MemoryModel.States states) {}

    /** The layout's stages' model states, as its memory facts read them ({@link #memoryFact(Layout, Object, String, String)}). */
    @Override
    public Object memory(Layout l) { return new Made(l, shared(l).states()); }

    /**
     * The layout's score, its stages sized from {@code memory} when that is what {@link #memory} made for this layout but
     * its recompute (the search's: the model states its memory facts were made from), else from the start: the same doubles
     * either way (MemoryModel.sized, MemoryModelTest; PricerTest holds the two scores equal).
     */
    @Override
    public CandidateSearch.Score score(Layout l, Object memory) {
        // the search scores every valid layout (tens of thousands) and the report prints a few: a score keeps no estimate and
        // builds no breakdown (Estimator.score: the same pricing with no terms written, the same doubles as the estimate's,
        // which the report prices again for the layouts it prints)
        ModelShape m = shape(l.tp());
        Estimator.Score s = memory instanceof Made made && made.of() == l
                ? Estimator.score(m, l, in.hardware(), in.order(), in.bytes(), in.variants(), MemoryModel.sized(m, l, in.variants(), made.states()))
                : Estimator.score(m, l, in.hardware(), in.order(), in.bytes(), in.variants());
        // the headroom from the stages the pricing holds: the first largest of them is MemoryModel.fullest's stage, the same
        // doubles (both fill a stage by MemoryModel.Stages, with the same StateBytes), so peakBytes(l) would only compute
        // every stage of the layout again (PricerTest holds the two equal to the bit)
        return new CandidateSearch.Score(s.tokensPerSecondPerGpu(), usable() - s.largestStageBytes());
    }

    @Override
    public Object memoryFact(Layout l, String job, String aspect) { return memoryFact(l, null, job, aspect); }

    @Override
    public Object memoryFact(Layout l, Object memory, String job, String aspect) {
        if (span == null) return null;
        MemoryModel.States states = memory instanceof Made made && made.of() == l ? made.states() : shared(l).states();
        MemoryModel.Stage s = MemoryModel.fullest(shape(l.tp()), l, in.variants(), states);
        StageMemoryFact f = new StageMemoryFact(job, jobFile, in.hardware().gpu(), l::sizes, l.recompute().id(), s.stage(), l.pp(),
                s.weights(), s.gradients(), s.optimizer(), s.activations(), usable(), span, aspect);
        f.virtualPp(l.virtualPp());
        // the job's accounting at the layout's sharding choice is stateBytes' (in.bytes().at, kept per choice; the one fullest(l)
        // reads), as StageMemory.account takes it for check's own layout; no second branch: a Pricer's job has its StateBytes
        return dev.gpulint.derive.estimate.StageMemory.accounted(f, stateBytes(l.zeroStage(), l.distributedOptimizer()), l, overridesCatalog);
    }
}
