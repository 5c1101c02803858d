package dev.gpulint.facts;

import dev.gpulint.core.Span;
import dev.gpulint.core.TextEdit;
import java.util.List;

/**
 * One environment variable of a job, with the value parsed where NCCL gives it a syntax
 * (interface lists, the traffic-class byte) and what the job's cluster offers (RDMA, NVLink,
 * GPUDirect, the RoCE PFC priority). The NCCL rules compare these in their DRL.
 */
public final class EnvFact {
    private final String jobName, clusterName, file, name, value, upperValue, suggestion, pfcSource;
    private final Span span, nameSpan, pfcSpan, topologySpan;
    private final String fixedName;
    private final long nodes;
    private final boolean on, debugOnly, knownNccl, excludesInterfaces, rdmaFabric, nvlink, gdrCapable, railOptimized, efa;
    private final String hcaPrefix;
    private final long hcaNumber, wholeNumber;
    private final List<String> interfaces;
    private final NcclVariable variable;
    private final EnvFamily family;
    private final boolean locLevel, off, loopbackOnly;
    private final int tcByte, tcDscp, tcPriority, pfcPriority, declaredDscp;
    private final List<Integer> dscpPriority;
    private final List<TextEdit> lineRemovals;

    private EnvFact(Builder b) {
        jobName = b.jobName; clusterName = b.clusterName; nodes = b.nodes; file = b.file; name = b.name;
        nameSpan = b.nameSpan; value = b.value; span = b.span; upperValue = b.upperValue; on = b.on;
        debugOnly = b.debugOnly; knownNccl = b.knownNccl; suggestion = b.suggestion; fixedName = b.fixedName;
        interfaces = List.copyOf(b.interfaces); excludesInterfaces = b.excludesInterfaces;
        dscpPriority = b.dscpPriority == null ? null : List.copyOf(b.dscpPriority);
        lineRemovals = List.copyOf(b.lineRemovals);
        tcByte = b.tcByte; tcDscp = b.tcByte < 0 ? -1 : TrafficClass.dscp(b.tcByte);
        tcPriority = b.tcByte < 0 ? -1 : b.dscpPriority != null ? b.dscpPriority.get(tcDscp) : TrafficClass.priority(tcDscp);
        rdmaFabric = b.rdmaFabric; nvlink = b.nvlink; gdrCapable = b.gdrCapable;
        pfcPriority = b.pfcPriority; pfcSource = b.pfcSource; pfcSpan = b.pfcSpan; declaredDscp = b.declaredDscp;
        variable = b.variable; family = b.family; locLevel = b.locLevel; off = b.off; loopbackOnly = b.loopbackOnly;
        railOptimized = b.railOptimized; efa = b.efa; topologySpan = b.topologySpan; hcaPrefix = b.hcaPrefix; hcaNumber = b.hcaNumber; wholeNumber = b.wholeNumber;
    }

    public static Builder builder() { return new Builder(); }

    /** Collects the values of one fact; {@link #build()} returns it finished. */
    public static final class Builder {
        private String jobName, clusterName, file, name, value, upperValue, suggestion, pfcSource;
        private Span span, nameSpan, pfcSpan, topologySpan;
        private String fixedName;

        /** The one known name one edit away (NCCL004's safe fix), or null. */
        public Builder fix(String name) { fixedName = name; return this; }
        private long nodes;
        private boolean on, debugOnly, knownNccl, excludesInterfaces, rdmaFabric, nvlink, gdrCapable, railOptimized, efa;
        private String hcaPrefix;
        private long hcaNumber = -1, wholeNumber = -1;
        private List<String> interfaces = List.of();
        private int tcByte = -1, pfcPriority = -1, declaredDscp = -1;
        private List<Integer> dscpPriority;
        private NcclVariable variable = NcclVariable.OTHER;
        private EnvFamily family = EnvFamily.OTHER;
        private boolean locLevel, off, loopbackOnly;
        private List<TextEdit> lineRemovals = List.of();

