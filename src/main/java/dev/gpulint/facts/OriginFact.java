package dev.gpulint.facts;

import dev.gpulint.core.Span;

/**
 * A job read from another format, with what its pods get: RDMA resources, and whether the pods
 * reach devices some other way (privileged, host network, a Multus network, SkyPilot's
 * network_tier best). {@code podsVisible} is true where the file describes its pods
 * (Kubernetes), so that a missing RDMA resource means something.
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

    public String getJob() { return job; }
    public String getFormat() { return format; }
    public boolean isPodsVisible() { return podsVisible; }
    public int getRdmaResources() { return rdmaResources; }
    public boolean isRdmaByAccess() { return rdmaByAccess; }
    /** NCCL_IB_HCA as the job sets it; null when unset. */
    public String getIbHca() { return ibHca; }
    public Span getIbHcaSpan() { return ibHcaSpan; }
    public boolean isIbHcaSet() { return ibHca != null && !ibHca.isBlank(); }
    public String identity() { return "job:" + job + "/rdma"; }
}
