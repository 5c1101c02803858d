package dev.gpulint.derive.estimate;

import dev.gpulint.derive.estimate.ModelShape.Dtype;

/**
 * The quantized-GEMM input casts of an MoE layer's routed rows (docs/plan.md, "MoE"). On a quantized GEMM path (fp8,
 * MXFP8, NVFP4) Transformer Engine casts each GEMM's input to the narrow format forward (read 2 bytes, write 1) and its
 * output gradient backward: 6 bytes per input element, the dense path's count ({@link Estimator}). The layer's elementwise
 * term counts the attention's inputs of every layer and the MLP's of a dense layer ({@link Float8Scaling#perTensorCastBytes});
 * an MoE layer's expert GEMMs are this term's, all of them: the experts take each token k times, R = T·k·etp/tp rows of
 * {@code h + ffn/etp} elements. No constant of its own: the bytes move at the catalog's HBM rate ({@code hbm}, set on the
 * NeMo 24.09 table), as the dense casts do.
 * 16-bit jobs cast nothing. Pure.
 */
public final class MoeCasts {
    /** Bytes moved per cast element, forward (input) and backward (output gradient): read 2, write 1, twice. */
    static final double BYTES_PER_ELEMENT = 2 * 3;

    private MoeCasts() {}

    /**
     * @param bytes   HBM bytes of the routed rows' casts (the expert GEMMs' inputs, k rows per token)
     * @param seconds those bytes at the HBM rate
     */
    public record Priced(double bytes, double seconds) {
        static final Priced NONE = new Priced(0, 0);
    }

    /**
     * @param tokens T = b·s/cp tokens per micro-batch
     * @param etp    the experts' tensor-parallel size
     * @param hbm    the HBM rate, bytes/s (bandwidth × the catalog's {@code hbm})
     */
    public static Priced price(ModelShape m, Hardware hw, double tokens, int tp, int etp, double capacity, double hbm) {
        Dtype dt = m.dtype();
        if (!hw.quantizedGemms(dt) || hbm <= 0) return Priced.NONE;
        double h = m.hidden(), ffn = m.ffn();
        double rows = tokens * m.topK() * etp / tp * capacity;
        double bytes = rows * (h + ffn / etp) * BYTES_PER_ELEMENT;
        return new Priced(bytes, bytes / hbm);
    }
}
