package dev.gpulint.facts;

import dev.gpulint.core.Span;

/**
 * The fullest pipeline stage of a job by the plan's estimate (derive.estimate.MemoryModel): model states and
 * activations per GPU against the GPU's memory (MEM003). Only for jobs that state their model's shape.
 */
public final class StageMemoryFact implements SizedFact {
    private final String jobName, file, gpu, recompute, aspect;
    // words for a finding only (no rule condition reads it): made when a template asks, not for each of the plan's ~63,000
    // checked layouts, whose findings are not worded
    private final java.util.function.Supplier<String> layout;
    private final int stage, stages;
    private final double weights, gradients, optimizer, activations, capacity;
    private final Span span;

    public StageMemoryFact(String jobName, String file, String gpu, java.util.function.Supplier<String> layout, String recompute,
                           int stage, int stages, double weights, double gradients, double optimizer, double activations,
                           double capacity, Span span) {
        this(jobName, file, gpu, layout, recompute, stage, stages, weights, gradients, optimizer, activations, capacity, span,
                "stage-memory");
    }

    /**
     * With the identity's aspect named: `gpulint plan` checks one layout's memory per recompute choice, several facts
     * for one candidate job ("stage-memory/full"), and tells their findings apart by it.
     */
    public StageMemoryFact(String jobName, String file, String gpu, java.util.function.Supplier<String> layout, String recompute,
                           int stage, int stages, double weights, double gradients, double optimizer, double activations,
                           double capacity, Span span, String aspect) {
        this.aspect = aspect;
        this.jobName = jobName; this.file = file; this.gpu = gpu; this.layout = layout; this.recompute = recompute;
        this.stage = stage; this.stages = stages; this.weights = weights; this.gradients = gradients; this.optimizer = optimizer;
        this.activations = activations; this.capacity = capacity; this.span = span;
    }

    private int virtualPp = 1;

    /**
     * Virtual pipeline stages per pipeline rank (interleaved 1F1B): the stage this fact counts is a pipeline rank, its
     * {@code vpp} virtual stages (model chunks) together, where a layout (SYN010) numbers the virtual stages one by one.
     */
    public StageMemoryFact virtualPp(int vpp) { this.virtualPp = Math.max(1, vpp); return this; }
    /** Virtual stages per pipeline rank (1 without the interleaved schedule). */
    public int getVirtualPp() { return virtualPp; }
    /** The stage is a pipeline rank holding several virtual stages ({@link #getVirtualPp} above 1). */
    public boolean isInterleaved() { return virtualPp > 1; }
    /** All the virtual stages, pp × vpp. */
    public int getVirtualStages() { return stages * virtualPp; }

    private String accounting = "megatron-bf16", accountingWhere;
    private double bytesPerParameter = 18;
    private boolean distributed, capacityOverridesCatalog;

    /**
     * The model-state accounting the estimate used (derive.estimate.StateBytes: its id, bytes per parameter before
     * sharding, where stated bytes are stated), whether the distributed optimizer shards them, and whether the
     * capacity is a declared gpu.memory that differs from the catalog's figure.
     */
    public StageMemoryFact accounting(String id, double bytesPerParameter, String where, boolean distributed, boolean overridesCatalog) {
        this.accounting = id; this.bytesPerParameter = bytesPerParameter; this.accountingWhere = where; this.distributed = distributed;
        this.capacityOverridesCatalog = overridesCatalog; return this;
    }
    /** The accounting's id (stated, fp32, zero, megatron-fp16, megatron-bf16, least). */
    public String getAccounting() { return accounting; }
    /** Bytes per parameter of the model states before sharding. */
    public double getBytesPerParameter() { return bytesPerParameter; }
    /** Where stated bytes per parameter are stated. */
    public String getAccountingWhere() { return accountingWhere == null ? "optimizer.bytes_per_parameter" : accountingWhere; }
    /** Megatron's distributed optimizer shards the optimizer states. */
    public boolean isDistributed() { return distributed; }
    /** The capacity is a declared gpu.memory that differs from the catalog's figure. */
    public boolean isCapacityOverridesCatalog() { return capacityOverridesCatalog; }

