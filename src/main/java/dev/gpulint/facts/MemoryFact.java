package dev.gpulint.facts;

import dev.gpulint.core.Span;

/**
 * A job's model states per GPU (MEM family): weights, gradients and optimizer states of the
 * parameters its GPU holds, against that GPU's memory. The arithmetic is derive.estimate.StateBytes (the one
 * accounting the plan's estimate also uses) in derive.mem.MemoryAnalysis (unit-tested); the rules compare the result.
 */
public final class MemoryFact implements SizedFact {
    private final String jobName, file, gpuName, groupName;
    private final double parameters, bytesPerParameter, weightBytes, gradientBytes, optimizerBytes, perGpuBytes, capacityBytes;
    private final boolean bytesFromConfig, capacityDeclared, anyGpu, dpUnbounded;
    private final String parametersEstimate;
    private final long tp, pp, dp, zeroStage;
    private final Span parametersSpan, capacitySpan;

    public MemoryFact(String jobName, String file, double parameters, Span parametersSpan, double bytesPerParameter,
                      boolean bytesFromConfig, double weightBytes, double gradientBytes, double optimizerBytes,
                      long tp, long pp, long dp, long zeroStage, double perGpuBytes, double capacityBytes, String gpuName,
                      String groupName, boolean capacityDeclared, Span capacitySpan) {
        this.jobName = jobName; this.file = file; this.parameters = parameters; this.parametersSpan = parametersSpan;
        this.bytesPerParameter = bytesPerParameter; this.bytesFromConfig = bytesFromConfig; this.weightBytes = weightBytes;
        this.gradientBytes = gradientBytes; this.optimizerBytes = optimizerBytes; this.tp = tp; this.pp = pp; this.dp = dp;
        this.zeroStage = zeroStage; this.perGpuBytes = perGpuBytes; this.capacityBytes = capacityBytes; this.gpuName = gpuName;
        this.groupName = groupName; this.capacityDeclared = capacityDeclared; this.capacitySpan = capacitySpan;
        this.anyGpu = false; this.dpUnbounded = false; this.parametersEstimate = null;
    }

    /**
     * @param anyGpu no GPU is known: the capacity is the largest of the catalog's GPUs
     * @param dpUnbounded dp is not known: ZeRO's shards are taken as spread over unboundedly many ranks (the floor)
     * @param parametersEstimate how the parameter count was estimated, when the format states none; null otherwise
     */
    public MemoryFact(String jobName, String file, double parameters, Span parametersSpan, double bytesPerParameter,
                      boolean bytesFromConfig, double weightBytes, double gradientBytes, double optimizerBytes,
                      long tp, long pp, long dp, long zeroStage, double perGpuBytes, double capacityBytes, String gpuName,
                      String groupName, boolean capacityDeclared, Span capacitySpan, boolean anyGpu, boolean dpUnbounded,
                      String parametersEstimate) {
        this.jobName = jobName; this.file = file; this.parameters = parameters; this.parametersSpan = parametersSpan;
        this.bytesPerParameter = bytesPerParameter; this.bytesFromConfig = bytesFromConfig; this.weightBytes = weightBytes;
        this.gradientBytes = gradientBytes; this.optimizerBytes = optimizerBytes; this.tp = tp; this.pp = pp; this.dp = dp;
        this.zeroStage = zeroStage; this.perGpuBytes = perGpuBytes; this.capacityBytes = capacityBytes; this.gpuName = gpuName;
        this.groupName = groupName; this.capacityDeclared = capacityDeclared; this.capacitySpan = capacitySpan;
        this.anyGpu = anyGpu; this.dpUnbounded = dpUnbounded; this.parametersEstimate = parametersEstimate;
    }

    /** No GPU is known for the job: the capacity is the largest memory of any GPU in the catalog. */
    public boolean isAnyGpu() { return anyGpu; }
    /** dp is not known: the estimate is the floor, with ZeRO's shards spread over unboundedly many ranks. */
    public boolean isDpUnbounded() { return dpUnbounded; }
    /** How the parameter count was estimated when the format states none ("≈ 12 × layers × hidden²"); null when stated. */
    public String getParametersEstimate() { return parametersEstimate; }

