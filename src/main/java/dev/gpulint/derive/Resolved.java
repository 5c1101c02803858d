package dev.gpulint.derive;

import dev.gpulint.catalog.Catalog;
import dev.gpulint.core.Span;
import dev.gpulint.facts.HwUnits;
import dev.gpulint.spec.DomainKind;
import dev.gpulint.spec.Protocol;
import dev.gpulint.spec.Specs;
import java.util.List;

/**
 * Bound specs resolved once against the catalog and each other: what every analysis needs
 * (the GPU's catalog entry, the NVLink domain, the fabric's protocol, effective GPU counts and
 * parallel sizes), so that no analysis reads another's facts back.
 */
public final class Resolved {
    private Resolved() {}

    /**
     * A cluster and its fabric.
     *
     * @param first      the first cluster of its name (a later duplicate is SYN004's, and jobs use the first)
     * @param roce       RoCE is declared: fabric type roce, or a NIC with protocol roce
     * @param roceSource where it is declared, for messages
     * @param rdma       an RDMA fabric (InfiniBand or RoCE) is declared
     * @param pfcPriority the declared PFC priority, -1 when none
     */
    public record Cluster(Specs.Cluster spec, String name, String file, Protocol fabric, boolean first, boolean roce,
                          Span roceSpan, String roceSource, boolean rdma, int pfcPriority, Span pfcPrioritySpan,
                          List<Group> groups) {
        /** Its named node groups as written: a folded one counts once per member. */
        public long groupCount() { return spec.namedGroupCount(); }
    }

    /**
     * A node group with its GPU's catalog entry and the NVLink domain used for placement.
     *
     * @param gpu            the catalog entry, null when the model is unknown
     * @param gpusPerNode    the declared GPU count, 0 when not given
     * @param domainSize     GPUs in one NVLink domain (1 when there is none)
     * @param memoryDeclared gpu.memory is declared
     * @param memoryBytes    the declared gpu.memory in bytes, 0 when not declared
     * @param nearestMemoryBytes the catalog memory reading nearest to it (a variant, or its GiB figure read as GB), 0 without one
     */
    public record Group(Specs.Cluster cluster, Specs.NodeGroup spec, String clusterName, String name, String id,
                        Catalog.Gpu gpu, long gpusPerNode, boolean nvlinkDeclared, boolean nvswitch, String bridge,
                        long declaredDomainSize, long domainSize, DomainKind domainKind, Span domainSpan,
                        boolean memoryDeclared, double memoryBytes, double nearestMemoryBytes) {

        /** How close declared memory must be to a catalog reading to match it; HW004 reports a miss. */
        public static final double MEMORY_TOLERANCE = 0.02;

        /** The declared memory matches a variant of the model (true when none is declared, or the GPU is unknown). */
        public boolean memoryMatches() {
            return !memoryDeclared || gpu == null || HwUnits.within(memoryBytes, nearestMemoryBytes, MEMORY_TOLERANCE);
        }
        /** GPUs that NVLink joins: a node's NVSwitch or mesh, or a multi-node NVLink rack. */
        public boolean nvlinkDomain() { return domainKind == DomainKind.NODE || domainKind == DomainKind.RACK; }

        /** GPUs that a scale-up fabric joins directly: NVLink (node or rack) or AMD Infinity Fabric. */
        public boolean scaleUpDomain() { return nvlinkDomain() || domainKind == DomainKind.INFINITY_FABRIC; }
    }

    /**
     * A job with its cluster and node group, and its effective sizes.
     *
     * @param cluster the first cluster of the name the job references, null when unresolved
     * @param group   the node group it runs on (named, or the cluster's only one), null when unknown
     * @param gpusPerNode the job's gpus_per_node, else the group's GPU count, else 0
     * @param totalGpus nodes × GPUs per node, saturating; 0 when either is unknown
     * @param dp      dp as stated, 0 when not stated
     * @param dpEffective dp as stated, or as the frameworks derive it (GPUs ÷ tp·pp·cp); 0 when neither is known
     * @param order   the rank order, fastest first
     * @param virtualPp virtual pipeline stages per GPU (1 when not stated)
     * @param zeroStage the ZeRO stage (0 when not stated), -1 when written but unknown
     *
     * tp, pp, cp, ep and virtualPp are 1 when not stated and 0 when written but unknown (a placeholder):
     * an analysis that needs one of them adds no fact.
     */
    public record Job(Specs.Job spec, String name, Cluster cluster, Group group, long nodes, long gpusPerNode,
                      Span gpusPerNodeSpan, String gpusPerNodeSource, long totalGpus, long tp, long pp, long cp, long ep,
                      long dp, long dpEffective, boolean parallelismStated, List<dev.gpulint.spec.ParallelDim> order,
                      long virtualPp, long zeroStage) {
        /** tp, pp and cp are all known. */
        public boolean modelSizesKnown() { return tp > 0 && pp > 0 && cp > 0; }
    }
}
