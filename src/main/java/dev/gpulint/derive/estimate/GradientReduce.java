package dev.gpulint.derive.estimate;

import dev.gpulint.spec.Specs;
import java.util.Locale;

/**
 * The bytes of each gradient element the data-parallel reduction moves, and why: the dtype of the main gradients the
 * job states (optimizer.bytes_per_parameter, which the binders set from Megatron's {@code --grad-reduce-in-bf16},
 * NeMo 1's {@code grad_sync_dtype} and NeMo 2's {@code grad_reduce_in_fp32}), else the frameworks' default: fp32 for
 * bf16 and fp8 (Megatron-LM forces {@code --accumulate-allreduce-grads-in-fp32} with {@code --bf16}; torchtitan's FSDP
 * reduces in {@code mixed_precision_reduce: float32}), fp16 for fp16, fp32 in fp32 training; a reduction dtype the
 * job states (optimizer.grad_reduce_dtype, torchtitan's mixed_precision_reduce) wins over the default. NET003 and the
 * plan both read it, so both move the same bytes; the width itself is {@link GradientWidth}'s, the one decision the
 * memory accounting reads too.
 *
 * @param bytes 2 or 4
 * @param why   the sentence the assumptions list and NET003 print
 */
public record GradientReduce(double bytes, String why) {

    /** The gradient reduction of a job ({@code zeroStage} does not change the default: see the class comment). */
    public static GradientReduce of(Specs.Job j, long zeroStage) {
        GradientReduce g = decide(j, zeroStage);
        Specs.Optimizer o = j.optimizer();
        if (o == null || o.gradReduceDtype() == null || o.gradReduceDtype().value() == null || StateBytes.Reduce.of(j) != null) return g;
        String where = j.statedWhere("grad_reduce_dtype");
        return new GradientReduce(g.bytes(), (where == null ? "optimizer.grad_reduce_dtype" : where) + " is not a reduction dtype gpulint "
                + "knows (fp32, bf16, fp16; float32, bfloat16, float16): left out; " + g.why());
    }

    private static GradientReduce decide(Specs.Job j, long zeroStage) {
        Specs.Model m = j.model();
        ModelShape.Dtype d = ModelShape.Dtype.parse(m == null || m.dtype() == null ? null : m.dtype().value());
        Specs.Optimizer o = j.optimizer();
        StateBytes.Reduce r = StateBytes.Reduce.of(j);
        double g = StateBytes.of(j, zeroStage).width().reduced();
        boolean wide = d == ModelShape.Dtype.FP32 || d == ModelShape.Dtype.TF32;
        if (r != null && !wide) {
            return new GradientReduce(g, "gradients reduced in " + r.dtype().id() + " (" + (int) g + " bytes each): " + r.where()
                    + " as written");
        }
        if (r == null && o != null && o.bytesPerParameter() != null && o.bytesPerParameter().value() != null) {
            double t = o.bytesPerParameter().value();
            return new GradientReduce(g, "gradients reduced in " + (g >= 4 ? "fp32" : "16-bit") + " (" + (int) g + " bytes each): "
                    + "optimizer.bytes_per_parameter " + num(t) + " as written" + stated(j));
        }
        if (wide) {
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
     * Bytes per gradient element for the estimate: {@link GradientWidth#reduced()} of the job's accounting {@code b}
     * (what it states), else of its precision {@code d} alone. The same figure as {@link #of} for the job's own inputs.
     */
    public static double bytes(ModelShape.Dtype d, StateBytes b) {
        return b != null ? b.width().reduced() : GradientWidth.of(d, 0, null, null, null).reduced();
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
