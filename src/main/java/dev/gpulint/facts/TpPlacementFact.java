package dev.gpulint.facts;

import dev.gpulint.core.Span;

/**
 * Where a job's tensor-parallel groups land (derive stage): whether any TP
 * group spans more than one NVLink domain, and which one does first.
 */
public final class TpPlacementFact {
    private final String jobName;
    private final String file;
    private final long tp;
    private final long domainSize;
    private final String domainKind;
    private final boolean crosses;
    private final int domainsSpanned;
    private final String ranksText;
    private final String placesText;
    private final Span tpSpan;
    private final Span domainSpan;
    private final String domainText;
    private final long stride;
    private final String order;

    public TpPlacementFact(String jobName, String file, long tp, long domainSize, String domainKind, boolean crosses,
                           int domainsSpanned, String ranksText, String placesText, Span tpSpan, Span domainSpan,
                           String domainText, long stride, String order) {
        this.stride = stride;
        this.order = order;
        this.jobName = jobName; this.file = file; this.tp = tp; this.domainSize = domainSize;
        this.domainKind = domainKind; this.crosses = crosses; this.domainsSpanned = domainsSpanned;
        this.ranksText = ranksText; this.placesText = placesText; this.tpSpan = tpSpan; this.domainSpan = domainSpan;
        this.domainText = domainText;
    }

    public String getJobName() { return jobName; }
    public String getFile() { return file; }
    public long getTp() { return tp; }
    public long getDomainSize() { return domainSize; }
    public String getDomainKind() { return domainKind; }
    public boolean isCrosses() { return crosses; }
    public int getDomainsSpanned() { return domainsSpanned; }
    /** The first offending group's ranks: "0-15", "6-8", "0,4,8,12". */
    public String getRanksText() { return ranksText; }
    /** Where they sit: "dgx-0 (0-7) and dgx-1 (8-15)". */
    public String getPlacesText() { return placesText; }
    /** "nodes", "NVLink domains" or "bridged sets", for messages. */
    public String getUnitText() {
        return switch (domainKind) { case "NODE" -> "nodes"; case "BRIDGE" -> "bridged sets"; default -> "NVLink domains"; };
    }
    /** The domain is a node or a multi-node NVLink rack (PAR002), not a bridged set or PCIe alone (PAR003). */
    public boolean isNvlinkDomain() { return domainKind.equals("NODE") || domainKind.equals("RACK"); }
    private String gpuText = "the GPUs";
    private String pcieText = "PCIe";
    public TpPlacementFact withHardware(String gpuText, String pcieText) { this.gpuText = gpuText; this.pcieText = pcieText; return this; }
    /** "A100-PCIe-80GB GPUs". */
    public String getGpuText() { return gpuText; }
    /** "PCIe Gen4 (31.5 GB/s per direction)". */
    public String getPcieText() { return pcieText; }
    public Span getTpSpan() { return tpSpan; }
    public Span getDomainSpan() { return domainSpan; }
    public String getDomainText() { return domainText; }
    /** Distance in ranks between consecutive members of a TP group (1 when tp is fastest in the rank order). */
    public long getStride() { return stride; }
    public String getOrder() { return order; }

    /** Why: "16 is larger than 8", "3 does not divide 8", or the rank order spreads the group. */
    public String getReason() {
        if (tp > domainSize) return tp + " is larger than " + domainSize;
        if (stride > 1) return "the rank order " + order + " places tp's members " + stride + " ranks apart";
        return tp + " does not divide " + domainSize;
    }

    public String identity() { return "training_job:" + jobName + "/parallelism/tp"; }

    @Override public String toString() {
        return "TpPlacementFact[" + jobName + ", tp=" + tp + ", domain=" + domainSize + " " + domainKind
                + ", crosses=" + crosses + ", ranks=" + ranksText + ", places=" + placesText + "]";
    }
}
