package dev.gpulint.derive.estimate;

import java.util.EnumMap;
import java.util.Map;

/**
 * The GPU and its surroundings as the estimate needs them: dense peaks, HBM, and the links its collectives run on
 * ({@link Links}: the node and scale-up domain the ranks fill, each tier's rate per direction). Collectives are priced
 * by {@link CollectiveCost} at the links' rates times the efficiencies, unless a measurement (nccl-tests evidence)
 * replaces a tier's.
 *
 * @param gpu               the GPU's catalog name
 * @param memoryBytes       memory per GPU
 * @param peakFlops         dense tensor peak per precision (FLOP/s; absent: the GPU has no such tensor path)
 * @param hbmBytesPerSecond HBM bandwidth
 * @param links             NVLink or Infinity Fabric, PCIe and the node's NICs
 * @param measured          bus bandwidths measured by nccl-tests per tier (bytes/s), replacing the computed ones
 * @param efficiency        the achieved fractions
 */
public record Hardware(String gpu, double memoryBytes, Map<ModelShape.Dtype, Double> peakFlops, double hbmBytesPerSecond,
                       Links links, Map<Tier, Double> measured, Efficiency efficiency) {

    public Hardware {
        peakFlops = Map.copyOf(peakFlops);
        measured = measured.isEmpty() ? Map.of() : Map.copyOf(new EnumMap<>(measured));
    }

    /** GPUs per node (ranks fill nodes in order). */
    public long gpusPerNode() { return links.gpusPerNode(); }

    /** GPUs one scale-up domain joins. */
    public long domainSize() { return links.domainSize(); }

    /** The GPUs have NVLink or Infinity Fabric between them. */
    public boolean scaleUp() { return links.scaleUp(); }

    /** Collective {@code c} of {@code s} bytes per rank over n ranks spaced {@code stride} apart, with the efficiencies. */
    public CollectiveCost price(Collective c, long n, long stride, double s) {
        return CollectiveCost.price(links, efficiency, measured, c, n, stride, s);
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
}