    /** The job's name. */
    public String getJobName() { return jobName; }
    /** The file the job is declared in. */
    public String getFile() { return file; }
    /** The model's parameter count (model.parameters). */
    public double getParameters() { return parameters; }
    /** Where model.parameters is written. */
    public Span getParametersSpan() { return parametersSpan; }
    /** Bytes of model states per parameter before sharding, by the job's accounting ({@link #getAccounting}). */
    public double getBytesPerParameter() { return bytesPerParameter; }
    /** The bytes per parameter are stated by the job (optimizer.bytes_per_parameter, or a format's gradient dtype). */
    public boolean isBytesFromConfig() { return bytesFromConfig; }
    /** Of the bytes per parameter: weights (2 for bf16). */
    public double getWeightBytes() { return weightBytes; }
    /** Of the bytes per parameter: gradients (2 for bf16). */
    public double getGradientBytes() { return gradientBytes; }
    /** Of the bytes per parameter: optimizer states (12 for Adam with fp32 master weights). */
    public double getOptimizerBytes() { return optimizerBytes; }
    /** Tensor-parallel size the parameters are divided by. */
    public long getTp() { return tp; }
    /** Pipeline-parallel size the parameters are divided by. */
    public long getPp() { return pp; }
    /** Data-parallel size ZeRO or the distributed optimizer shards over, with cp (0 when not known). */
    public long getDp() { return dp; }
    /** ZeRO stage: 0 none, 1 optimizer states, 2 and gradients, 3 and weights. */
    public long getZeroStage() { return zeroStage; }
    /** Model states one GPU holds, in bytes. */
    public double getPerGpuBytes() { return perGpuBytes; }
    /** The GPU's memory, in bytes. */
    public double getCapacityBytes() { return capacityBytes; }
    /** perGpuBytes ÷ capacityBytes. */
    public double getRatio() { return perGpuBytes / capacityBytes; }
    /** The GPU's catalog name, null when the model is not in the catalog. */
    public String getGpuName() { return gpuName; }
    /** The node group the job runs on; null when no GPU is known (anyGpu). */
    public String getGroupName() { return groupName; }
    /** The capacity is the node group's declared gpu.memory (else the catalog's figure for the model). */
    public boolean isCapacityDeclared() { return capacityDeclared; }
    /** Where the capacity is stated: gpu.memory, or gpu.model. */
    public Span getCapacitySpan() { return capacitySpan; }

    private String accounting = "zero", accountingWhere;
    private boolean distributed, capacityOverridesCatalog;
    private long cp = 1;
    private double catalogCapacityBytes;

    /**
     * Which accounting the bytes per parameter come from (derive.estimate.StateBytes.Accounting's id: stated, fp32,
     * zero, megatron-fp16, megatron-bf16, least) and where a stated one is stated; whether Megatron's distributed
     * optimizer shards the optimizer states; the context-parallel size the shards also spread over; and whether the
     * capacity is a declared gpu.memory that differs from the catalog's figure ({@code catalogBytes}).
     */
    public MemoryFact accounting(String id, String where, boolean distributed, long cp, boolean overridesCatalog, double catalogBytes) {
        this.accounting = id; this.accountingWhere = where; this.distributed = distributed; this.cp = Math.max(1, cp);
        this.capacityOverridesCatalog = overridesCatalog; this.catalogCapacityBytes = catalogBytes; return this;
    }
    /** The accounting's id (stated, fp32, zero, megatron-fp16, megatron-bf16, least). */
    public String getAccounting() { return accounting; }
    /** Where stated bytes per parameter are stated ("optimizer.bytes_per_parameter", "--grad-reduce-in-bf16 ..."). */
    public String getAccountingWhere() { return accountingWhere == null ? "optimizer.bytes_per_parameter" : accountingWhere; }
    /** Megatron's distributed optimizer shards the optimizer states over dp·cp. */
    public boolean isDistributed() { return distributed; }
    /** The optimizer states (and with ZeRO-2/3 more) are sharded: a ZeRO stage or the distributed optimizer. */
    public boolean isSharded() { return distributed || zeroStage > 0; }
    /** Context-parallel size: the data-parallel shards spread over dp × cp ranks. */
    public long getCp() { return cp; }
    /** The capacity is a declared gpu.memory that differs from the catalog's figure for the model. */
    public boolean isCapacityOverridesCatalog() { return capacityOverridesCatalog; }
    /** The catalog's memory for the model (0 when unknown). */
    public double getCatalogCapacityBytes() { return catalogCapacityBytes; }

