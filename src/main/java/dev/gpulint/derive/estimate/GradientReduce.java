package dev.gpulint.derive.estimate;

import dev.gpulint.spec.Specs;
import java.util.Locale;

/**
 * The bytes of each gradient element the data-parallel reduction moves, and why: the dtype of the main gradients the
 * job states (optimizer.bytes_per_parameter, which the binders set from Megatron's {@code --grad-reduce-in-bf16},
 * NeMo 1's {@code grad_sync_dtype} and NeMo 2's {@code grad_reduce_in_fp32}), else the frameworks' default: fp32 for
 * bf16 and fp8 (Megatron-LM forces {@code --accumulate-allreduce-grads-in-fp32} with {@code --bf16}; torchtitan's FSDP
 * reduces in {@code mixed_precision_reduce: float32}), fp16 for fp16, fp32 in fp32 training. NET003 and the plan both
 * read it, so both move the same bytes.
 *
 * @param bytes 2 or 4
 * @param why   the sentence the assumptions list and NET003 print
 */
public record GradientReduce(double bytes, String why) {

    /** The gradient reduction of a job ({@code zeroStage} does not change the default: see the class comment). */
    public static GradientReduce of(Specs.Job j, long zeroStage) {
        Specs.Model m = j.model();
        ModelShape.Dtype d = ModelShape.Dtype.parse(m == null || m.dtype() == null ? null : m.dtype().value());
        Specs.Optimizer o = j.optimizer();
        if (o != null && o.bytesPerParameter() != null && o.bytesPerParameter().value() != null) {
            double t = o.bytesPerParameter().value();
            double g = bytes(d, StateBytes.of(d, 0, false, t, null));   // the gradients' share of the total, as StateBytes splits it
            return new GradientReduce(g, "gradients reduced in " + (g >= 4 ? "fp32" : "16-bit") + " (" + (int) g + " bytes each): "
                    + "optimizer.bytes_per_parameter " + num(t) + " as written" + stated(j));
        }
        double g = bytes(d, null);
        if (d == ModelShape.Dtype.FP32 || d == ModelShape.Dtype.TF32) {
            return new GradientReduce(g, "gradients reduced in fp32 (4 bytes each): the model trains in " + d.id());
        }
        if (d == ModelShape.Dtype.FP16) {
            return new GradientReduce(g, "gradients reduced in fp16 (2 bytes each): fp16 training keeps fp16 gradients");
        }
        return new GradientReduce(g, "gradients reduced in fp32 (4 bytes each): " + (d == null ? "model.dtype not given (bf16), " : d.id() + ", ")
                + "the default of Megatron-LM (--bf16 forces --accumulate-allreduce-grads-in-fp32) and of torchtitan's FSDP "
                + "(mixed_precision_reduce: float32); a job that reduces in bf16 says so with --grad-reduce-in-bf16, NeMo's "
                + "grad_reduce_in_fp32: false or optimizer.bytes_per_parameter: 16");
    }

    /**
     * Bytes per gradient element for the estimate: the gradients of the job's accounting {@code b} when the job states
     * its bytes per parameter (2 to 4), else the default of its precision {@code d} (a named accounting's gradients
     * are what memory holds, not what the reduction moves: ZeRO's 2 bytes are fp16 gradients, while bf16 jobs reduce
     * in fp32 by default). The same figure as {@link #of} for the job's own inputs.
     */
    public static double bytes(ModelShape.Dtype d, StateBytes b) {
        if (d == ModelShape.Dtype.FP32 || d == ModelShape.Dtype.TF32) return 4;
        if (b != null && b.accounting() == StateBytes.Accounting.STATED) return Math.min(4, Math.max(2, b.gradients()));
        return d == ModelShape.Dtype.FP16 ? 2 : 4;
    }

    /** Where another format said what the bytes per parameter are, as " (from ...)"; else "". */
    static String stated(Specs.Job j) {
        String where = j.statedWhere("bytes_per_parameter");
        return where == null ? "" : " (from " + where + ")";
    }

    private static String num(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.format(Locale.ROOT, "%.1f", v);
    }
}
