package dev.gpulint.facts;

import dev.gpulint.core.Span;

/** One environment variable of a job (NCCL rules). Value comparisons are worked out in the derive stage. */
public final class EnvFact {
    String jobName, clusterName, file, name, value, suggestion, tcText, pfcText;
    Span span, nameSpan, relatedSpan;
    boolean rdmaFabric, nvlink, gdrCapable;
    int pfcPriority = -1;
    long nodes;
    boolean on, loopbackOnly, gdrOff, p2pOff, debugOnly, knownNccl, ncclPrefixed;
    int tcPriority = -1;

    EnvFact() {}

    public static Builder builder() { return new Builder(); }

    public static final class Builder {
        private final EnvFact f = new EnvFact();
        public EnvFact fact() { return f; }
        public Builder of(String job, String cluster, long nodes, String file, String name, Span nameSpan, String value, Span span) {
            f.jobName = job; f.clusterName = cluster; f.nodes = nodes; f.file = file; f.name = name; f.nameSpan = nameSpan; f.value = value; f.span = span; return this;
        }
        public Builder flags(boolean on, boolean loopbackOnly, boolean gdrOff, boolean p2pOff, boolean debugOnly) {
            f.on = on; f.loopbackOnly = loopbackOnly; f.gdrOff = gdrOff; f.p2pOff = p2pOff; f.debugOnly = debugOnly; return this;
        }
        public Builder nccl(boolean prefixed, boolean known, String suggestion) { f.ncclPrefixed = prefixed; f.knownNccl = known; f.suggestion = suggestion; return this; }
        public Builder trafficClass(int priority, String text) { f.tcPriority = priority; f.tcText = text; return this; }
        public Builder cluster(boolean rdmaFabric, boolean nvlink, boolean gdrCapable, int pfcPriority, String pfcText, Span related) {
            f.rdmaFabric = rdmaFabric; f.nvlink = nvlink; f.gdrCapable = gdrCapable; f.pfcPriority = pfcPriority; f.pfcText = pfcText;
            f.relatedSpan = related; return this;
        }
    }

    public String getJobName() { return jobName; }
    /** null when the job names no cluster. */
    public String getClusterName() { return clusterName; }
    public long getNodes() { return nodes; }
    public String getFile() { return file; }
    public String getName() { return name; }
    public String getValue() { return value; }
    public Span getSpan() { return span; }
    public Span getNameSpan() { return nameSpan; }
    /** The value turns the switch on: 1, true, yes. */
    public boolean isOn() { return on; }
    /** NCCL_SOCKET_IFNAME that selects only loopback interfaces. */
    public boolean isLoopbackOnly() { return loopbackOnly; }
    /** NCCL_NET_GDR_LEVEL at LOC/0: GPUDirect RDMA off. */
    public boolean isGdrOff() { return gdrOff; }
    /** NCCL_P2P_DISABLE=1, or NCCL_P2P_LEVEL at LOC/0. */
    public boolean isP2pOff() { return p2pOff; }
    /** Listed in the "Debugging" section of NCCL's documentation. */
    public boolean isDebugOnly() { return debugOnly; }
    public boolean isNcclPrefixed() { return ncclPrefixed; }
    public boolean isKnownNccl() { return knownNccl; }
    /** The closest known name, for an unknown one that looks like a misspelling; null otherwise. */
    public String getSuggestion() { return suggestion; }
    /** NCCL_IB_TC: the priority the byte maps to under the trust-DSCP map (TC >> 2 >> 3); -1 when not a valid byte. */
    public int getTcPriority() { return tcPriority; }
    /** NCCL_IB_TC decoded: "traffic class 26 = DSCP 6, priority 0". */
    public String getTcText() { return tcText; }

    /** The job's cluster carries RDMA (InfiniBand, or RoCE on the fabric or a NIC). */
    public boolean isRdmaFabric() { return rdmaFabric; }
    /** The job's GPUs are joined by NVLink (NVSwitch, SXM board, rack or bridges). */
    public boolean isNvlink() { return nvlink; }
    /** The job's NICs can do GPUDirect RDMA (an RDMA protocol, or gpudirect_rdma: true). */
    public boolean isGdrCapable() { return gdrCapable; }
    /** The RoCE PFC priority of the job's cluster, declared or NVIDIA's default 3; -1 without RoCE. */
    public int getPfcPriority() { return pfcPriority; }
    /** Where that priority comes from, for messages. */
    public String getPfcText() { return pfcText; }
    /** For NCCL006: the TC byte that lands DSCP 8P+2 (26 for priority 3), plain and with ECT(0). */
    public String getSuggestedTc() { return pfcPriority < 0 ? "" : (32 * pfcPriority + 8) + " (or " + (32 * pfcPriority + 10) + " with ECT(0) set)"; }
    public Span getRelatedSpan() { return relatedSpan; }

    public String identity() { return "training_job:" + jobName + "/env/" + name; }

    @Override public String toString() { return "EnvFact[" + jobName + " " + name + "=" + value + "]"; }
}
