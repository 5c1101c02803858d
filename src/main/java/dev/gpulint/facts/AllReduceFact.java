package dev.gpulint.facts;

import dev.gpulint.core.Span;

/**
 * One step's gradient all-reduce of a job (NET003): S bytes of gradients per GPU over N = dp × cp
 * ranks (the data-parallel gradient group) on the link the first such group uses. A ring all-reduce sends
 * 2(N−1)/N × S per GPU (CollectiveCost in the derive stage, the plan's model, unit-tested).
 */
public final class AllReduceFact {

    /** The link the data-parallel group's traffic crosses. */
    public enum Link { NVLINK, INFINITY_FABRIC, PCIE, NETWORK }

    private final String jobName, file, dtype, nicName, groupName;
    private final double parameters, gradientBytes, sentBytes, volumeFactor, linkBytesPerSecond, seconds, stepTime;
    private final long tp, pp, bytesPerGradient, ranks, nics, ringsPerNode;
    private final int generation;
    private final Link link;
    private final Span span, nicSpan;
    private double nicShareBytesPerSecond, pcieCapBytesPerSecond;
    private int pcieCapGeneration;
    private long pcieCapLanes, ringGpusPerNode;
    private String gradientWhy;
    private double estimatedSeconds, efficiency;
    private boolean tcp;

    public AllReduceFact(String jobName, String file, double parameters, long tp, long pp, long bytesPerGradient, String dtype,
                         double gradientBytes, long ranks, double volumeFactor, double sentBytes, Link link, int generation,
                         double linkBytesPerSecond, long nics, String nicName, long ringsPerNode, String groupName,
                         double seconds, double stepTime, Span span, Span nicSpan) {
        this.jobName = jobName; this.file = file; this.parameters = parameters; this.tp = tp; this.pp = pp;
        this.bytesPerGradient = bytesPerGradient; this.dtype = dtype; this.gradientBytes = gradientBytes; this.ranks = ranks;
        this.volumeFactor = volumeFactor; this.sentBytes = sentBytes; this.link = link; this.generation = generation;
        this.linkBytesPerSecond = linkBytesPerSecond; this.nics = nics; this.nicName = nicName; this.ringsPerNode = ringsPerNode;
        this.groupName = groupName; this.seconds = seconds; this.stepTime = stepTime; this.span = span; this.nicSpan = nicSpan;
    }

    /** The job's name. */
    public String getJobName() { return jobName; }
    /** The file the job is declared in. */
    public String getFile() { return file; }
    /** The model's parameter count. */
    public double getParameters() { return parameters; }
    /** Tensor-parallel size the gradients are divided by. */
    public long getTp() { return tp; }
    /** Pipeline-parallel size the gradients are divided by. */
    public long getPp() { return pp; }
    /** Bytes per gradient: 2 (16-bit) or 4 (fp32), as gradientWhy says. */
    public long getBytesPerGradient() { return bytesPerGradient; }
    /** model.dtype as written (lower case), null when not given. */
    public String getDtype() { return dtype; }
    /** S: gradient bytes per GPU, parameters ÷ (tp × pp) × bytes per gradient. */
    public double getGradientBytes() { return gradientBytes; }
    /** N: the ranks of the data-parallel gradient group, dp × cp. */
    public long getRanks() { return ranks; }
    /** 1.5 under ZeRO-3 (a reduce-scatter plus an all-gather of the weights), else 1. */
    public double getVolumeFactor() { return volumeFactor; }
    /** Bytes each GPU sends: 2(N−1)/N × S × the volume factor. */
    public double getSentBytes() { return sentBytes; }
    /** The link the data-parallel group crosses. */
    public Link getLink() { return link; }
    /** NVLink or PCIe generation of that link (0 for the network). */
    public int getGeneration() { return generation; }
    /** Bytes per second per direction one data-parallel ring gets on that link. */
    public double getLinkBytesPerSecond() { return linkBytesPerSecond; }
    /** NICs per node (network only). */
    public long getNics() { return nics; }
    /** The first NIC's speed and model as written, e.g. "400 Gb/s ConnectX-7" (network only). */
    public String getNicName() { return nicName; }
    /** Data-parallel rings sharing a node's NICs (network only; 1 otherwise). */
    public long getRingsPerNode() { return ringsPerNode; }
    /** The node group the job runs on. */
    public String getGroupName() { return groupName; }
    /** Estimated seconds of one step's all-reduce. */
    public double getSeconds() { return seconds; }
    /** The job's step_time in seconds, 0 when not given. */
    public double getStepTime() { return stepTime; }
    /** Where dp (else the parallelism block, else model.parameters) is written. */
    public Span getSpan() { return span; }
    /** Where the first NIC's speed is written (network only), else null. */
    public Span getNicSpan() { return nicSpan; }