    private double expertParameters = -1, sharedBytes, expertBytes;
    private long ep = 1, expertTp, expertDp;

    /**
     * The mixture-of-experts split, set by the derive stage before the fact is added: the expert
     * parameters (model.expert_parameters), ep, the expert tp, the expert data-parallel size GPUs ÷ (ep × expert tp × pp),
     * and the bytes per GPU of the shared and of the expert parameters' states.
     */
    public MemoryFact experts(double expertParameters, long ep, long expertTp, long expertDp, double sharedBytes, double expertBytes) {
        this.expertParameters = expertParameters; this.ep = ep; this.expertTp = expertTp; this.expertDp = expertDp;
        this.sharedBytes = sharedBytes; this.expertBytes = expertBytes; return this;
    }
    /** Expert parameters of a mixture-of-experts model (model.expert_parameters); -1 when the estimate is dense. */
    public double getExpertParameters() { return expertParameters; }
    /** Parameters outside the experts (attention, embeddings, norms, router): parameters − expert parameters. */
    public double getSharedParameters() { return expertParameters < 0 ? parameters : parameters - expertParameters; }
    /** Expert-parallel size the expert parameters are divided by (with the expert tp and pp). */
    public long getEp() { return ep; }
    /** The experts' tensor-parallel size the expert parameters are divided by (parallelism.etp, else tp). */
    public long getExpertTp() { return expertTp > 0 ? expertTp : tp; }
    /** Expert data-parallel size ZeRO shards the expert parameters' states over: GPUs ÷ (ep × expert tp × pp); 0 when unknown. */
    public long getExpertDp() { return expertDp; }
    /** Model states of the shared parameters one GPU holds, in bytes (MoE split only). */
    public double getSharedBytes() { return sharedBytes; }
    /** Model states of the expert parameters one GPU holds, in bytes (MoE split only). */
    public double getExpertBytes() { return expertBytes; }
    /** The estimate splits expert and shared parameters. */
    public boolean isMoe() { return expertParameters >= 0; }

    private String offloaded;

    /**
     * The model states the job keeps in host memory, as the message names them ("the optimizer states and gradients in
     * host memory (zero_optimization.offload_optimizer.device)"), set by the derive stage: {@link #getPerGpuBytes} is
     * then what stays on the GPU (derive.estimate.StateOffload).
     */
    public MemoryFact offloaded(String what) { this.offloaded = what; return this; }
    /** Model states are offloaded to host memory and left out of perGpuBytes. */
    public boolean isOffload() { return offloaded != null; }
    /** What is offloaded and where that is written; null when nothing is. */
    public String getOffloaded() { return offloaded; }

    private double bytesOnGpu;

    /** The bytes per parameter that stay on the GPU when model states are offloaded, before sharding (derive stage). */
    public MemoryFact bytesOnGpu(double bytes) { this.bytesOnGpu = bytes; return this; }
    /** Bytes per parameter that stay on the GPU, before tp, pp and ZeRO divide them: the offload's remainder of bytesPerParameter. */
    public double getBytesOnGpu() { return bytesOnGpu; }

    /**
     * The job has pipeline stages: perGpuBytes is, when the estimate prices the job's shape ({@link #isNamed}), the states of
     * the plan's stage with the most of them (an uneven split, the embedding and output layer on the first and last), the one
     * `gpulint plan` prints; otherwise the states' mean over the stages (parameters ÷ tp·pp), which the message says.
     */
    public boolean isStaged() { return pp > 1; }

    private long shard;

