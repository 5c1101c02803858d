package dev.gpulint.facts;

import dev.gpulint.core.Span;

/**
 * One captured tool output (docs/evidence.md) and what it belongs to: the cluster and node group
 * configuration {@code evidence} names for its file, or the one node group of the run whose GPU
 * model and counts it matches; with the GPU and NIC counts and the GPU model it shows, beside
 * the node group's.
 */
public record EvidenceFact(String file, String tool, String kind, Span span, boolean linked, String cluster, String nodeGroup,
                           String linkedBy, String unknownLink, String closestName, Span linkSpan, long gpus,
                           Span gpusSpan, long declaredGpus, long nics, Span nicsSpan, long declaredNics,
                           String gpuModel, Span gpuModelSpan, String declaredGpuModel, Span declaredSpan,
                           String jobWithoutGroup, String jobCluster, java.util.List<String> jobClusterGroups) {
    public EvidenceFact {
        jobClusterGroups = java.util.List.copyOf(jobClusterGroups);
    }

    /**
     * The job configuration evidence: links the file to when that job names no node_group and its cluster has
     * several, so the file belongs to none of them; "" otherwise.
     */
    public String getJobWithoutGroup() { return jobWithoutGroup; }
    /** That job's cluster; "" when {@link #getJobWithoutGroup} is "". */
    public String getJobCluster() { return jobCluster; }
    /** The node groups of that cluster, in the order declared; empty when {@link #getJobWithoutGroup} is "". */
    public java.util.List<String> getJobClusterGroups() { return jobClusterGroups; }

    /** The file's display path. */
    public String getFile() { return file; }
    /** The tool whose output the file is: "nvidia-smi topo -m", "ibstat", "nccl-tests", "NCCL_DEBUG=INFO log", ... */
    public String getTool() { return tool; }
    /** The kind of output it is, by name: TOPOLOGY, NVLINK, SMI_QUERY, SMI_TABLE, IBSTAT, IBV_DEVINFO, NCCL_TESTS or NCCL_LOG. */
    public String getKind() { return kind; }
    /** An nccl-tests output: its GPU count is the test's ranks, not a node's GPUs. */
    public boolean isNcclTests() { return kind.equals("NCCL_TESTS"); }
    /** Configuration evidence: names something no linted file defines ({@link #getUnknownLink()} is not ""). */
    public boolean isLinkUnknown() { return !unknownLink.isEmpty(); }
    /** Configuration evidence: links the file to a job that names no node group of a cluster of several ({@link #getJobWithoutGroup()} is not ""). */
    public boolean isLinkedToJobWithoutGroup() { return !jobWithoutGroup.isEmpty(); }
    /** The output names a GPU model the catalog knows, the node group declares one it knows, and they differ. */
    public boolean isOtherGpuModel() { return !gpuModel.isEmpty() && !declaredGpuModel.isEmpty() && !gpuModel.equals(declaredGpuModel); }
    /** The file's first line. */
    public Span getSpan() { return span; }
    /** The file belongs to a node group of a linted cluster. */
    public boolean isLinked() { return linked; }
    /** The cluster it belongs to; "" when not linked. */
    public String getCluster() { return cluster; }
    /** The node group it belongs to; "" when not linked. */
    public String getNodeGroup() { return nodeGroup; }
    /** How it was linked: "configuration" (evidence:), "match" (the one node group whose GPU model and counts match), "" when not. */
    public String getLinkedBy() { return linkedBy; }
    /** What configuration evidence: names that no linted file defines ("cluster 'h100'", "job 'pretrain'"); "" when none. */
    public String getUnknownLink() { return unknownLink; }
    /** The defined name closest to the unknown one; "" when none is close. */
    public String getClosestName() { return closestName; }
    /** Where configuration evidence: names the cluster or job; null when not linked by configuration. */
    public Span getLinkSpan() { return linkSpan; }
    /** GPUs the output shows on one node (the matrix's GPUs, nvidia-smi -q's attached GPUs, nccl-tests' ranks per host); -1 when it shows none. */
    public long getGpus() { return gpus; }
    /** Where that count shows. */
    public Span getGpusSpan() { return gpusSpan; }
    /** The node group's gpu.count; -1 when not linked or not declared. */
    public long getDeclaredGpus() { return declaredGpus; }
    /** NICs the output shows on one node (the matrix's NIC columns, ibstat's adapters); -1 when it shows none. */
    public long getNics() { return nics; }
    /** Where that count shows. */
    public Span getNicsSpan() { return nicsSpan; }
    /** The NICs the node group declares (the sum of its nics' counts); -1 when not linked or none declared. */
    public long getDeclaredNics() { return declaredNics; }
    /** The GPU model the output names, as the catalog names it; "" when it names none, or one the catalog lacks. */
    public String getGpuModel() { return gpuModel; }
    /** Where the GPU model is named. */
    public Span getGpuModelSpan() { return gpuModelSpan; }
    /** The node group's GPU model as the catalog names it; "" when not linked or unknown. */
    public String getDeclaredGpuModel() { return declaredGpuModel; }
    /** Where the node group is declared; null when not linked. */
    public Span getDeclaredSpan() { return declaredSpan; }

    /** The stable name of what a finding on this fact is about, for fingerprints. */
    public String identity() { return "evidence:" + file + "/" + tool; }
}
