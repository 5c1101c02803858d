package dev.gpulint.facts;

import dev.gpulint.core.Span;

/**
 * A job whose loss is Megatron-Core's fused linear cross-entropy as its files write it ({@code --cross-entropy-fusion-impl
 * linear} with {@code --cross-entropy-loss-fusion}, a Megatron-Bridge or NeMo 2 model's {@code cross_entropy_fusion_impl:
 * linear}, the native {@code model.loss.kernel: linear}), placed on a node group whose GPU's CUDA compute capability is
 * known from the catalog (hardware.yaml {@code compute_capability}, NVIDIA's CUDA GPUs page). PAR022 when its major version
 * is not 10: megatron/core/fusions/fused_linear_cross_entropy.py at 020c805b's Platform loads the Blackwell kernels for
 * compute capability 10 alone and raises ValueError("Unsupported architecture") elsewhere. An AMD GPU is one too, at the
 * device capability PyTorch on ROCm reports for it through the same torch.cuda.get_device_capability() (catalog
 * {@code rocm_capability}: gfx942's 9.4), which the Platform reads as it reads a CUDA one. A GPU with neither in the catalog
 * (a project's entry that writes none) is no fact.
 */
public final class LinearLossFact {
    private final String jobName, file, key, gpuName, groupName, computeCapability;
    private final int major;
    private final boolean rocm;
    private final Span span;

    /**
     * @param key               the implementation's key as the job's file writes it ("--cross-entropy-fusion-impl",
     *                          "model.cross_entropy_fusion_impl", "model.loss.kernel")
     * @param computeCapability the node group's GPU's CUDA compute capability, as the catalog writes it ("9.0")
     * @param major             its major version
     * @param rocm              an AMD GPU: {@code computeCapability} is what PyTorch on ROCm reports ("9.4"), not a CUDA one
     * @param span              where the implementation is written
     */
    public LinearLossFact(String jobName, String file, String key, String gpuName, String groupName, String computeCapability,
                          int major, boolean rocm, Span span) {
        this.jobName = jobName; this.file = file; this.key = key; this.gpuName = gpuName; this.groupName = groupName;
        this.computeCapability = computeCapability; this.major = major; this.rocm = rocm; this.span = span;
    }

    /** The job's name. */
    public String getJobName() { return jobName; }
    /** The file the job is declared in. */
    public String getFile() { return file; }
    /** The implementation's key as the file writes it. */
    public String getKey() { return key; }
    /** The node group's GPU, by its catalog name. */
    public String getGpuName() { return gpuName; }
    /** The node group the job runs on. */
    public String getGroupName() { return groupName; }
    /** The GPU's CUDA compute capability as the catalog writes it ("9.0"); on an AMD GPU ({@link #isRocm}) the ROCm one ("9.4"). */
    public String getComputeCapability() { return computeCapability; }
    /** The compute capability's major version. */
    public int getMajor() { return major; }
    /**
     * An AMD GPU: the capability is the one PyTorch on ROCm reports through torch.cuda.get_device_capability() (HIP's, from
     * the gfx architecture), which the fused linear cross-entropy's Platform reads as a CUDA one.
     */
    public boolean isRocm() { return rocm; }
    /** The fused linear cross-entropy's kernels run on this GPU: compute capability 10 (B200, GB200, B300, GB300). */
    public boolean isSupported() { return major == 10; }
    /** Where the implementation is written. */
    public Span getSpan() { return span; }

    public String identity() { return "training_job:" + jobName + "/cross_entropy_fusion_impl"; }
}
