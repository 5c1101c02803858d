package dev.gpulint.facts;

import dev.gpulint.core.Span;

/**
 * What a job asks of the node group it runs on beside what the group has: its nodes against the group's
 * {@code count}, its own GPUs per node against the group's {@code gpu.count}. Made for a job whose node group
 * is known (named, or its cluster's only one) and says how many nodes it has.
 */
public final class GroupFitFact {
    private final String job, groupName, clusterName;
    private final long nodes, groupNodes, gpusPerNode, groupGpus;
    private final Span nodesSpan, groupNodesSpan, gpusPerNodeSpan, groupGpusSpan;

    public GroupFitFact(String job, String groupName, String clusterName, long nodes, Span nodesSpan, long groupNodes,
                        Span groupNodesSpan, long gpusPerNode, Span gpusPerNodeSpan, long groupGpus, Span groupGpusSpan) {
        this.job = job; this.groupName = groupName; this.clusterName = clusterName; this.nodes = nodes; this.nodesSpan = nodesSpan;
        this.groupNodes = groupNodes; this.groupNodesSpan = groupNodesSpan; this.gpusPerNode = gpusPerNode;
        this.gpusPerNodeSpan = gpusPerNodeSpan; this.groupGpus = groupGpus; this.groupGpusSpan = groupGpusSpan;
    }

    /** The job's name. */
    public String getJob() { return job; }
    /** The node group the job runs on. */
    public String getGroupName() { return groupName; }
    /** The cluster of that node group. */
    public String getClusterName() { return clusterName; }
    /** Nodes the job asks for, as written (nodes, --nodes, trainer.num_nodes, replicas); 0 when it states none. */
    public long getNodes() { return nodes; }
    /** Where the job's node count is written; null when it states none. */
    public Span getNodesSpan() { return nodesSpan; }
    /** Nodes the node group has (its count). */
    public long getGroupNodes() { return groupNodes; }
    /** Where the node group's count is written. */
    public Span getGroupNodesSpan() { return groupNodesSpan; }
    /** GPUs per node the job itself asks for (gpus_per_node, --nproc_per_node, trainer.devices); 0 when it states none. */
    public long getGpusPerNode() { return gpusPerNode; }
    /** Where the job's GPUs per node are written; null when it states none. */
    public Span getGpusPerNodeSpan() { return gpusPerNodeSpan; }
    /** GPUs per node the node group has (its gpu.count); 0 when it does not say. */
    public long getGroupGpus() { return groupGpus; }
    /** Where the node group's GPU count is written; null when it does not say. */
    public Span getGroupGpusSpan() { return groupGpusSpan; }
    /** Nodes the job asks for beyond the group's: nodes − the group's count (0 or less when it fits). */
    public long getMissingNodes() { return nodes - groupNodes; }

    /** The stable name of what a finding on this fact is about, for fingerprints. */
    public String identity() { return "job:" + job + "/node-group"; }

    @Override public String toString() {
        return "GroupFitFact[" + job + " on " + clusterName + "/" + groupName + ": nodes " + nodes + " of " + groupNodes
                + ", GPUs per node " + gpusPerNode + " of " + groupGpus + "]";
    }
}
