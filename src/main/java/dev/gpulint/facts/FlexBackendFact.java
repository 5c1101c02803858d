package dev.gpulint.facts;

import dev.gpulint.core.Span;

/**
 * A job whose MoE layers run Megatron-Core's flex token dispatcher on the deepep backend (DeepEP V1) as its files name it
 * ({@code --moe-flex-dispatcher-backend deepep}, {@code moe_flex_dispatcher_backend: deepep}, the native
 * {@code model.moe.flex_backend: deepep}, older Megatron-LM's {@code --moe-enable-deepep} / {@code moe_enable_deepep}, or a
 * dispatcher written as {@code deepep}), placed on a node group whose NVLink domain joins more than one node (a GB200 /
 * GB300 NVL72 rack of 4-GPU trays: derive.estimate.FlexDispatch#multiNodeNvlink), or read from a Megatron-Bridge file on
 * a GPU Megatron-Bridge refuses deepep on. PAR020: Megatron-Core supports only hybridep on a multi-node NVLink domain; and
 * Megatron-Bridge's validate_flex_dispatcher_backend refuses deepep by the GPU itself, whatever the NVLink domain
 * (compute capability 8 or 9, or a GPU named B200 or B300: flex_dispatcher_backend.py at 183c5c0 and 4587761). An unstated
 * backend is no fact: the estimate takes hybridep on a multi-node domain (FlexDispatch#unstated).
 */
public final class FlexBackendFact {
    private final String jobName, file, key, gpuName, groupName;
    private final long domainSize, gpusPerNode, ep;
    private final boolean multiNodeNvlink, ipcBeyondNode;
    private final boolean bridge, bridgeRefuses, bridgeTakesHybridep, bridgeRefusesHybridep;
    private final String backend;
    private final String computeCapability;
    private final Span span;

    /**
     * @param key             the backend's key as the job's file writes it ("--moe-flex-dispatcher-backend",
     *                        "model.moe_flex_dispatcher_backend", "--moe-enable-deepep", "model.moe.flex_backend")
     * @param multiNodeNvlink the node group's NVLink domain joins more than one node
     * @param ipcBeyondNode   DeepEP V1's CUDA IPC group (NUM_MAX_NVL_PEERS, 8 GPUs) is larger than the group's nodes
     * @param span            where the backend is named
     */
    public FlexBackendFact(String jobName, String file, String key, String gpuName, String groupName, long domainSize,
                           long gpusPerNode, long ep, boolean multiNodeNvlink, boolean ipcBeyondNode, Span span) {
        this(jobName, file, key, "deepep", gpuName, groupName, domainSize, gpusPerNode, ep, multiNodeNvlink, ipcBeyondNode, false,
                false, false, false, null, span);
    }

    /**
     * @param bridge              the job is read from a Megatron-Bridge file (its ConfigContainer.validate runs
     *                            validate_flex_dispatcher_backend before the first step)
     * @param bridgeRefuses       Megatron-Bridge's validate_flex_dispatcher_backend raises for deepep on the group's GPU
     * @param bridgeTakesHybridep the same check accepts hybridep on the group's GPU (every version read: GB200, GB300, B200)
     * @param bridgeRefusesHybridep every version of the same check read raises for hybridep on the group's GPU (compute
     *                            capability known and not 8, 9 or 10)
     * @param backend             the backend named, "deepep" or "hybridep"
     * @param computeCapability   the GPU's CUDA compute capability as the catalog writes it, or null
     */
    public FlexBackendFact(String jobName, String file, String key, String backend, String gpuName, String groupName, long domainSize,
                           long gpusPerNode, long ep, boolean multiNodeNvlink, boolean ipcBeyondNode, boolean bridge,
                           boolean bridgeRefuses, boolean bridgeTakesHybridep, boolean bridgeRefusesHybridep,
                           String computeCapability, Span span) {
        this.backend = backend; this.bridgeRefusesHybridep = bridgeRefusesHybridep;
        this.bridge = bridge; this.bridgeRefuses = bridgeRefuses; this.bridgeTakesHybridep = bridgeTakesHybridep;
        this.computeCapability = computeCapability;
        this.ipcBeyondNode = ipcBeyondNode;
        this.jobName = jobName; this.file = file; this.key = key; this.gpuName = gpuName; this.groupName = groupName;
        this.domainSize = domainSize; this.gpusPerNode = gpusPerNode; this.ep = ep; this.multiNodeNvlink = multiNodeNvlink;
        this.span = span;
    }

    /** The job's name. */
    public String getJobName() { return jobName; }
    /** The file the job is declared in. */
    public String getFile() { return file; }
    /** The backend's key as the file writes it. */
    public String getKey() { return key; }
    /** The node group's GPU, by its catalog name. */
    public String getGpuName() { return gpuName; }
    /** The node group the job runs on. */
    public String getGroupName() { return groupName; }
    /** The GPUs one NVLink domain of the node group joins. */
    public long getDomainSize() { return domainSize; }
    /** The node group's GPUs per node. */
    public long getGpusPerNode() { return gpusPerNode; }
    /** The nodes one NVLink domain joins: domainSize ÷ gpusPerNode, rounded up. */
    public long getNodesPerDomain() { return gpusPerNode <= 0 ? 0 : (domainSize + gpusPerNode - 1) / gpusPerNode; }
    /** The job's expert-parallel size (1 when not written). */
    public long getEp() { return ep; }
    /** The node group's NVLink domain joins more than one node (MNNVL: a GB200 / GB300 NVL72 rack). */
    public boolean isMultiNodeNvlink() { return multiNodeNvlink; }
    /** DeepEP V1's CUDA IPC group of 8 GPUs (NUM_MAX_NVL_PEERS) is larger than one of the group's nodes. */
    public boolean isIpcBeyondNode() { return ipcBeyondNode; }
    /** The job is read from a Megatron-Bridge file: its ConfigContainer.validate checks the backend against the GPU. */
    public boolean isBridge() { return bridge; }
    /** Megatron-Bridge's validate_flex_dispatcher_backend raises ValueError for deepep on the group's GPU. */
    public boolean isBridgeRefuses() { return bridgeRefuses; }
    /** Megatron-Bridge's validate_flex_dispatcher_backend accepts hybridep on the group's GPU, in every version read. */
    public boolean isBridgeTakesHybridep() { return bridgeTakesHybridep; }
    /** The backend named: "deepep" (PAR020) or "hybridep" (PAR023). */
    public String getBackend() { return backend; }
    /** The backend named is hybridep (PAR023), not deepep (PAR020). */
    public boolean isHybridep() { return "hybridep".equals(backend); }
    /** Every version of Megatron-Bridge's validate_flex_dispatcher_backend read raises ValueError for hybridep on the group's GPU. */
    public boolean isBridgeRefusesHybridep() { return bridgeRefusesHybridep; }
    /** The group's GPU's CUDA compute capability as the catalog writes it ("10.0"), or null when it has none. */
    public String getComputeCapability() { return computeCapability; }
    /** Where the backend is named. */
    public Span getSpan() { return span; }

    public String identity() { return "training_job:" + jobName + "/flex_backend"; }
}
