package dev.gpulint.derive.estimate;

/**
 * The achieved fractions of the datasheet figures the estimate prices a step with, per GPU family and precision
 * (catalog {@code compute:}; a project's {@code .gpulint.yaml} {@code plan:} may override each). Never per model.
 *
 * @param gemm          large 16-bit GEMMs in training, fraction of the dense 16-bit peak
 * @param gemmFp8       large FP8 GEMMs (Transformer Engine), fraction of the dense FP8 peak
 * @param gemmKernelS   fixed time of one GEMM kernel (launch, tail wave): what makes small GEMMs slow
 * @param expertGemmS   fixed time of one local expert's GEMM in an MoE layer beyond its FLOPs (its launch on one of
 *                      GroupedLinear's streams, its own tail wave), 16-bit ({@link MoeCost}; fitted on H100 bf16)
 * @param expertGemmFp8S the same in FP8 and the block-scaled formats (borrowed from Hopper's 16-bit fit until a
 *                      kernel-level measurement sets it)
 * @param attention     flash attention, executed FLOPs (a causal decoder's: half the s² of Megatron's count) per second
 *                      over the 16-bit peak
 * @param hbm           elementwise kernels, fraction of the HBM bandwidth
 * @param traffic       HBM bytes the elementwise kernels move per byte of stored activations (written forward,
 *                      read backward, gradient written)
 * @param layerS        fixed time per layer per micro-batch, forward and backward (the other kernel launches)
 * @param nvlink        NCCL bus bandwidth over NVLink or Infinity Fabric, fraction of the per-direction rate
 * @param pcie          NCCL bus bandwidth over PCIe, fraction of the per-direction rate
 * @param network       NCCL bus bandwidth across nodes over RDMA NICs (InfiniBand, RoCE), fraction of their line rate
 * @param tcp           NCCL bus bandwidth across nodes over plain Ethernet (NCCL's TCP socket transport: no RDMA, a copy
 *                      through host memory), fraction of the line rate
 * @param dpOverlap     fraction of the data-parallel collectives hidden behind compute (bucketed, overlapped); the rest
 *                      is what the compute they run beside loses to them (1/(1 + slowdown))
 * @param tpOverlap     fraction of the tensor-parallel collectives hidden (0: Megatron's default, no TP overlap)
 * @param ppOverlap     fraction of the pipeline sends hidden in the steady 1F1B phase
 * @param cpOverlap     fraction of the context-parallel ring exchange hidden behind attention
 * @param source        where these come from
 */
