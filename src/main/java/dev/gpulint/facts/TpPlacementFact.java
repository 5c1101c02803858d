package dev.gpulint.facts;

import dev.gpulint.core.Span;
import dev.gpulint.spec.DomainKind;
import java.util.function.Supplier;

/**
 * Where a job's tensor-parallel groups land under its rank order (PAR002, PAR003): the first group
 * that spans more than one NVLink domain, if any (Placement in the derive stage, unit-tested),
 * and the node group's NVLink domain and PCIe link. One fact per job with tp &gt; 1 on a known node group.
 */
public final class TpPlacementFact {
    private final String jobName, file, order, gpuName, groupName, clusterName;
    // words for a finding only (no rule condition reads them): made when a template asks, not for each of the plan's
    // candidate jobs whose tp group crosses a domain (their findings are not worded)
    private final Supplier<String> ranks, places;
    private final long tp, domainSize, declaredDomainSize, stride, groupGpusPerNode;
    private final DomainKind domainKind;
    private final int domainsSpanned, pcieGeneration;
    private final double pcieBytesPerSecond;
    private final Span tpSpan, domainSpan;

    public TpPlacementFact(String jobName, String file, long tp, Span tpSpan, long stride, String order, int domainsSpanned,
                           Supplier<String> ranks, Supplier<String> places, DomainKind domainKind, long domainSize, long declaredDomainSize,
                           Span domainSpan, String groupName, String clusterName, long groupGpusPerNode, String gpuName,
                           int pcieGeneration, double pcieBytesPerSecond) {
        this.jobName = jobName; this.file = file; this.tp = tp; this.tpSpan = tpSpan; this.stride = stride; this.order = order;
        this.domainsSpanned = domainsSpanned; this.ranks = ranks; this.places = places; this.domainKind = domainKind;
        this.domainSize = domainSize; this.declaredDomainSize = declaredDomainSize; this.domainSpan = domainSpan;
        this.groupName = groupName; this.clusterName = clusterName; this.groupGpusPerNode = groupGpusPerNode;
        this.gpuName = gpuName; this.pcieGeneration = pcieGeneration; this.pcieBytesPerSecond = pcieBytesPerSecond;
    }

    /** The job's name. */
    public String getJobName() { return jobName; }
    /** The file the job is declared in. */
    public String getFile() { return file; }
    /** The tensor-parallel size. */
    public long getTp() { return tp; }
    /** Where tp is set. */
    public Span getTpSpan() { return tpSpan; }
    /** Distance in ranks between consecutive members of a TP group (1 when tp is fastest in the rank order). */
    public long getStride() { return stride; }
    /** The rank order, fastest first: "tp-cp-ep-dp-pp". */
    public String getOrder() { return order; }
    /** NVLink domains the first crossing TP group spans; 0 when every group stays inside one. */
    public int getDomainsSpanned() { return domainsSpanned; }
    /** That group's ranks: "0-15", "6-8", "0,2,4,6"; null when no group crosses. */
    public String getRanks() { return ranks == null ? null : ranks.get(); }
    /** Where they sit: "dgx-0 (0-7) and dgx-1 (8-15)"; null when no group crosses. */
    public String getPlaces() { return places == null ? null : places.get(); }
    /** What joins the GPUs of one domain: NODE, RACK, BRIDGE, INFINITY_FABRIC or NONE. */
    public DomainKind getDomainKind() { return domainKind; }
    /** GPUs in one NVLink (or Infinity Fabric) domain (1 when there is none). */
    public long getDomainSize() { return domainSize; }
    /** The node group's nvlink.domain_size, 0 when not stated (the domain is then derived). */
    public long getDeclaredDomainSize() { return declaredDomainSize; }
    /** The line the domain comes from: domain_size, or the node group's GPU count. */
    public Span getDomainSpan() { return domainSpan; }
    /** The node group the job runs on. */
    public String getGroupName() { return groupName; }
    /** Its cluster. */
    public String getClusterName() { return clusterName; }
    /** GPUs per node of the node group. */
    public long getGroupGpusPerNode() { return groupGpusPerNode; }
    /** The GPU's catalog name, or the model as written when it is not in the catalog. */
    public String getGpuName() { return gpuName; }
    /** The GPU's PCIe generation, 0 when not known. */
    public int getPcieGeneration() { return pcieGeneration; }
    /** Bytes per second per direction of a x16 link of that generation, 0 when not known. */
    public double getPcieBytesPerSecond() { return pcieBytesPerSecond; }

    /** The NVLink domain spans hosts (a multi-host NVLink rack, GB200 NVL72). */
    public boolean isRack() { return domainKind == DomainKind.RACK; }
    /** The scale-up domain is AMD's Infinity Fabric. */
    public boolean isInfinityFabric() { return domainKind == DomainKind.INFINITY_FABRIC; }
    /** The GPUs have no NVLink: they talk over PCIe only. */
    public boolean isPcieOnly() { return domainKind == DomainKind.NONE; }
    /** tp is larger than the domain: no placement keeps it inside one. */
    public boolean isTooBig() { return tp > domainSize; }
    /** The rank order places tp's members {@link #getStride()} ranks apart, not next to each other. */
    public boolean isStrided() { return stride > 1; }
    /** The node group declares its NVLink domain_size. */
    public boolean isDomainSizeDeclared() { return declaredDomainSize > 0; }
    /** The PCIe link's rate is known ({@link #getPcieBytesPerSecond()} above 0). */
    public boolean isPcieRated() { return pcieBytesPerSecond > 0; }

    /** The fingerprint identity of the job's tp. */
    public String identity() { return "training_job:".concat(String.valueOf(jobName)).concat("/parallelism/tp"); }   // (per candidate job: each part sized once)

    @Override public String toString() {
        return "TpPlacementFact[" + jobName + ", tp=" + tp + ", domain=" + domainSize + " " + domainKind
                + ", spanned=" + domainsSpanned + ", ranks=" + getRanks() + ", places=" + getPlaces() + "]";
    }
}