    /**
     * Records that the ring's traffic to the network is capped by the PCIe links of its GPUs on a node
     * (each GPU reaches its NICs through its own PCIe link): the NICs' share, the cap, the link's
     * generation and lanes, and the ring's GPUs per node. Called by the derive stage before the fact is added.
     */
    public AllReduceFact pcieCap(double nicShare, double cap, int generation, long lanes, long gpus) {
        nicShareBytesPerSecond = nicShare; pcieCapBytesPerSecond = cap; pcieCapGeneration = generation;
        pcieCapLanes = lanes; ringGpusPerNode = gpus; return this;
    }
    /** Network only: bytes per second per direction the node's NICs give one ring, before any PCIe cap. */
    public double getNicShareBytesPerSecond() { return nicShareBytesPerSecond; }
    /** Network only: what the ring's GPUs on one node can move through their PCIe links, per direction; 0 when not known. */
    public double getPcieCapBytesPerSecond() { return pcieCapBytesPerSecond; }
    /** The PCIe generation of that cap (the node group's pcie.generation, else the GPU's); 0 when not known. */
    public int getPcieCapGeneration() { return pcieCapGeneration; }
    /** The PCIe lanes of each GPU's link (pcie.lanes, else 16). */
    public long getPcieCapLanes() { return pcieCapLanes; }
    /** GPUs of one data-parallel ring on a node, whose PCIe links carry its traffic to the NICs. */
    public long getRingGpusPerNode() { return ringGpusPerNode; }
    /** The PCIe links, not the NICs, limit the ring: the cap is below the NICs' share. */
    public boolean isPcieBound() { return pcieCapBytesPerSecond > 0 && pcieCapBytesPerSecond < nicShareBytesPerSecond; }

    /**
     * Records why the gradients have the bytes they have, and the estimate at NCCL's usual efficiency of the link
     * (the plan's); called by the derive stage before the fact is added.
     */
    public AllReduceFact estimate(String why, double seconds, double efficiency, boolean tcp) {
        gradientWhy = why; estimatedSeconds = seconds; this.efficiency = efficiency; this.tcp = tcp; return this;
    }
    /** Why each gradient has bytesPerGradient bytes: the job's statement, or its accounting's default. */
    public String getGradientWhy() { return gradientWhy; }
    /** Seconds of the all-reduce at the plan's bus bandwidth of the link: the catalog's NCCL efficiency, a project's plan: override of it, or nccl-tests' measurement (0 when the catalog has no efficiencies for the GPU). */
    public double getEstimatedSeconds() { return estimatedSeconds; }
    /** That efficiency: the share of the line rate NCCL's bus bandwidth reaches. */
    public double getEfficiency() { return efficiency; }
    /** The link is plain Ethernet: NCCL crosses nodes over TCP sockets. */
    public boolean isTcp() { return tcp; }

    private boolean measured;

    /** Records that the estimate's bus bandwidth is the nccl-tests run linked to the node group, as the plan's. */
    public AllReduceFact measured() { measured = true; return this; }
    /** The estimate runs at the bus bandwidth nccl-tests measured on the link (its efficiency: that over the line rate). */
    public boolean isMeasured() { return measured; }

    private long dp, cp = 1;

    /**
     * Records the sizes whose product is N: the gradients are reduced over dp·cp ranks (context-parallel ranks hold the
     * same weights; Megatron-Core's dp-cp group). Called by the derive stage before the fact is added.
     */
    public AllReduceFact group(long dp, long cp) {
        this.dp = dp; this.cp = cp; return this;
    }
    /** The data-parallel size (without cp). */
    public long getDp() { return dp; }
    /** The context-parallel size whose ranks join the gradient reduction (1 without cp). */
    public long getCp() { return cp; }
    /** cp &gt; 1: N is dp × cp, not dp. */
    public boolean isContextParallel() { return cp > 1; }

    private String misreadWritten, misreadMeant, misreadLabel;

    /**
     * Records that the NIC speed is 8× off its catalog port speed (UNIT001 in the same run) and the network was priced
     * at the port speed it most likely means instead: the speed as written, that port speed, its catalog name.
     * Called by the derive stage before the fact is added.
     */
    public AllReduceFact misread(String written, String meant, String label) {
        misreadWritten = written; misreadMeant = meant; misreadLabel = label; return this;
    }
    /** The NIC speed is 8× off its catalog port speed, so the network is priced at the one it most likely means. */
    public boolean isMisread() { return misreadMeant != null; }
    /** The NIC speed as written, when {@link #isMisread()} ("400 GB/s"), else null. */
    public String getMisreadWritten() { return misreadWritten; }
    /** The port speed priced instead ("400 Gb/s"), when {@link #isMisread()}, else null. */
    public String getMisreadMeant() { return misreadMeant; }
    /** That port speed's catalog name ("InfiniBand NDR"), when {@link #isMisread()}, else null. */
    public String getMisreadLabel() { return misreadLabel; }

    private boolean hybrid, perStep;
    private long shardRanks, replicas;
    private int gathersPerUnit;
    private double units, shardBytesPerSecond, shardSentBytes, replicaSentBytes, shardGradientBytes, shardSeconds, replicaSeconds,
            shardEstimatedSeconds, replicaEstimatedSeconds;
    private Link shardLink;
    private int shardGeneration;