    /** The job's name. */
    public String getJobName() { return jobName; }
    /** The file the job is declared in. */
    public String getFile() { return file; }
    /** The GPU's catalog name. */
    public String getGpu() { return gpu; }
    /** The layout's sizes as texts name them ("tp 8, pp 2, dp 4"). */
    public String getLayout() { return layout.get(); }
    /** none, selective or full. */
    public String getRecompute() { return recompute; }
    /** The fullest stage (0 = first). */
    public int getStage() { return stage; }
    /** The fullest stage counted from 1, as messages name it ("pipeline stage 2 of 2" is the last). */
    public int getStageNumber() { return stage + 1; }
    /** Pipeline stages (pp). */
    public int getStages() { return stages; }
    /** Model states (weights, gradients, optimizer) per GPU of that stage, bytes. */
    public double getStatesBytes() { return weights + gradients + optimizer; }
    /** Model states per GPU as a share of the GPU's memory (MEM002). */
    public double getStatesShare() { return capacity > 0 ? getStatesBytes() / capacity : 0; }
    // a boolean for MEM002's condition: the executable model boxes both sides of every numeric comparison, and a plan inserts
    // three of these facts per layout it checks (the 1,024-GPU hybrid's ~190,000)
    /** Model states per GPU within the GPU's memory: statesShare ≤ 1 (true when the capacity is unknown). */
    public boolean isStatesFit() { return getStatesShare() <= 1; }
    /** Activations of the stage's in-flight micro-batches per GPU, bytes. */
    public double getActivationsBytes() { return activations; }
    /** Model states plus activations per GPU, bytes. */
    public double getTotalBytes() { return weights + gradients + optimizer + activations; }
    /** The GPU's memory, bytes. */
    public double getCapacityBytes() { return capacity; }
    /** The terms in GB, for messages: "weights 8.7 + gradients 17.4 + optimizer 13.0 + activations 22.3". */
    public String getTerms() {
        return String.format(java.util.Locale.ROOT, "weights %.1f + gradients %.1f + optimizer %.1f + activations %.1f GB",
                weights / 1e9, gradients / 1e9, optimizer / 1e9, activations / 1e9);
    }
    /** Where the model's shape is written (model.layers). */
    public Span getSpan() { return span; }
    /** The finding's identity: the job and this rule's aspect. */
    public String identity() {
        // called per finding on a memory fact, tens of thousands a plan: the builder sized once (the inline concatenation
        // grew it from 16 bytes three times)
        String job = String.valueOf(jobName), a = String.valueOf(aspect);       // "null" as the concatenation wrote it
        return new StringBuilder(14 + job.length() + a.length()).append("training_job:").append(job).append('/').append(a).toString();
    }

    private AssumedSize sized = AssumedSize.NONE;

    /** The fields {@link #saying} leaves out: whose the fact is, and words for a finding (no rule condition reads them). */
    public static final java.util.Set<String> NOT_SAID = java.util.Set.of("jobName", "aspect", "layout", "recompute");

    /**
     * What the fact says but whose it is and its words: every field but {@link #NOT_SAID}, compared whole (equal and
     * hashed alike when so). `gpulint plan` checks one of these per layout and recompute choice (the 1,024-GPU hybrid's
     * ~190,000), many of them the same bytes of another layout's; MEM002 and MEM003 read none of the fields left out but
     * the job's name, which they join to the job's {@link MemoryFact} (CandidateSearchTest holds both).
     */
    public Object saying() { return new Saying(this); }

    private static final class Saying {
        private final StageMemoryFact f;

        Saying(StageMemoryFact f) { this.f = f; }

        @Override public int hashCode() {
            int h = Double.hashCode(f.weights);
            h = 31 * h + Double.hashCode(f.gradients);
            h = 31 * h + Double.hashCode(f.optimizer);
            h = 31 * h + Double.hashCode(f.activations);
            return 31 * h + f.stage;
        }

        @Override public boolean equals(Object o) {
            if (!(o instanceof Saying s)) return false;
            StageMemoryFact g = s.f;
            return Double.compare(f.weights, g.weights) == 0 && Double.compare(f.gradients, g.gradients) == 0
                    && Double.compare(f.optimizer, g.optimizer) == 0 && Double.compare(f.activations, g.activations) == 0
                    && Double.compare(f.capacity, g.capacity) == 0 && f.stage == g.stage && f.stages == g.stages
                    && f.virtualPp == g.virtualPp && Double.compare(f.bytesPerParameter, g.bytesPerParameter) == 0
                    && f.distributed == g.distributed && f.capacityOverridesCatalog == g.capacityOverridesCatalog
                    && java.util.Objects.equals(f.file, g.file) && java.util.Objects.equals(f.gpu, g.gpu)
                    && java.util.Objects.equals(f.span, g.span) && java.util.Objects.equals(f.accounting, g.accounting)
                    && java.util.Objects.equals(f.accountingWhere, g.accountingWhere) && java.util.Objects.equals(f.sized, g.sized);
        }
    }

    /** The job's files state no GPU count (nor dp): these bytes are at the size `gpulint plan` takes for it ({@link AssumedSize}). */
    @Override public StageMemoryFact sized(AssumedSize size) { this.sized = size; return this; }
    @Override public AssumedSize assumedSize() { return sized; }
}
