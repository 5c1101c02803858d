package dev.gpulint.derive.estimate;

import java.util.EnumMap;
import java.util.Map;

/**
 * The GPU and its surroundings as the estimate needs them: dense peaks, HBM, the node and scale-up domain the
 * ranks fill, and the raw bandwidth of each tier. Bus bandwidths are the raw rates times the efficiencies, unless a
 * measurement (nccl-tests evidence) replaces a tier's.
 *
 * @param gpu               the GPU's catalog name
 * @param memoryBytes       memory per GPU
 * @param peakFlops         dense tensor peak per precision (FLOP/s; absent: the GPU has no such tensor path)
 * @param hbmBytesPerSecond HBM bandwidth
 * @param gpusPerNode       GPUs per node (ranks fill nodes in order)
 * @param domainSize        GPUs one scale-up domain joins (8 in an HGX node, 2 for bridged pairs, 72 in an NVL72 rack)
 * @param scaleUp           the GPUs have NVLink or Infinity Fabric between them
 * @param scaleUpPerDirection a GPU's NVLink / Infinity Fabric bandwidth per direction (bytes/s)
 * @param pciePerDirection  a GPU's PCIe link per direction (bytes/s)
 * @param nicPerNode        the node's RDMA NICs together, per direction (bytes/s); 0 when unknown
 * @param measured          bus bandwidths measured by nccl-tests per tier (bytes/s), replacing the computed ones
 * @param efficiency        the achieved fractions
 */
public record Hardware(String gpu, double memoryBytes, Map<ModelShape.Dtype, Double> peakFlops, double hbmBytesPerSecond,
                       long gpusPerNode, long domainSize, boolean scaleUp, double scaleUpPerDirection, double pciePerDirection,
                       double nicPerNode, Map<Tier, Double> measured, Efficiency efficiency) {

    public Hardware {
        peakFlops = Map.copyOf(peakFlops);
        measured = measured.isEmpty() ? Map.of() : Map.copyOf(new EnumMap<>(measured));
        if (gpusPerNode < 1 || domainSize < 1) throw new IllegalArgumentException("gpus per node and domain size are at least 1");
    }

    /**
     * The dense peak GEMMs of this precision run at: fp8 where the GPU has an FP8 path, else the 16-bit one; fp32
     * runs on TF32 tensor cores where the GPU has them (PyTorch's and Megatron's default allows TF32 matmuls), else
     * on the fp32 units.
     */
    public double gemmPeak(ModelShape.Dtype d) {
        return switch (d) {
            case FP8 -> peakFlops.containsKey(ModelShape.Dtype.FP8) ? peakFlops.get(ModelShape.Dtype.FP8) : sixteenBitPeak(d);
            case FP32, TF32 -> peakFlops.getOrDefault(ModelShape.Dtype.TF32, peakFlops.getOrDefault(ModelShape.Dtype.FP32, 0.0));
            default -> sixteenBitPeak(d);
        };
    }

    /** The dense 16-bit peak (bf16, or fp16 for GPUs without bf16). */
    public double sixteenBitPeak(ModelShape.Dtype d) {
        if (d == ModelShape.Dtype.FP16 && peakFlops.containsKey(ModelShape.Dtype.FP16)) return peakFlops.get(ModelShape.Dtype.FP16);
        return peakFlops.getOrDefault(ModelShape.Dtype.BF16, peakFlops.getOrDefault(ModelShape.Dtype.FP16, 0.0));
    }

    /** The achieved fraction of {@link #gemmPeak} for large GEMMs of this precision. */
    public double gemmEfficiency(ModelShape.Dtype d) {
        return d == ModelShape.Dtype.FP8 && peakFlops.containsKey(ModelShape.Dtype.FP8) ? efficiency.gemmFp8() : efficiency.gemm();
    }

    /** The raw per-direction rate a tier's collectives are bounded by, per GPU, for a group with {@code perNode} members on a node. */
    public double rawRate(Tier t, long perNode) {
        return switch (t) {
            case NVLINK -> scaleUpPerDirection;
            case PCIE -> pciePerDirection;
            // a ring over several nodes crosses each node once per channel, one channel per NIC: the node's NICs
            // carry the group's traffic and the other groups' on the node (gpusPerNode ÷ perNode of them)
            case NETWORK -> Math.min(nicPerNode * Math.max(1, perNode) / gpusPerNode,
                    scaleUp ? scaleUpPerDirection : pciePerDirection);
        };
    }

    /** NCCL bus bandwidth of a tier (bytes/s): measured, or the raw rate times the tier's efficiency. */
    public double busBandwidth(Tier t, long perNode) {
        Double m = measured.get(t);
        if (m != null && m > 0) return t == Tier.NETWORK ? m * Math.max(1, perNode) / gpusPerNode : m;
        double e = switch (t) { case NVLINK -> efficiency.nvlink(); case PCIE -> efficiency.pcie(); case NETWORK -> efficiency.network(); };
        return rawRate(t, perNode) * e;
    }
}
