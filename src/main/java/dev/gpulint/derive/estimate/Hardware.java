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
 * @param blockScaled       the achieved fraction of the dense peak for GEMMs on the block-scaled paths (MXFP8, NVFP4) the
 *                          family states (catalog {@code gemm_mxfp8}, {@code gemm_nvfp4}); a path it does not state runs at
 *                          {@code gemm_fp8}
 * @param attentionKernels  the attention rate of each kernel the family states apart from its {@code attention} (catalog
 *                          {@code attention_flash2}, {@code attention_flash3}: {@link AttentionKernel}), the same unit; a
 *                          kernel it does not state runs at {@code attention}
 */
public record Hardware(String gpu, double memoryBytes, Map<ModelShape.Dtype, Double> peakFlops, double hbmBytesPerSecond,
                       Links links, Map<Tier, Double> measured, Efficiency efficiency, Map<ModelShape.Dtype, Double> blockScaled,
                       Map<AttentionKernel, Double> attentionKernels) {

    public Hardware {
        peakFlops = Map.copyOf(peakFlops);
        measured = measured.isEmpty() ? Map.of() : Map.copyOf(new EnumMap<>(measured));
        blockScaled = Map.copyOf(blockScaled);
        attentionKernels = Map.copyOf(attentionKernels);
    }

    /** Hardware whose family states no attention kernel apart. */
    public Hardware(String gpu, double memoryBytes, Map<ModelShape.Dtype, Double> peakFlops, double hbmBytesPerSecond,
                    Links links, Map<Tier, Double> measured, Efficiency efficiency, Map<ModelShape.Dtype, Double> blockScaled) {
        this(gpu, memoryBytes, peakFlops, hbmBytesPerSecond, links, measured, efficiency, blockScaled, Map.of());
    }

    /** Hardware whose family states no efficiency of a block-scaled path. */
    public Hardware(String gpu, double memoryBytes, Map<ModelShape.Dtype, Double> peakFlops, double hbmBytesPerSecond,
                    Links links, Map<Tier, Double> measured, Efficiency efficiency) {
        this(gpu, memoryBytes, peakFlops, hbmBytesPerSecond, links, measured, efficiency, Map.of(), Map.of());
    }

    /** The same hardware for a job of {@code gpus} GPUs filling its nodes and racks in rank order ({@link Links#forJob}). */
    public Hardware forJob(long gpus) {
        return new Hardware(gpu, memoryBytes, peakFlops, hbmBytesPerSecond, links.forJob(gpus), measured, efficiency, blockScaled,
                attentionKernels);
    }

    /**
     * Flash attention's rate with kernel {@code k}, as a fraction of the 16-bit peak on the FLOPs it executes: the
     * family's {@code attention} for the fused kernel its calibration ran (and for a kernel it states no rate of), else
     * the kernel's own catalog rate.
     */
    public double attention(AttentionKernel k) {
        Double r = k == null || k == AttentionKernel.FUSED ? null : attentionKernels.get(k);
        return r != null ? r : efficiency.attention();
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

    /** Collective {@code c} of {@code s} bytes per rank over a group of several strided parts ({@link RankGroup}). */
    public CollectiveCost price(Collective c, RankGroup g, double s) {
        return CollectiveCost.price(links, efficiency, measured, c, g, s);
    }

    /** Collective {@code c} of {@code s} bytes per rank over a ring of {@code n} ranks on the tier and NICs of {@code reach}. */
    public CollectiveCost price(Collective c, RankGroup reach, long n, double s) {
        return CollectiveCost.price(links, efficiency, measured, c, reach, n, s);
    }

    /**
     * The tensor path GEMMs of precision {@code d} run on: NVFP4 on the GPU's NVFP4 path, else as MXFP8; MXFP8 on its
     * MXFP8 path, else as fp8; fp8 on its fp8 path, else 16-bit (A100 has none: Transformer Engine refuses fp8 there,
     * and a job that states it is priced as bf16); fp32 on TF32 tensor cores where the GPU has them (PyTorch's and
     * Megatron's default allows TF32 matmuls), else on the fp32 units.
     */
    public ModelShape.Dtype gemmPath(ModelShape.Dtype d) {
        return switch (d) {
            case NVFP4 -> peakFlops.containsKey(ModelShape.Dtype.NVFP4) ? d : gemmPath(ModelShape.Dtype.MXFP8);
            case MXFP8 -> peakFlops.containsKey(ModelShape.Dtype.MXFP8) ? d : gemmPath(ModelShape.Dtype.FP8);
            case FP8 -> peakFlops.containsKey(ModelShape.Dtype.FP8) ? d : ModelShape.Dtype.BF16;
            case FP32, TF32 -> peakFlops.containsKey(ModelShape.Dtype.TF32) ? ModelShape.Dtype.TF32 : ModelShape.Dtype.FP32;
            default -> d;
        };
    }

    /** GEMMs of precision {@code d} run on a quantized tensor path (fp8, MXFP8, NVFP4) of this GPU, with its input casts. */
    public boolean quantizedGemms(ModelShape.Dtype d) {
        return gemmPath(d).quantized();
    }

    /** The dense peak GEMMs of this precision run at, on {@link #gemmPath}. */
    public double gemmPeak(ModelShape.Dtype d) {
        ModelShape.Dtype p = gemmPath(d);
        return switch (p) {
            case FP8, MXFP8, NVFP4 -> peakFlops.get(p);
            case FP32, TF32 -> peakFlops.getOrDefault(p, 0.0);
            default -> sixteenBitPeak(d);
        };
    }

    /** The dense 16-bit peak (bf16, or fp16 for GPUs without bf16). */
    public double sixteenBitPeak(ModelShape.Dtype d) {
        if (d == ModelShape.Dtype.FP16 && peakFlops.containsKey(ModelShape.Dtype.FP16)) return peakFlops.get(ModelShape.Dtype.FP16);
        return peakFlops.getOrDefault(ModelShape.Dtype.BF16, peakFlops.getOrDefault(ModelShape.Dtype.FP16, 0.0));
    }

    /** The achieved fraction of {@link #gemmPeak} for large GEMMs of this precision on its path. */
    public double gemmEfficiency(ModelShape.Dtype d) {
        ModelShape.Dtype p = gemmPath(d);
        return switch (p) {
            case FP8 -> efficiency.gemmFp8();
            case MXFP8, NVFP4 -> blockScaled.getOrDefault(p, efficiency.gemmFp8());
            default -> efficiency.gemm();
        };
    }
}