        public Builder of(String job, String cluster, long nodes, String file, String name, Span nameSpan, String value, Span span) {
            jobName = job; clusterName = cluster; this.nodes = nodes; this.file = file; this.name = name; this.nameSpan = nameSpan;
            this.value = value; this.span = span; return this;
        }
        public Builder reading(String upperValue, boolean on) { this.upperValue = upperValue; this.on = on; return this; }
        /** Which variable the name is and which library's prefix it has. */
        public Builder variable(NcclVariable variable, EnvFamily family) { this.variable = variable; this.family = family; return this; }
        /** The value is NCCL's path level LOC (or 0), and it reads as a switch turned off (0, false, no, off). */
        public Builder levels(boolean locLevel, boolean off) { this.locLevel = locLevel; this.off = off; return this; }
        /** NCCL_SOCKET_IFNAME names interfaces, and every one starts with "lo" (loopback). */
        public Builder loopbackOnly(boolean loopbackOnly) { this.loopbackOnly = loopbackOnly; return this; }
        public Builder catalog(boolean known, boolean debugOnly, String suggestion) {
            knownNccl = known; this.debugOnly = debugOnly; this.suggestion = suggestion; return this;
        }
        public Builder interfaces(List<String> names, boolean excludes) { interfaces = names; excludesInterfaces = excludes; return this; }
        public Builder trafficClass(int tcByte) { this.tcByte = tcByte; return this; }
        public Builder cluster(boolean rdmaFabric, boolean nvlink, boolean gdrCapable) {
            this.rdmaFabric = rdmaFabric; this.nvlink = nvlink; this.gdrCapable = gdrCapable; return this;
        }
        /** The job's pods request AWS EFA devices (vpc.amazonaws.com/efa). */
        public Builder efa(boolean efa) { this.efa = efa; return this; }
        /** The DSCP the cluster declares for RoCE (fabric.roce.dscp). */
        public Builder dscp(int dscp) { declaredDscp = dscp; return this; }
        /** The NICs' own DSCP-to-priority map (64 entries, -1 where unknown), when their QoS settings change it. */
        public Builder dscpMap(List<Integer> priorities) { dscpPriority = priorities; return this; }
        public Builder pfc(int priority, String source, Span span) { pfcPriority = priority; pfcSource = source; pfcSpan = span; return this; }
        /** The job's cluster declares fabric.topology rail-optimized. */
        public Builder railOptimized(boolean rail, Span topology) { railOptimized = rail; topologySpan = topology; return this; }
        /** NCCL_IB_HCA: the first HCA name matched by prefix that ends in a device number, and that number. */
        public Builder hcaPrefix(String name, long number) { hcaPrefix = name; hcaNumber = number; return this; }
        /** The value read as a whole number (0 or more); -1 when it is not one. */
        public Builder wholeNumber(long n) { wholeNumber = n; return this; }
        /** The edits that remove the setting's whole line, one per shape it may be written in (derive.nccl.EnvLines). */
        public Builder lineRemovals(List<TextEdit> edits) { lineRemovals = edits; return this; }
        public EnvFact build() { return new EnvFact(this); }
    }

