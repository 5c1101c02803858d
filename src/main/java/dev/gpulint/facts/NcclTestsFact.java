package dev.gpulint.facts;

import dev.gpulint.core.Span;

/**
 * One nccl-tests run (all_reduce_perf, all_gather_perf, ...): its ranks and hosts, its rows with
 * wrong results, its best bus bandwidth over the large sizes, and the bus bandwidth the linked
 * node group's declared hardware allows, with the figures it is derived from.
 */
public record NcclTestsFact(String file, String test, Collective collective, Span span, int ranks, int hosts, int gpusPerHost, int wrongRows,
                            long wrongValues, Span wrongSpan, long largestBytes, double peakBusbw, long peakBytes,
                            Span peakSpan, double avgBusbw, boolean linked, String cluster, String nodeGroup,
                            double expectedBusbw, String expectedBasis, double nvlinkPerDirection, long nics,
                            double nicGbps, String gpu, Span declaredSpan) {
    /** The output's file. */
    public String getFile() { return file; }
    /** The collective: all_reduce, all_gather, reduce_scatter, broadcast, reduce, alltoall, sendrecv, ...; "" when the file does not say. */
    public String getTest() { return test; }
    /** That collective; OTHER for one not listed, or none. */
    public Collective getCollective() { return collective; }
    /** The header line (# nThread ...). */
    public Span getSpan() { return span; }
    /** Ranks (GPUs) the '#  Rank' lines list. */
    public int getRanks() { return ranks; }
    /** Distinct hosts they run on. */
    public int getHosts() { return hosts; }
    /** The most ranks on one host. */
    public int getGpusPerHost() { return gpusPerHost; }
    /** Rows whose #wrong (out-of-place or in-place) is above 0. */
    public int getWrongRows() { return wrongRows; }
    /** The sum of #wrong over all rows. */
    public long getWrongValues() { return wrongValues; }
    /** The first #wrong above 0; null when none. */
    public Span getWrongSpan() { return wrongSpan; }
    /** The largest size the table reaches, in bytes; 0 without rows. */
    public long getLargestBytes() { return largestBytes; }
    /** The largest size in MiB (2^20 bytes). */
    public double getLargestMib() { return largestBytes / 1048576.0; }
    /** The best busbw as a share of the expected one; -1 when either is unknown. */
    public double getBusbwFraction() { return expectedBusbw > 0 && peakBusbw >= 0 ? peakBusbw / expectedBusbw : -1; }
    /** The best busbw of any row (out-of-place or in-place), GB/s; -1 without rows. */
    public double getPeakBusbw() { return peakBusbw; }
    /** The size of the row with the best busbw, bytes. */
    public long getPeakBytes() { return peakBytes; }
    /** That row. */
    public Span getPeakSpan() { return peakSpan; }
    /** The '# Avg bus bandwidth' figure, GB/s; -1 when not printed. */
    public double getAvgBusbw() { return avgBusbw; }
    /** The run belongs to a node group (EvidenceFact). */
    public boolean isLinked() { return linked; }
    /** Its cluster; "" when not linked. */
    public String getCluster() { return cluster; }
    /** Its node group; "" when not linked. */
    public String getNodeGroup() { return nodeGroup; }
    /** The busbw the declared hardware allows, GB/s: NVLINK basis on one host, the smaller of NVLINK and NIC across hosts; -1 when unknown. */
    public double getExpectedBusbw() { return expectedBusbw; }
    /** What bounds it: NVLINK (a GPU's per-direction NVLink bandwidth through the NVSwitch) or NIC (the node's NICs' line rate in bytes); "" when unknown. */
    public String getExpectedBasis() { return expectedBasis; }
    /** The GPU's NVLink bandwidth per direction, GB/s (half the catalog's bidirectional figure); 0 without an NVSwitch. */
    public double getNvlinkPerDirection() { return nvlinkPerDirection; }
    /** The node group's RDMA NICs (the sum of their counts); 0 without any. */
    public long getNics() { return nics; }
    /** Their declared speed per direction, Gb/s; 0 when they declare none or different ones. */
    public double getNicGbps() { return nicGbps; }
    /** The node group's GPU as the catalog names it; "" when unknown. */
    public String getGpu() { return gpu; }
    /** Where the node group is declared; null when not linked. */
    public Span getDeclaredSpan() { return declaredSpan; }

    /** The stable name of what a finding on this fact is about, for fingerprints. */
    public String identity() { return "nccl-tests:" + file; }
}
