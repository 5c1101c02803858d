package dev.gpulint.facts;

import dev.gpulint.core.Span;

/**
 * A job read from another format, with what its pods get: RDMA resources, and whether the pods
 * reach devices some other way (privileged, host network, a Multus network, SkyPilot's
 * network_tier best), beside the NCCL_IB_HCA the job sets.
 */
public final class OriginFact {
    private final String job, format, ibHca;
    private final Span ibHcaSpan;
    private final boolean podsVisible, rdmaByAccess;
    private final int rdmaResources;

    public OriginFact(String job, String format, boolean podsVisible, int rdmaResources, boolean rdmaByAccess,
                      String ibHca, Span ibHcaSpan) {
        this.job = job;
        this.format = format;
        this.podsVisible = podsVisible;
        this.rdmaResources = rdmaResources;
        this.rdmaByAccess = rdmaByAccess;
        this.ibHca = ibHca;
        this.ibHcaSpan = ibHcaSpan;
    }

    /** The job's name. */
    public String getJob() { return job; }
    /** The format the job was read from, as a name for messages ("Kubernetes PyTorchJob"). */
    public String getFormat() { return format; }
    /** The file describes the job's pods (Kubernetes), so what they do not request is known to be missing. */
    public boolean isPodsVisible() { return podsVisible; }
    /** How many RDMA resources the pods request (rdma/*, nvidia.com/hostdev, SR-IOV, vpc.amazonaws.com/efa); 0 for none. */
    public int getRdmaResources() { return rdmaResources; }
    /** The pods reach RDMA devices without a resource: privileged, host network, a Multus network or network_tier best. */
    public boolean isRdmaByAccess() { return rdmaByAccess; }
    /** NCCL_IB_HCA as the job sets it; null when unset. */
    public String getIbHca() { return ibHca; }
    /** Where NCCL_IB_HCA is set; null when unset. */
    public Span getIbHcaSpan() { return ibHcaSpan; }

    /** The stable name of what a finding on this fact is about, for fingerprints. */
    public String identity() { return "job:" + job + "/rdma"; }
}
