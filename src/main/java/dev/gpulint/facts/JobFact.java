package dev.gpulint.facts;

import dev.gpulint.tree.Span;

/** A training job with its cluster reference resolved and its GPU count worked out. */
public final class JobFact {
    private final String name;
    private final String file;
    private final Span nameSpan;
    private final int ordinal;
    private final String clusterName;
    private final Span clusterSpan;
    private final String nodeGroupName;
    private final Span nodeGroupSpan;
    private final boolean clusterResolved;
    private final int clusterGroupCount;
    private final String clusterGroupNames;
    private final long nodes;
    private final long gpusPerNode;
    private final Span gpusPerNodeSpan;
    private final String gpusPerNodeSource;
    private final long totalGpus;
    private final long tp, pp, dp, cp;
    private final Span tpSpan;
    private final Span parallelismSpan;
    private final boolean parallelismStated;
    private final boolean productMismatch;
    private final String productText;

    public JobFact(String name, String file, Span nameSpan, int ordinal, String clusterName, Span clusterSpan,
                   String nodeGroupName, Span nodeGroupSpan, boolean clusterResolved, int clusterGroupCount,
                   String clusterGroupNames, long nodes, long gpusPerNode, Span gpusPerNodeSpan,
                   String gpusPerNodeSource, long totalGpus, long tp, long pp, long dp, long cp, Span tpSpan,
                   Span parallelismSpan, boolean parallelismStated, boolean productMismatch, String productText) {
        this.name = name; this.file = file; this.nameSpan = nameSpan; this.ordinal = ordinal;
        this.clusterName = clusterName; this.clusterSpan = clusterSpan; this.nodeGroupName = nodeGroupName;
        this.nodeGroupSpan = nodeGroupSpan; this.clusterResolved = clusterResolved;
        this.clusterGroupCount = clusterGroupCount; this.clusterGroupNames = clusterGroupNames; this.nodes = nodes;
        this.gpusPerNode = gpusPerNode; this.gpusPerNodeSpan = gpusPerNodeSpan;
        this.gpusPerNodeSource = gpusPerNodeSource; this.totalGpus = totalGpus; this.tp = tp; this.pp = pp;
        this.dp = dp; this.cp = cp; this.tpSpan = tpSpan; this.parallelismSpan = parallelismSpan;
        this.parallelismStated = parallelismStated; this.productMismatch = productMismatch;
        this.productText = productText;
    }

    public String getName() { return name; }
    public String getFile() { return file; }
    public Span getNameSpan() { return nameSpan; }
    public int getOrdinal() { return ordinal; }
    public String getClusterName() { return clusterName; }
    public Span getClusterSpan() { return clusterSpan; }
    public String getNodeGroupName() { return nodeGroupName; }
    public Span getNodeGroupSpan() { return nodeGroupSpan; }
    public boolean isClusterResolved() { return clusterResolved; }
    public int getClusterGroupCount() { return clusterGroupCount; }
    public String getClusterGroupNames() { return clusterGroupNames; }
    /** 0 when unknown. */
    public long getNodes() { return nodes; }
    /** 0 when unknown (no gpus_per_node and no resolved node group). */
    public long getGpusPerNode() { return gpusPerNode; }
    /** Where the GPUs per node come from: the job's gpus_per_node, or the cluster's gpu.count. */
    public Span getGpusPerNodeSpan() { return gpusPerNodeSpan; }
    public String getGpusPerNodeSource() { return gpusPerNodeSource; }
    /** nodes × GPUs per node; 0 when either is unknown. */
    public long getTotalGpus() { return totalGpus; }
    public long getTp() { return tp; }
    public long getPp() { return pp; }
    /** 0 when not stated (derived by the frameworks). */
    public long getDp() { return dp; }
    public long getCp() { return cp; }
    public Span getTpSpan() { return tpSpan; }
    public Span getParallelismSpan() { return parallelismSpan; }
    public boolean isParallelismStated() { return parallelismStated; }
    /** PAR001's condition, worked out in the derive stage (with overflow-safe arithmetic). */
    public boolean isProductMismatch() { return productMismatch; }
    /** PAR001's explanation: "tp×pp×dp×cp = 8×2×2×1 = 32". */
    public String getProductText() { return productText; }
    public boolean isDpStated() { return dp > 0; }

    /** "16 GPUs (2 nodes × 8 GPUs per node)". */
    public String gpuCountText() {
        return totalGpus + " GPUs (" + nodes + (nodes == 1 ? " node" : " nodes") + " × " + gpusPerNode + " GPUs per node)";
    }

    public String identity() { return "training_job:" + name; }

    @Override public String toString() {
        return "JobFact[" + name + ", cluster=" + clusterName + "/" + nodeGroupName + ", resolved=" + clusterResolved
                + ", nodes=" + nodes + ", gpusPerNode=" + gpusPerNode + ", total=" + totalGpus + ", tp=" + tp + ", pp=" + pp
                + ", dp=" + dp + ", cp=" + cp + ", mismatch=" + productMismatch + "]";
    }
}