    /**
     * Records that the job shards its states over a shard group and replicates them (HSDP): the sync of each micro-batch is
     * the shard group's parameter all-gathers ({@code gathersPerUnit} per layer: forward and backward at stage 3, the
     * forward's alone at stage 2) and gradient reduce-scatter, one per layer, and each
     * shard's all-reduce over the replicas, priced by the plan's function (derive/estimate HybridSync). The fact's link,
     * rate, NICs, seconds and estimate are then the replicas' link and the whole sync's. Called by the derive stage before
     * the fact is added.
     */
    public AllReduceFact hybrid(long shardRanks, long replicas, double units, int gathersPerUnit, Link shardLink, int shardGeneration, double shardBytesPerSecond,
                                double shardSentBytes, double replicaSentBytes, double shardGradientBytes, double shardSeconds,
                                double replicaSeconds, double shardEstimatedSeconds, double replicaEstimatedSeconds) {
        this.hybrid = true; this.shardRanks = shardRanks; this.replicas = replicas; this.units = units; this.shardLink = shardLink;
        this.gathersPerUnit = gathersPerUnit;
        this.shardGeneration = shardGeneration; this.shardBytesPerSecond = shardBytesPerSecond; this.shardSentBytes = shardSentBytes;
        this.replicaSentBytes = replicaSentBytes; this.shardGradientBytes = shardGradientBytes; this.shardSeconds = shardSeconds;
        this.replicaSeconds = replicaSeconds; this.shardEstimatedSeconds = shardEstimatedSeconds;
        this.replicaEstimatedSeconds = replicaEstimatedSeconds;
        return this;
    }
    /**
     * HSDP with pipeline parallelism: the sync is the step's, once after the stage's last backward (derive/estimate
     * HybridSync.perStep), not each micro-batch's. Called by the derive stage with {@link #hybrid}.
     */
    public AllReduceFact perStep(boolean perStep) {
        this.perStep = perStep;
        return this;
    }
    /** HSDP under pipeline parallelism: the sync figures are the step's ({@link #perStep(boolean)}). */
    public boolean isPerStep() { return perStep; }
    /** Hybrid sharding (HSDP): the states shard over a shard group of dp and the gradients are all-reduced over the replicas. */
    public boolean isHybrid() { return hybrid; }
    /** HSDP: the data-parallel ranks of one shard group (without cp). */
    public long getShardRanks() { return shardRanks; }
    /** HSDP: the shard group's ranks with its context-parallel ranks, shardRanks × cp. */
    public long getShardGroupRanks() { return shardRanks * Math.max(1, cp); }
    /**
     * HSDP with a shard group of one rank (dp_shard 1 and cp 1): no shard group, no all-gather or reduce-scatter; every GPU
     * holds the whole states and the replicas' all-reduce of the whole gradients is the sync (as DDP's, one per layer).
     */
    public boolean isShardless() { return hybrid && getShardGroupRanks() == 1; }
    /**
     * HSDP at ZeRO stage 2 (FSDP's _HYBRID_SHARD_ZERO2, FSDP2's reshard_after_forward off): the parameters are all-gathered
     * once per layer for the forward and kept for the backward (derive/estimate HybridSync.gathersPerUnit 1), not forward
     * and backward.
     */
    public boolean isGatheredOnce() { return hybrid && gathersPerUnit == 1; }
    /** HSDP: the replicas, dp ÷ shardRanks. */
    public long getReplicas() { return replicas; }
    /** HSDP: the collectives of each kind per micro-batch, one per FSDP unit (a layer). */
    public double getUnits() { return units; }
    /** HSDP: the link the shard group's collectives cross (the fact's {@link #getLink} is the replicas'). */
    public Link getShardLink() { return shardLink; }
    /** HSDP: its NVLink or PCIe generation (0 for the network). */
    public int getShardGeneration() { return shardGeneration; }
    /** HSDP: the shard group's line rate per direction. */
    public double getShardBytesPerSecond() { return shardBytesPerSecond; }
    /** HSDP: bytes each GPU sends in the shard group per micro-batch (the all-gathers and the reduce-scatter). */
    public double getShardSentBytes() { return shardSentBytes; }
    /** HSDP: bytes each GPU sends over the replicas per micro-batch. */
    public double getReplicaSentBytes() { return replicaSentBytes; }
    /** HSDP: the gradients of one shard, S ÷ the shard group's ranks: what the replicas all-reduce. */
    public double getShardGradientBytes() { return shardGradientBytes; }
    /** HSDP: the shard group's seconds at line rate, without NCCL's latency. */
    public double getShardSeconds() { return shardSeconds; }
    /** HSDP: the replicas' seconds at line rate, without NCCL's latency. */
    public double getReplicaSeconds() { return replicaSeconds; }
    /** HSDP: the shard group's seconds as the plan prices them (bus bandwidth, NCCL's latency once per collective). */
    public double getShardEstimatedSeconds() { return shardEstimatedSeconds; }
    /** HSDP: the replicas' seconds as the plan prices them. */
    public double getReplicaEstimatedSeconds() { return replicaEstimatedSeconds; }

    /** The fingerprint identity of this estimate. */
    public String identity() { return "training_job:" + jobName + "/allreduce"; }

    @Override public String toString() { return "AllReduceFact[" + jobName + " " + link + " " + seconds + " s]"; }
}
