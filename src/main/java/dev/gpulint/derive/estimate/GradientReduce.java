package dev.gpulint.derive.estimate;

import dev.gpulint.spec.Specs;
import java.util.Locale;

/**
 * The bytes of each gradient element the data-parallel reduction moves, and why: the dtype of the main gradients the
 * job states (optimizer.bytes_per_parameter, which the binders set from Megatron's {@code --grad-reduce-in-bf16},
 * NeMo 1's {@code grad_sync_dtype} and NeMo 2's {@code grad_reduce_in_fp32}), else the default of its accounting:
 * fp32 main gradients for bf16 and fp8 without ZeRO (Megatron-LM forces {@code --accumulate-allreduce-grads-in-fp32}
 * with {@code --bf16}), 16-bit ones under ZeRO (the ZeRO paper's 2 + 2 + 12) and with fp16, 4 bytes in fp32 training.
 * NET003 and the plan both read it, so both move the same bytes.
 *
 * @param bytes 2 or 4
 * @param why   the sentence the assumptions list and NET003 print
 */
public record GradientReduce(double bytes, String why) {

    /** The gradient reduction of a job at ZeRO stage {@code zeroStage} (the resolved one). */
    public static GradientReduce of(Specs.Job j, long zeroStage) {
        Specs.Model m = j.model();
        ModelShape.Dtype d = ModelShape.Dtype.parse(m == null || m.dtype() == null ? null : m.dtype().value());
        Specs.Optimizer o = j.optimizer();
        if (o != null && o.bytesPerParameter() != null && o.bytesPerParameter().value() != null) {
            double t = o.bytesPerParameter().value();
            double g = d == ModelShape.Dtype.FP32 || d == ModelShape.Dtype.TF32 ? 4 : Math.min(4, Math.max(2, t - 14));
            return new GradientReduce(g, "gradients reduced in " + (g >= 4 ? "fp32" : "16-bit") + " (" + (int) g + " bytes each): "
                    + "optimizer.bytes_per_parameter " + num(t) + " as written" + stated(j));
        }
        boolean distributed = o != null && o.distributed() != null && Boolean.TRUE.equals(o.distributed().value());
        double g = bytes(MemoryModel.StateBytes.of(d == null ? ModelShape.Dtype.BF16 : d, (int) Math.max(0, Math.min(3, zeroStage)), distributed));
        if (d == ModelShape.Dtype.FP32 || d == ModelShape.Dtype.TF32) {
            return new GradientReduce(4, "gradients reduced in fp32 (4 bytes each): the model trains in " + d.id());
        }
        if (zeroStage > 0) {
            return new GradientReduce(g, "gradients reduced in 16-bit (2 bytes each): ZeRO stage " + zeroStage
                    + " keeps 16-bit gradients (the ZeRO paper's 2 + 2 + 12)");
        }
        if (d == ModelShape.Dtype.FP16) {
            return new GradientReduce(g, "gradients reduced in fp16 (2 bytes each): Megatron's fp16 training keeps fp16 gradients");
        }
        return new GradientReduce(g, "gradients reduced in fp32 (4 bytes each): " + (d == null ? "model.dtype not given (bf16), " : d.id() + ", ")
                + "Megatron-LM's default (--bf16 forces --accumulate-allreduce-grads-in-fp32); a job that reduces in bf16 says so with "
                + "--grad-reduce-in-bf16, NeMo's grad_reduce_in_fp32: false or optimizer.bytes_per_parameter: 16");
    }

    /**
     * Bytes per gradient element of an accounting: its main gradients' bytes, 2 (16-bit) to 4 (fp32). The estimate
     * reads it for every candidate layout's accounting; {@link #of} for the job's.
     */
    public static double bytes(MemoryModel.StateBytes b) {
        return Math.min(4, Math.max(2, b.gradients()));
    }

    /** Where another format said what the bytes per parameter are, as " (from ...)"; else "". */
    static String stated(Specs.Job j) {
        if (j.origin() == null) return "";
        for (Specs.Stated s : j.origin().stated()) if (s.quantity().equals("bytes_per_parameter")) return " (from " + s.where() + ")";
        return "";
    }

    private static String num(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.format(Locale.ROOT, "%.1f", v);
    }
}