    /** The job's name. */
    public String getJobName() { return jobName; }
    /** The cluster the job names; null when it names none. */
    public String getClusterName() { return clusterName; }
    /** The job's node count; 0 when not known. */
    public long getNodes() { return nodes; }
    /** The file that sets the variable. */
    public String getFile() { return file; }
    /** The variable's name, as written (NCCL_IB_TC). */
    public String getName() { return name; }
    /** The variable, for the ones the NCCL rules test (NCCL_IB_TC); OTHER for any other name. */
    public NcclVariable getVariable() { return variable; }
    /** Which library reads the name by its prefix: NCCL (NCCL_*), LIBIBVERBS (RDMAV_*) or OTHER. */
    public EnvFamily getFamily() { return family; }
    /** The value is NCCL's path level LOC, or its number 0 (NCCL_P2P_LEVEL, NCCL_NET_GDR_LEVEL: never use the path), in any case. */
    public boolean isLocLevel() { return locLevel; }
    /** The value reads as a switch turned off: 0, false, no or off, in any case. */
    public boolean isOff() { return off; }
    /** NCCL_SOCKET_IFNAME names at least one interface, and all start with "lo" (the loopback). */
    public boolean isLoopbackOnly() { return loopbackOnly; }
    /** The value as written, surrounding blanks removed; "" when set empty. */
    public String getValue() { return value; }
    /** The value upper-cased, for NCCL's keywords (LOC, PXB, SYS, TRUE). */
    public String getUpperValue() { return upperValue; }
    /** Where the value is written. */
    public Span getSpan() { return span; }
    /** Where the name is written. */
    public Span getNameSpan() { return nameSpan; }
    /** The value reads as a switch turned on: 1, true, yes or on, in any case. */
    public boolean isOn() { return on; }
    /** NCCL's documentation lists the name under "Debugging" (catalog/nccl-env.txt), and the value is not the one NCCL takes when it is unset. */
    public boolean isDebugOnly() { return debugOnly; }
    /**
     * NCCL, PyTorch's NCCL layer or a network/tuner plugin reads the name, or it starts with a plugin's prefix; for an
     * RDMAV_* name, libibverbs reads it (catalog/nccl-env.txt).
     */
    public boolean isKnownNccl() { return knownNccl; }
    /** For a name nobody reads: NCCL's own name (libibverbs' for RDMAV_*) a few edits away; null when the name is known or none is close. */
    public String getSuggestion() { return suggestion; }
    /**
     * NCCL004's safe fix: {@link #getSuggestion()} when it is the only name NCCL (libibverbs for RDMAV_*) reads one
     * edit away (a letter added, dropped, changed, or two swapped); null otherwise.
     */
    public String getFixedName() { return fixedName; }
    /**
     * Where the name is written, at most: from the start of the line before the value to the value (a YAML or DSL key,
     * {@code export NAME=}, {@code -x NAME=}, a Kubernetes {@code - name:} line). The fix replaces the name there
     * only when it is written there exactly once.
     */
    public Span getNameRegion() {
        return span == null ? null : new Span(span.file(), Math.max(1, span.startLine() - 1), 1, span.startLine(), span.startColumn());
    }
    /** NCCL_SOCKET_IFNAME: the interface names (prefix "=" dropped, blanks kept as ""); empty for other variables or an empty value. */
    public List<String> getInterfaces() { return interfaces; }
    /** NCCL_SOCKET_IFNAME starts with "^": the interfaces are the ones to avoid. */
    public boolean isExcludesInterfaces() { return excludesInterfaces; }
    /** NCCL_IB_TC: the traffic-class (ToS) byte, 0..255; -1 for other variables or a value that is not a byte. */
    public int getTcByte() { return tcByte; }
    /** NCCL_IB_TC: the DSCP the byte carries, {@link TrafficClass#dscp}; -1 without a byte. */
    public int getTcDscp() { return tcDscp; }
    /**
     * NCCL_IB_TC: the priority that DSCP lands on under trust-DSCP, {@link TrafficClass#priority}, or where the
     * NICs' own map (mlnx_qos --dscp2prio) puts it; -1 without a byte, or where that map leaves it unknown.
     */
    public int getTcPriority() { return tcPriority; }
    /** The job's cluster carries RDMA (InfiniBand, or RoCE on the fabric or a NIC); false without a cluster. */
    public boolean isRdmaFabric() { return rdmaFabric; }
    /** The job's GPUs are joined by NVLink (NVSwitch, SXM board, rack or bridges). */
    public boolean isNvlink() { return nvlink; }
    /** A NIC of the job's node group can do GPUDirect RDMA (an RDMA protocol, or gpudirect_rdma: true). */
    public boolean isGdrCapable() { return gdrCapable; }
    /** The job's pods request AWS EFA devices (vpc.amazonaws.com/efa): libfabric's EFA provider carries NCCL's traffic. */
    public boolean isEfa() { return efa; }
    /** The RoCE PFC priority of the job's cluster, as declared or NVIDIA's default 3; -1 without RoCE. */
    public int getPfcPriority() { return pfcPriority; }
    /** The DSCP the job's cluster declares for RoCE (fabric.roce.dscp); -1 when none. */
    public int getDeclaredDscp() { return declaredDscp; }
    /**
     * Edits that each remove the whole line setting the variable, one per shape it may be written in (a YAML or
     * Kubernetes env entry, an export line, a DSL line); the linter keeps the one whose text is there, or none when the
     * line holds more than this setting. The fix of NCCL001, NCCL002 and NCCL003 is made of them.
     */
    public List<TextEdit> getLineRemovals() { return lineRemovals; }
    /**
     * The priority a DSCP (0..63) lands on: under the NICs' own map where their QoS settings give one, else
     * under trust-DSCP ({@link TrafficClass#priority}); -1 where the map leaves it unknown or the DSCP is out of range.
     */
    public int priorityOfDscp(int dscp) {
        if (dscp < 0 || dscp > 63) return -1;
        return dscpPriority != null ? dscpPriority.get(dscp) : TrafficClass.priority(dscp);
    }
    /** Where that priority comes from: "fabric.roce.pfc.priority" when declared, "default" when assumed; null without RoCE. */
    public String getPfcSource() { return pfcSource; }
    /** Where the priority is declared, or the cluster's RoCE block when assumed; null without RoCE. */
    public Span getPfcSpan() { return pfcSpan; }
    /** The PFC priority is NVIDIA's default, the cluster states none. */
    public boolean isPfcDefault() { return "default".equals(pfcSource); }
    /** The cluster's own DSCP (fabric.roce.dscp) lands on the PFC priority, so NCCL_IB_TC should carry it. */
    public boolean isFixDscpDeclared() {
        return pfcPriority >= 0 && declaredDscp >= 0 && TrafficClass.priority(declaredDscp) == pfcPriority;
    }
    /**
     * The DSCP NCCL_IB_TC should carry: the cluster's own when it lands on the PFC priority, else NVIDIA's 8p + 2
     * ({@link TrafficClass#dscpForPriority}); -1 without RoCE.
     */
    public int getFixDscp() {
        if (pfcPriority < 0) return -1;
        return isFixDscpDeclared() ? declaredDscp : TrafficClass.dscpForPriority(pfcPriority);
    }
    /** The traffic-class byte of that DSCP ({@link TrafficClass#tcFor}); -1 without RoCE. */
    public int getFixTc() { int d = getFixDscp(); return d < 0 ? -1 : TrafficClass.tcFor(d); }
    /** That byte with ECT(0) set; -1 without RoCE. */
    public int getFixTcEct() { int tc = getFixTc(); return tc < 0 ? -1 : tc + TrafficClass.ECT0; }
    /**
     * NCCL_IB_TC's fixed value: that byte, where its DSCP lands on the PFC priority under the NICs' map (a map that
     * puts it elsewhere leaves no byte to offer); null otherwise.
     */
    public String getFixTcText() {
        int d = getFixDscp();
        return d >= 0 && priorityOfDscp(d) == pfcPriority ? String.valueOf(getFixTc()) : null;
    }

    /** The job's cluster declares fabric.topology: rail-optimized (each NIC of a node on its own leaf switch, its rail). */
    public boolean isRailOptimized() { return railOptimized; }
    /** Where the cluster's fabric.topology is written; null when not stated. */
    public Span getTopologySpan() { return topologySpan; }
    /**
     * NCCL_IB_HCA without the exact-match "=": the HCA name of the list (port and rail dropped) that ends in
     * the smallest device number above 0, as written (mlx5_1); null for other variables, an exact-match
     * list, or no such name.
     */
    public String getHcaPrefix() { return hcaPrefix; }
    /** The device number that HCA name ends in (1 for mlx5_1); -1 without one. */
    public long getHcaNumber() { return hcaNumber; }
    /** The value read as a whole number, 0 or more (3 for NCCL_IB_GID_INDEX=3); -1 when it is not one. */
    public long getWholeNumber() { return wholeNumber; }

    /** The stable name of what a finding on this fact is about, for fingerprints. */
    public String identity() { return "training_job:" + jobName + "/env/" + name; }

    @Override public String toString() { return "EnvFact[" + jobName + " " + name + "=" + value + "]"; }
}