    /**
     * Hybrid sharding (HSDP): the states shard over a group of {@code ranks} data-parallel ranks (times cp), each of the
     * dp ÷ ranks replicas holding the whole states (derive stage: derive.estimate.StateShards, as the plan shards them).
     */
    public MemoryFact hybrid(long ranks) { this.shard = ranks; return this; }
    private boolean pipelined;
    /**
     * FSDP under pipeline parallelism (derive.estimate.ShardedGathers.pipelined): the weights and the gradients are held whole
     * through the step, only the optimizer states sharded (derive stage).
     */
    public MemoryFact pipelined(boolean p) { this.pipelined = p; return this; }
    /** FSDP under pipeline parallelism: weights and gradients held whole, the optimizer states sharded. */
    public boolean isPipelined() { return pipelined; }
    /** The states shard over an HSDP shard group smaller than dp. */
    public boolean isHybrid() { return shard > 0 && dp > shard; }
    /** The HSDP shard group's data-parallel ranks; 0 without hybrid sharding. */
    public long getShard() { return shard; }
    /** The HSDP replicas, dp ÷ the shard group; 1 without hybrid sharding. */
    public long getReplicas() { return isHybrid() ? dp / shard : 1; }

    private String shape;
    private int stage;
    private double stageParameters, heldBytes;

    /**
     * The job states no parameter count and its model states are the plan's fullest stage (a torchtitan job naming its
     * flavor: derive.mem.MemoryAnalysis#named): where its shape came from, the stage, that stage's parameters on one GPU
     * before sharding (÷ tp, and ÷ etp·ep for routed experts) and the bytes of torchtitan's final norm + output unit and the
     * block FSDP2 prefetches beside it, whole at its peak (0: none), which perGpuBytes includes.
     */
    public MemoryFact named(String shape, int stage, double stageParameters, double heldBytes) {
        this.staged = true;
        this.shape = shape; this.stage = stage; this.stageParameters = stageParameters; this.heldBytes = heldBytes; return this;
    }
    private boolean staged;
    /**
     * The model states are the plan's stage with the most of them (a torchtitan job naming its flavor, or any job with pipeline
     * stages whose shape the estimate prices, so that check and plan judge the same stage): see {@link #named}.
     */
    public boolean isNamed() { return staged; }
    /** The shape came from the model's name ({@link #getShape}), not from the sizes the job writes. */
    public boolean isShapeFromName() { return shape != null; }
    /** Where a named job's shape came from ("[model] name and flavor llama3:405B: the model catalog's ..."); null when the job writes it. */
    public String getShape() { return shape; }
    /** The plan's fullest stage a named job's states are those of (0 at pp 1). */
    public int getPipelineStage() { return stage; }
    /** {@link #getPipelineStage} counted from 1, as messages name it ("pipeline stage 2 of 2" is the last). */
    public int getPipelineStageNumber() { return stage + 1; }
    /** A named job's fullest stage's parameters on one GPU before sharding. */
    public double getStageParameters() { return stageParameters; }
    private long namedEp, namedExpertTp;

    /**
     * The named stage's routed experts are split over expert tp × ep GPUs, not tp (MoeShape.ExpertShare, the plan's split),
     * which the message says beside "÷ tp"; set for a mixture-of-experts shape only.
     */
    public MemoryFact namedExperts(long expertTp, long ep) { this.namedExpertTp = expertTp; this.namedEp = ep; return this; }
    /** The named stage's shape has routed experts ({@link #namedExperts}). */
    public boolean isNamedMoe() { return namedEp > 0; }
    /** The expert tp the named stage's routed experts are divided by (0 when dense). */
    public long getNamedExpertTp() { return namedExpertTp; }
    /** The ep the named stage's routed experts are divided by (0 when dense). */
    public long getNamedEp() { return namedEp; }

    /** Bytes of torchtitan's final norm + output unit and the block FSDP2 prefetches beside it, whole at the stage's peak, in perGpuBytes (0: none). */
    public double getHeldBytes() { return heldBytes; }
    /** torchtitan's gathered units are held whole at the stage's peak ({@link #getHeldBytes}). */
    public boolean isHeld() { return heldBytes > 0; }

    /** The fingerprint identity of this estimate. */
    public String identity() { return "training_job:" + jobName + "/memory"; }

    @Override public String toString() { return "MemoryFact[" + jobName + " " + perGpuBytes + "/" + capacityBytes + "]"; }

    private AssumedSize sized = AssumedSize.NONE;

    /** The job's files state no GPU count (nor dp): these bytes are at the size `gpulint plan` takes for it ({@link AssumedSize}). */
    @Override public MemoryFact sized(AssumedSize size) { this.sized = size; return this; }
    @Override public AssumedSize assumedSize() { return sized; }
}