public record Efficiency(double gemm, double gemmFp8, double gemmKernelS, double expertGemmS, double expertGemmFp8S,
                         double attention, double hbm, double traffic, double layerS, double nvlink, double pcie, double network,
                         double tcp, double dpOverlap, double tpOverlap, double ppOverlap, double cpOverlap, String source) {

    /** The same efficiencies with one changed by name (the keys of catalog {@code compute:} and {@code plan:}). */
    public Efficiency with(String key, double v) {
        return switch (key) {
            case "gemm" -> new Efficiency(v, gemmFp8, gemmKernelS, expertGemmS, expertGemmFp8S, attention, hbm, traffic, layerS, nvlink, pcie, network, tcp, dpOverlap, tpOverlap, ppOverlap, cpOverlap, source);
            case "gemm_fp8" -> new Efficiency(gemm, v, gemmKernelS, expertGemmS, expertGemmFp8S, attention, hbm, traffic, layerS, nvlink, pcie, network, tcp, dpOverlap, tpOverlap, ppOverlap, cpOverlap, source);
            case "gemm_kernel_s" -> new Efficiency(gemm, gemmFp8, v, expertGemmS, expertGemmFp8S, attention, hbm, traffic, layerS, nvlink, pcie, network, tcp, dpOverlap, tpOverlap, ppOverlap, cpOverlap, source);
            case "expert_gemm_s" -> new Efficiency(gemm, gemmFp8, gemmKernelS, v, expertGemmFp8S, attention, hbm, traffic, layerS, nvlink, pcie, network, tcp, dpOverlap, tpOverlap, ppOverlap, cpOverlap, source);
            case "expert_gemm_fp8_s" -> new Efficiency(gemm, gemmFp8, gemmKernelS, expertGemmS, v, attention, hbm, traffic, layerS, nvlink, pcie, network, tcp, dpOverlap, tpOverlap, ppOverlap, cpOverlap, source);
            case "attention" -> new Efficiency(gemm, gemmFp8, gemmKernelS, expertGemmS, expertGemmFp8S, v, hbm, traffic, layerS, nvlink, pcie, network, tcp, dpOverlap, tpOverlap, ppOverlap, cpOverlap, source);
            case "hbm" -> new Efficiency(gemm, gemmFp8, gemmKernelS, expertGemmS, expertGemmFp8S, attention, v, traffic, layerS, nvlink, pcie, network, tcp, dpOverlap, tpOverlap, ppOverlap, cpOverlap, source);
            case "traffic" -> new Efficiency(gemm, gemmFp8, gemmKernelS, expertGemmS, expertGemmFp8S, attention, hbm, v, layerS, nvlink, pcie, network, tcp, dpOverlap, tpOverlap, ppOverlap, cpOverlap, source);
            case "layer_s" -> new Efficiency(gemm, gemmFp8, gemmKernelS, expertGemmS, expertGemmFp8S, attention, hbm, traffic, v, nvlink, pcie, network, tcp, dpOverlap, tpOverlap, ppOverlap, cpOverlap, source);
            case "nvlink" -> new Efficiency(gemm, gemmFp8, gemmKernelS, expertGemmS, expertGemmFp8S, attention, hbm, traffic, layerS, v, pcie, network, tcp, dpOverlap, tpOverlap, ppOverlap, cpOverlap, source);
            case "pcie" -> new Efficiency(gemm, gemmFp8, gemmKernelS, expertGemmS, expertGemmFp8S, attention, hbm, traffic, layerS, nvlink, v, network, tcp, dpOverlap, tpOverlap, ppOverlap, cpOverlap, source);
            case "network" -> new Efficiency(gemm, gemmFp8, gemmKernelS, expertGemmS, expertGemmFp8S, attention, hbm, traffic, layerS, nvlink, pcie, v, tcp, dpOverlap, tpOverlap, ppOverlap, cpOverlap, source);
            case "tcp" -> new Efficiency(gemm, gemmFp8, gemmKernelS, expertGemmS, expertGemmFp8S, attention, hbm, traffic, layerS, nvlink, pcie, network, v, dpOverlap, tpOverlap, ppOverlap, cpOverlap, source);
            case "dp_overlap" -> new Efficiency(gemm, gemmFp8, gemmKernelS, expertGemmS, expertGemmFp8S, attention, hbm, traffic, layerS, nvlink, pcie, network, tcp, v, tpOverlap, ppOverlap, cpOverlap, source);
            case "tp_overlap" -> new Efficiency(gemm, gemmFp8, gemmKernelS, expertGemmS, expertGemmFp8S, attention, hbm, traffic, layerS, nvlink, pcie, network, tcp, dpOverlap, v, ppOverlap, cpOverlap, source);
            case "pp_overlap" -> new Efficiency(gemm, gemmFp8, gemmKernelS, expertGemmS, expertGemmFp8S, attention, hbm, traffic, layerS, nvlink, pcie, network, tcp, dpOverlap, tpOverlap, v, cpOverlap, source);
            case "cp_overlap" -> new Efficiency(gemm, gemmFp8, gemmKernelS, expertGemmS, expertGemmFp8S, attention, hbm, traffic, layerS, nvlink, pcie, network, tcp, dpOverlap, tpOverlap, ppOverlap, v, source);
            default -> throw new IllegalArgumentException("no efficiency '" + key + "'; known: " + String.join(", ", KEYS));
        };
    }

    /**
     * The fixed time of one local expert's GEMM for GEMMs in {@code d}: {@code expert_gemm_fp8_s} on the FP8 and
     * block-scaled paths, else {@code expert_gemm_s}.
     */
    public double expertGemmS(ModelShape.Dtype d) {
        return d == ModelShape.Dtype.FP8 || d == ModelShape.Dtype.MXFP8 || d == ModelShape.Dtype.NVFP4 ? expertGemmFp8S : expertGemmS;
    }

    /** The names of the efficiencies, as the catalog and .gpulint.yaml write them (their home: the catalog's compute section). */
    public static final java.util.List<String> KEYS = dev.gpulint.catalog.Compute.EFFICIENCIES;

    /** The value of an efficiency by name. */
    public double get(String key) {
        return switch (key) {
            case "gemm" -> gemm; case "gemm_fp8" -> gemmFp8; case "gemm_kernel_s" -> gemmKernelS; case "expert_gemm_s" -> expertGemmS;
            case "expert_gemm_fp8_s" -> expertGemmFp8S; case "attention" -> attention;
            case "hbm" -> hbm; case "traffic" -> traffic; case "layer_s" -> layerS; case "nvlink" -> nvlink; case "pcie" -> pcie;
            case "network" -> network; case "tcp" -> tcp; case "dp_overlap" -> dpOverlap; case "tp_overlap" -> tpOverlap; case "pp_overlap" -> ppOverlap;
            case "cp_overlap" -> cpOverlap;
            default -> throw new IllegalArgumentException("no efficiency '" + key + "'");
        };
    }

    /** Built from values by name (every key present). */
    public static Efficiency of(java.util.Map<String, Double> v, String source) {
        Efficiency e = new Efficiency(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, source);
        for (String k : KEYS) {
            Double x = v.get(k);
            if (x == null) throw new IllegalArgumentException("efficiency '" + k + "' missing");
            e = e.with(k, x);
        }
        return e;
    }
}
